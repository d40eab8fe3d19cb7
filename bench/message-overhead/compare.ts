/**
 * Two or more builds of agentd side by side: each runs as its own process on
 * the same fake provider, and the same client measures them in alternating
 * rounds, so that the machine's drift falls on all of them alike.
 *
 *   npm run build && cp -r dist /tmp/before      # then change, build again
 *   node --import tsx bench/message-overhead/compare.ts /tmp/before/main.js dist/main.js
 *   MODE=plain node --import tsx bench/message-overhead/compare.ts …   # non-streamed replies
 *
 * A build's directory must resolve agentd's dependencies (inside this checkout, or next to a node_modules).
 * Prints, per build, the p50 and p90 in milliseconds of the time to the first delta (or, with MODE=plain,
 * to the complete reply), over 4,000 messages each after 1,000 of warm-up.
 */
import http from 'node:http';
import path from 'node:path';
import { load, percentile, post, type Timing } from './client.js';
import { createBenchAgent, startAgentd, startFakeProvider } from './processes.js';

const streamed = (process.env.MODE ?? 'stream') !== 'plain';
const builds = process.argv.slice(2);
if (builds.length === 0) throw new Error('usage: compare.ts <main.js> [<main.js> …]');
const rounds = 20;
const perRound = 200;

const provider = await startFakeProvider(0, 0);

async function start(main: string, port: number) {
  const agentd = await startAgentd(
    { AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url, AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model' },
    port,
    [],
    main,
  );
  const { url, key } = agentd;
  const auth = { authorization: `Bearer ${key}` };
  const agent = { id: await createBenchAgent(url, key) };
  const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (index: number) =>
    post(
      connection,
      `${url}/v1/agents/${agent.id}/messages`,
      { text: 'What pays for gas?', userId: `user-${index}`, stream: streamed },
      auth,
      streamed ? 'message.delta' : '"text"',
    );
  const stop = async () => {
    connection.destroy();
    await agentd.stop();
  };
  return { main, send, stop, timings: [] as Timing[] };
}

const servers = await Promise.all(builds.map((main, index) => start(path.resolve(main), 3940 + index)));
try {
  for (const server of servers) await load(1000, 1, server.send);
  for (let round = 0; round < rounds; round += 1) {
    for (const server of servers) {
      server.timings.push(...(await load(perRound, 1, (index) => server.send(10_000 + round * perRound + index))));
    }
  }
  const field = streamed ? 'firstTextMs' : 'totalMs';
  for (const server of servers) {
    const values = server.timings.map((timing) => timing[field]);
    console.log(
      `${server.main}: ${streamed ? 'first delta' : 'complete reply'} p50 ${percentile(values, 0.5).toFixed(3)} ms, p90 ${percentile(values, 0.9).toFixed(3)} ms`,
    );
  }
} finally {
  for (const server of servers) await server.stop();
  await provider.stop();
}
