/**
 * What the MCP door adds over the REST reply, for two (or more) builds side
 * by side: each build runs as a process of its own (SQLite, rate limits off,
 * the builtin model unless MODEL=fake), all at the same time, and one client
 * sends the same message to each through `POST /v1/agents/{id}/messages` and
 * an MCP `tools/call` of `send_message`, one at a time, in blocks that take
 * turns (build and door, the order turning from round to round) so the
 * machine's drift falls on all of them alike. agentd's CPU time per message is
 * read from /proc for each block: on a machine shared with other work it is
 * the figure to compare, not latency.
 *
 *   npm run build && cp -r dist .before-dist   # …then change, build again
 *   node --import tsx bench/doors-compare.ts .before-dist/main.js dist/main.js
 *   ROUNDS=6 PER_ROUND=200 WARMUP=300 MODEL=fake node --import tsx bench/doors-compare.ts …
 *   DOORS=MCP CPU_PROFILE_DIR=/tmp/profiles node --import tsx bench/doors-compare.ts dist/main.js   # a profile
 *
 * A build copied out of the checkout must sit where `node_modules` is still found (inside the checkout).
 * Prints per build and door the p50 latency and CPU per message, and MCP's added CPU (the median over rounds of
 * MCP's block less REST's, with each round's).
 */
import http from 'node:http';
import path from 'node:path';
import { percentile, post } from './message-overhead/client.js';
import { cpuMs, root, startAgentd, startFakeProvider } from './message-overhead/processes.js';

const builds = process.argv.slice(2);
if (builds.length === 0) throw new Error('name at least one build: path/to/main.js');
const rounds = Number(process.env.ROUNDS ?? 6);
const perRound = Number(process.env.PER_ROUND ?? 200);
const warmup = Number(process.env.WARMUP ?? 300);
// PING: an MCP `ping`, which costs the door alone (no message), to compare what two builds' doors cost.
const doors = (process.env.DOORS ?? 'REST,MCP').split(',') as Array<'REST' | 'MCP' | 'PING'>;
const model =
  process.env.MODEL === 'fake'
    ? { provider: 'openai-compatible', name: 'bench-model' }
    : { provider: 'builtin', name: 'echo' };
const profileDir = process.env.CPU_PROFILE_DIR;
const rooms = 50;
const text = 'What pays for gas?';

const provider = await startFakeProvider(0, 0);
const servers = await Promise.all(
  builds.map((build, index) =>
    startAgentd(
      {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
        ...(profileDir ? { CPU_PROFILE_DIR: profileDir, CPU_PROFILE_FROM_SIGNAL: '1' } : {}),
      },
      20_000 + index * 10 + Math.floor(Math.random() * 900) * 10,
      profileDir ? ['--import', path.join(root, 'bench/cpu-profile-preload.mjs')] : [],
      path.resolve(build),
    ),
  ),
);
const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });

async function createAgent(server: (typeof servers)[number]): Promise<string> {
  const created = await fetch(`${server.url}/v1/agents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      bio: 'A benchmark agent.',
      knowledge: ['Gas is paid in ETH.'],
      model,
      memory: { summary: false, facts: false, recall: false },
    }),
  });
  if (!created.ok) throw new Error(`creating the bench agent: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}

let requestId = 0;
async function send(server: (typeof servers)[number], agentId: string, door: string, index: number): Promise<number> {
  const auth = { authorization: `Bearer ${server.key}` };
  const roomId = `${door}-${index % rooms}`;
  requestId += 1;
  const mcpHeaders = { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  const call = { name: 'send_message', arguments: { agentId, text, roomId } };
  const timing =
    door === 'REST'
      ? await post(connection, `${server.url}/v1/agents/${agentId}/messages`, { text, roomId }, auth, '"text"')
      : door === 'PING'
        ? await post(
            connection,
            `${server.url}/v1/mcp`,
            { jsonrpc: '2.0', id: requestId, method: 'ping' },
            mcpHeaders,
            '"result"',
          )
        : await post(
            connection,
            `${server.url}/v1/mcp`,
            { jsonrpc: '2.0', id: requestId, method: 'tools/call', params: call },
            mcpHeaders,
            '"result"',
          );
  if (timing.status !== 200) throw new Error(`${door} answered ${timing.status}`);
  return timing.totalMs;
}

try {
  const agents = await Promise.all(servers.map(createAgent));
  for (let index = 0; index < warmup; index += 1) {
    for (const [which, server] of servers.entries()) {
      for (const door of doors) await send(server, agents[which]!, door, index);
    }
  }
  // A profile of the measured rounds only: start-up and warm-up left out.
  if (profileDir) for (const server of servers) server.process.kill('SIGUSR2');
  const blocks = builds.flatMap((_, which) => doors.map((door) => ({ which, door })));
  const cpu = new Map<string, number[]>();
  const p50 = new Map<string, number[]>();
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < blocks.length; turn += 1) {
      const { which, door } = blocks[(round + turn) % blocks.length]!;
      const server = servers[which]!;
      const times: number[] = [];
      const before = cpuMs(server.process.pid!);
      for (let index = 0; index < perRound; index += 1) times.push(await send(server, agents[which]!, door, index));
      const key = `${which} ${door}`;
      cpu.set(key, [...(cpu.get(key) ?? []), (cpuMs(server.process.pid!) - before) / perRound]);
      p50.set(key, [...(p50.get(key) ?? []), percentile(times, 0.5)]);
    }
  }
  console.log(
    `${rounds} rounds of ${perRound} messages per build and door after ${warmup} each; model ${model.provider}\n`,
  );
  const median = (values: number[]) => percentile(values, 0.5);
  for (const [which, build] of builds.entries()) {
    console.log(build);
    for (const door of doors) {
      const key = `${which} ${door}`;
      console.log(
        `  ${door.padEnd(4)} p50 ${median(p50.get(key)!).toFixed(3)} ms  CPU ${median(cpu.get(key)!).toFixed(3)} ms/message`,
      );
    }
    if (doors.includes('REST') && doors.includes('MCP')) {
      const rest = cpu.get(`${which} REST`)!;
      const added = cpu.get(`${which} MCP`)!.map((value, round) => value - rest[round]!);
      const restP50 = p50.get(`${which} REST`)!;
      const addedP50 = p50.get(`${which} MCP`)!.map((value, round) => value - restP50[round]!);
      console.log(
        `  MCP adds ${median(added).toFixed(3)} ms CPU per message (rounds: ${added.map((value) => value.toFixed(2)).join(', ')}),` +
          ` ${median(addedP50).toFixed(3)} ms at p50 (rounds: ${addedP50.map((value) => value.toFixed(2)).join(', ')})`,
      );
    }
  }
} finally {
  connection.destroy();
  await Promise.all(servers.map((server) => server.stop()));
  await provider.stop();
}
