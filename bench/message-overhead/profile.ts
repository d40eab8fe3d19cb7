/**
 * A CPU profile of agentd's message path: a built agentd (SQLite, rate limits
 * off) against the fake provider answering at once, one client sending
 * MESSAGES non-streamed then MESSAGES streamed messages (each a new userId, as
 * the latency bench sends them), then the profile's top frames.
 *
 *   npm run build && node --import tsx bench/message-overhead/profile.ts [directory]
 *   MEMORY=on ...   # the agent with long-term memory on (the default for new agents); off by default here
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { load, post } from './client.js';
import { cpuMs, createBenchAgent, startAgentd, startFakeProvider } from './processes.js';

const directory = path.resolve(process.argv[2] ?? fs.mkdtempSync('/tmp/agentd-message-profile-'));
fs.mkdirSync(directory, { recursive: true });
const messages = Number(process.env.MESSAGES ?? 3000);
const provider = await startFakeProvider(0, 0);
const agentd = await startAgentd(
  { AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url, AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model' },
  3919,
  ['--cpu-prof', '--cpu-prof-dir', directory],
);
try {
  const auth = { authorization: `Bearer ${agentd.key}` };
  const agent = { id: await createBenchAgent(agentd.url, agentd.key) };
  const url = `${agentd.url}/v1/agents/${agent.id}/messages`;
  const client = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (stream: boolean) => (index: number) =>
    post(
      client,
      url,
      { text: 'What pays for gas?', userId: `user-${stream}-${index}`, stream },
      auth,
      stream ? 'message.delta' : '"text"',
    );
  for (const stream of [false, true]) {
    const before = cpuMs(agentd.process.pid!);
    const timings = await load(messages, 1, send(stream));
    const cpu = (cpuMs(agentd.process.pid!) - before) / messages;
    const field = stream ? 'firstTextMs' : 'totalMs';
    const sorted = timings.map((timing) => timing[field]).sort((a, b) => a - b);
    console.log(
      `${stream ? 'streamed (first delta)' : 'non-streamed'}: p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, CPU ${cpu.toFixed(2)} ms a message`,
    );
  }
} finally {
  await agentd.stop();
  await provider.stop();
}
const [profile] = fs.readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'));
console.log(`profile: ${path.join(directory, profile ?? '(none)')}`);
