/**
 * What one image attachment adds to a message: a built agentd on the builtin
 * model (no provider, so the model's own time is out of it: what is left is
 * agentd reading the JSON body, decoding the base64, checking the type by
 * its magic bytes, reading the pixel size from the header, and storing the
 * file with the turn), measured by one client alternating a message without
 * an attachment and the same message with one 1 MiB PNG, on a keep-alive
 * connection, so that the machine's drift falls on both alike.
 *
 *   npm run bench:image-attachment
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:image-attachment   # PostgreSQL
 *
 * ROUNDS (default 10) of PER_ROUND (50) pairs after WARMUP (100) pairs;
 * IMAGE_BYTES (1,048,576). Prints the p50 and p90 of each kind, the p50 of
 * the difference per pair, agentd's CPU ms per message of each kind, and per
 * round the p50 difference (the spread the machine gave).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { createFreshDatabase, type FreshDatabase } from '../test/helpers/postgres.js';
import { pngOfAbout } from '../test/helpers/images.js';
import { percentile, post } from './message-overhead/client.js';
import { cpuMs, createBenchAgent, startAgentd } from './message-overhead/processes.js';

const rounds = Number(process.env.ROUNDS ?? 10);
const perRound = Number(process.env.PER_ROUND ?? 50);
const warmup = Number(process.env.WARMUP ?? 100);
const imageBytes = Number(process.env.IMAGE_BYTES ?? 1_048_576);
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

const database: FreshDatabase | undefined = postgresUrl
  ? await createFreshDatabase(postgresUrl, 'agentd_bench_images')
  : undefined;
const agentd = await startAgentd(
  {
    AGENTD_DEFAULT_MODEL: 'builtin/echo',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    ...(database ? { DATABASE_URL: database.url } : {}),
  },
  3000 + Math.floor(Math.random() * 2000),
);
const image = pngOfAbout(imageBytes);
const data = image.toString('base64');
try {
  const agentId = await createBenchAgent(agentd.url, agentd.key);
  const url = `${agentd.url}/v1/agents/${agentId}/messages`;
  const headers = { authorization: `Bearer ${agentd.key}` };
  const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let user = 0;
  const plain = () => post(connection, url, { text: 'What is this?', userId: `u${(user += 1)}` }, headers, '"text"');
  const withImage = () =>
    post(
      connection,
      url,
      { text: 'What is this?', userId: `u${(user += 1)}`, attachments: [{ type: 'image', data }] },
      headers,
      '"text"',
    );
  for (let index = 0; index < warmup; index += 1) {
    await plain();
    await withImage();
  }

  const plainMs: number[] = [];
  const imageMs: number[] = [];
  const differences: number[] = [];
  const roundDifferences: number[] = [];
  let plainCpu = 0;
  let imageCpu = 0;
  for (let round = 0; round < rounds; round += 1) {
    const roundDifference: number[] = [];
    for (let index = 0; index < perRound; index += 1) {
      // Who goes first alternates, so that a busy moment falls on both kinds alike.
      const imageFirst = index % 2 === 1;
      const measure = async (send: () => ReturnType<typeof plain>) => {
        const before = cpuMs(agentd.process.pid!);
        const timing = await send();
        if (timing.status !== 200) throw new Error(`answered ${timing.status}`);
        return { ms: timing.totalMs, cpu: cpuMs(agentd.process.pid!) - before };
      };
      const first = await measure(imageFirst ? withImage : plain);
      const second = await measure(imageFirst ? plain : withImage);
      const [withAttachment, without] = imageFirst ? [first, second] : [second, first];
      plainMs.push(without.ms);
      imageMs.push(withAttachment.ms);
      plainCpu += without.cpu;
      imageCpu += withAttachment.cpu;
      differences.push(withAttachment.ms - without.ms);
      roundDifference.push(withAttachment.ms - without.ms);
    }
    roundDifferences.push(percentile(roundDifference, 0.5));
  }
  const count = rounds * perRound;
  const format = (value: number) => value.toFixed(2);
  console.log(
    `image-attachment on ${database ? 'PostgreSQL' : 'SQLite'}, builtin model, ${count} pairs ` +
      `(${rounds} rounds of ${perRound}, warm-up ${warmup}), image ${image.length} bytes (${data.length} base64 characters)`,
  );
  console.log(
    `  without attachment  p50 ${format(percentile(plainMs, 0.5))} ms  p90 ${format(percentile(plainMs, 0.9))} ms  cpu ${format(plainCpu / count)} ms/message`,
  );
  console.log(
    `  with one image      p50 ${format(percentile(imageMs, 0.5))} ms  p90 ${format(percentile(imageMs, 0.9))} ms  cpu ${format(imageCpu / count)} ms/message`,
  );
  console.log(
    `  added by the image  p50 ${format(percentile(differences, 0.5))} ms (per pair)  ` +
      `p50 difference ${format(percentile(imageMs, 0.5) - percentile(plainMs, 0.5))} ms  ` +
      `rounds: median ${format(percentile(roundDifferences, 0.5))} ms, range ${format(Math.min(...roundDifferences))}–${format(Math.max(...roundDifferences))} ms`,
  );
  connection.destroy();
} finally {
  await agentd.stop();
  await database?.drop();
}
