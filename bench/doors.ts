/**
 * What the MCP and A2A doors add over the REST reply for the same message:
 * one built agentd (SQLite, rate limits off) and the fake provider as
 * processes of their own; one client sends the same message through
 * POST /v1/agents/{id}/messages, an MCP `tools/call` of `send_message` on
 * /v1/mcp (stateless, as every call after the client's `initialize`) and an
 * A2A `SendMessage` on /v1/a2a/{id}, one at a time: each round sends a block
 * of messages through each door, the doors' order turning from round to round
 * so the machine's drift falls on all of them alike.
 * Each door talks in rooms of its own (the same number of them), so the
 * prompts grow alike. Once with the builtin model, once with the fake
 * OpenAI-compatible provider.
 *
 *   npm run bench:doors
 *   ROUNDS=5 PER_ROUND=200 WARMUP=200 node --import tsx bench/doors.ts
 *
 * Prints, per model and door, the p50 and p90 latency of a complete
 * (non-streamed) answer and agentd's CPU time per message (from /proc, which
 * a machine busy with other work does not inflate as it does latency), and
 * what each door adds over REST in both (the median of the rounds' differences,
 * with each round's).
 */
import http from 'node:http';
import { percentile, post, type Timing } from './message-overhead/client.js';
import { cpuMs, startAgentd, startFakeProvider } from './message-overhead/processes.js';

const rounds = Number(process.env.ROUNDS ?? 5);
const perRound = Number(process.env.PER_ROUND ?? 200);
const warmup = Number(process.env.WARMUP ?? 200);
const rooms = 50;
const doors = ['REST', 'MCP', 'A2A'] as const;
type Door = (typeof doors)[number];

const provider = await startFakeProvider(0, 0);
const agentd = await startAgentd(
  { AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url },
  19_000 + Math.floor(Math.random() * 1000),
);
const auth = { authorization: `Bearer ${agentd.key}` };
const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });

async function createAgent(model: { provider: string; name: string }): Promise<string> {
  const created = await fetch(`${agentd.url}/v1/agents`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
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

const text = 'What pays for gas?';
let requestId = 0;

function send(door: Door, agentId: string, index: number): Promise<Timing> {
  const room = `${door}-${index % rooms}`;
  if (door === 'REST') {
    return post(connection, `${agentd.url}/v1/agents/${agentId}/messages`, { text, roomId: room }, auth, '"text"');
  }
  requestId += 1;
  if (door === 'MCP') {
    return post(
      connection,
      `${agentd.url}/v1/mcp`,
      {
        jsonrpc: '2.0',
        id: requestId,
        method: 'tools/call',
        params: { name: 'send_message', arguments: { agentId, text, roomId: room } },
      },
      { ...auth, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      '"result"',
    );
  }
  return post(
    connection,
    `${agentd.url}/v1/a2a/${agentId}`,
    {
      jsonrpc: '2.0',
      id: requestId,
      method: 'SendMessage',
      params: { message: { messageId: `m${requestId}`, contextId: room, role: 'ROLE_USER', parts: [{ text }] } },
    },
    { ...auth, 'a2a-version': '1.0' },
    '"result"',
  );
}

async function checkedSend(door: Door, agentId: string, index: number): Promise<number> {
  const timing = await send(door, agentId, index);
  if (timing.status !== 200) throw new Error(`${door} answered ${timing.status}`);
  return timing.totalMs;
}

function format(ms: number): string {
  return `${ms.toFixed(3)} ms`;
}

try {
  const models = [
    { label: 'builtin model', model: { provider: 'builtin', name: 'echo' } },
    { label: 'fake provider', model: { provider: 'openai-compatible', name: 'bench-model' } },
  ];
  console.log(`${rounds} rounds of ${perRound} messages per door after ${warmup} each, one at a time\n`);
  for (const { label, model } of models) {
    const agentId = await createAgent(model);
    for (let index = 0; index < warmup; index += 1) {
      for (const door of doors) await checkedSend(door, agentId, index);
    }
    const all: Record<Door, number[]> = { REST: [], MCP: [], A2A: [] };
    const cpu: Record<Door, number[]> = { REST: [], MCP: [], A2A: [] };
    const p50s: Record<Door, number[]> = { REST: [], MCP: [], A2A: [] };
    const pid = agentd.process.pid!;
    for (let round = 0; round < rounds; round += 1) {
      for (let turn = 0; turn < doors.length; turn += 1) {
        const door = doors[(round + turn) % doors.length]!;
        const times: number[] = [];
        const cpuBefore = cpuMs(pid);
        for (let index = 0; index < perRound; index += 1) times.push(await checkedSend(door, agentId, index));
        cpu[door].push((cpuMs(pid) - cpuBefore) / perRound);
        p50s[door].push(percentile(times, 0.5));
        all[door].push(...times);
      }
    }
    console.log(label);
    const median = (values: number[]) => percentile(values, 0.5);
    for (const door of doors) {
      const line =
        `  ${door.padEnd(4)} p50 ${format(percentile(all[door], 0.5))}  p90 ${format(percentile(all[door], 0.9))}` +
        `  CPU ${format(median(cpu[door]))}/message`;
      if (door === 'REST') {
        console.log(line);
        continue;
      }
      const latencyAdded = p50s[door].map((value, round) => value - p50s.REST[round]!);
      const cpuAdded = cpu[door].map((value, round) => value - cpu.REST[round]!);
      const rounded = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
      console.log(
        `${line}\n       adds ${format(median(latencyAdded))} at p50 (rounds: ${rounded(latencyAdded)}),` +
          ` ${format(median(cpuAdded))} CPU per message (rounds: ${rounded(cpuAdded)})`,
      );
    }
    console.log('');
  }
} finally {
  connection.destroy();
  await agentd.stop();
  await provider.stop();
}
