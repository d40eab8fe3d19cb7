/**
 * What one image attachment adds to a message: a built agentd on the builtin
 * model (no provider, so the model's own time is out of it: what is left is
 * agentd reading the JSON body, decoding the base64, checking the type by
 * its magic bytes, reading the pixel size from the header, and storing the
 * file with the turn), measured by one client alternating a message without
 * an attachment and the same message with one 1 MiB PNG, on a keep-alive
 * connection, so that the machine's drift falls on both alike. The image
 * goes two ways: base64 in the JSON body, and as the raw bytes of a
 * multipart/form-data file part (no JSON text to parse, nothing to decode);
 * the three kinds of message take turns, their order turning each time.
 *
 *   npm run bench:image-attachment
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:image-attachment   # PostgreSQL
 *
 * ROUNDS (default 10) of PER_ROUND (50) pairs after WARMUP (100) pairs;
 * IMAGE_BYTES (1,048,576). AGENTD_MAIN runs another build (the `dist/main.js`
 * of a checkout before a change, copied inside this one so it finds its
 * packages) for a side-by-side run; CPU_PROFILE_DIR writes agentd's CPU
 * profile there (bench/profile-top.mjs summarises it). Prints the p50 and p90 of each kind, agentd's CPU
 * ms per message of each kind (and over the plain one), the p50 of each
 * image kind's difference to the plain message sent next to it, and per round
 * that p50 (the spread the machine gave).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createFreshDatabase, type FreshDatabase } from '../test/helpers/postgres.js';
import { pngOfAbout } from '../test/helpers/images.js';
import { percentile, post, postBytes } from './message-overhead/client.js';
import { cpuMs, createBenchAgent, startAgentd } from './message-overhead/processes.js';

const rounds = Number(process.env.ROUNDS ?? 10);
const perRound = Number(process.env.PER_ROUND ?? 50);
const warmup = Number(process.env.WARMUP ?? 100);
const imageBytes = Number(process.env.IMAGE_BYTES ?? 1_048_576);
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

const database: FreshDatabase | undefined = postgresUrl
  ? await createFreshDatabase(postgresUrl, 'agentd_bench_images')
  : undefined;
const profileDirectory = process.env.CPU_PROFILE_DIR;
const agentd = await startAgentd(
  {
    AGENTD_DEFAULT_MODEL: 'builtin/echo',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(profileDirectory
      ? {
          NODE_OPTIONS: `--import=${path.join(import.meta.dirname, 'cpu-profile-preload.mjs')}`,
          CPU_PROFILE_DIR: path.resolve(profileDirectory),
        }
      : {}),
  },
  3000 + Math.floor(Math.random() * 2000),
  [],
  process.env.AGENTD_MAIN ? path.resolve(process.env.AGENTD_MAIN) : undefined,
);
const image = pngOfAbout(imageBytes);
const data = image.toString('base64');
try {
  const agentId = await createBenchAgent(agentd.url, agentd.key);
  const url = `${agentd.url}/v1/agents/${agentId}/messages`;
  const headers = { authorization: `Bearer ${agentd.key}` };
  const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let user = 0;
  const text = 'What is this?';
  /** The multipart body of a message with the image as a file part (its boundary fixed, the userId varying). */
  const boundary = 'agentdbenchboundary7d1c';
  const multipartOf = (userId: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="text"\r\n\r\n${text}\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="userId"\r\n\r\n${userId}\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="attachments"; filename="image.png"\r\n` +
          'content-type: image/png\r\n\r\n',
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const kinds = {
    plain: () => post(connection, url, { text, userId: `u${(user += 1)}` }, headers, '"text"'),
    base64: () =>
      post(
        connection,
        url,
        { text, userId: `u${(user += 1)}`, attachments: [{ type: 'image', data }] },
        headers,
        '"text"',
      ),
    multipart: () =>
      postBytes(
        connection,
        url,
        multipartOf(`u${(user += 1)}`),
        `multipart/form-data; boundary=${boundary}`,
        headers,
        '"text"',
      ),
  };
  type Kind = keyof typeof kinds;
  // KINDS=plain,multipart leaves the base64 message out (a shorter run when only the multipart path changed).
  const chosen = process.env.KINDS?.split(',') ?? Object.keys(kinds);
  const names = (Object.keys(kinds) as Kind[]).filter((name) => name === 'plain' || chosen.includes(name));
  const imageKinds = names.filter((name): name is 'base64' | 'multipart' => name !== 'plain');
  for (let index = 0; index < warmup; index += 1) for (const name of names) await kinds[name]();

  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Kind, number[]>;
  const cpu = Object.fromEntries(names.map((name) => [name, 0])) as Record<Kind, number>;
  const differences = { base64: [] as number[], multipart: [] as number[] };
  const roundDifferences = { base64: [] as number[], multipart: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    const roundDifference = { base64: [] as number[], multipart: [] as number[] };
    for (let index = 0; index < perRound; index += 1) {
      // The order turns from message to message, so that a busy moment falls on every kind alike.
      const order = names.map((_, offset) => names[(index + offset) % names.length]!);
      const measured = {} as Record<Kind, number>;
      for (const name of order) {
        const before = cpuMs(agentd.process.pid!);
        const timing = await kinds[name]();
        if (timing.status !== 200) throw new Error(`${name} answered ${timing.status}`);
        cpu[name] += cpuMs(agentd.process.pid!) - before;
        times[name].push(timing.totalMs);
        measured[name] = timing.totalMs;
      }
      for (const name of imageKinds) {
        differences[name].push(measured[name] - measured.plain);
        roundDifference[name].push(measured[name] - measured.plain);
      }
    }
    for (const name of imageKinds) roundDifferences[name].push(percentile(roundDifference[name], 0.5));
  }
  const count = rounds * perRound;
  const format = (value: number) => value.toFixed(2);
  console.log(
    `image-attachment on ${database ? 'PostgreSQL' : 'SQLite'}, builtin model, ${count} triples ` +
      `(${rounds} rounds of ${perRound}, warm-up ${warmup}), image ${image.length} bytes (${data.length} base64 characters)`,
  );
  const labels: Record<Kind, string> = {
    plain: 'without attachment ',
    base64: 'image as base64 JSON',
    multipart: 'image as multipart ',
  };
  for (const name of names) {
    console.log(
      `  ${labels[name]}  p50 ${format(percentile(times[name], 0.5))} ms  p90 ${format(percentile(times[name], 0.9))} ms  ` +
        `cpu ${format(cpu[name] / count)} ms/message` +
        (name === 'plain' ? '' : ` (+${format((cpu[name] - cpu.plain) / count)})`),
    );
  }
  for (const name of imageKinds) {
    console.log(
      `  added by the ${name.padEnd(9)} image  p50 ${format(percentile(differences[name], 0.5))} ms (per message)  ` +
        `rounds: median ${format(percentile(roundDifferences[name], 0.5))} ms, ` +
        `range ${format(Math.min(...roundDifferences[name]))}–${format(Math.max(...roundDifferences[name]))} ms`,
    );
  }
  connection.destroy();
} finally {
  await agentd.stop();
  await database?.drop();
}
