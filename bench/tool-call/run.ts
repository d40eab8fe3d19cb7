/**
 * The time agentd adds around one tool round trip: the model asks for a tool,
 * agentd runs it and sends the result back.
 *
 *   npm run bench:tool-call
 *   TOTAL=1000 node --import tsx bench/tool-call/run.ts           # fewer requests
 *   PROFILE=/tmp/profiles node --import tsx bench/tool-call/run.ts # agentd writes a CPU profile there
 *
 * Three processes: the scripted fake provider (fake-provider.ts: a call of
 * `calculate` on "1+1", then one word once the result is back), a built agentd
 * (SQLite, rate limits off) with an agent that has the math plugin and one
 * without plugins, and this load generator (1 client, keep-alive).
 *
 * Measured in interleaved rounds, so that a noisy moment of the machine falls
 * on every kind alike: the two-step reply through agentd (non-streamed, and
 * streamed to its one delta and to its end), the provider's own time for the
 * same two requests (agentd's own, recorded by the fake and replayed straight
 * to it one after the other), a one-step reply without tools and its request
 * replayed directly, and, inside the fake, the gap between the end of the
 * answer asking for the tool and the arrival of the request bringing its
 * result. The tool's own run time (mathjs on "1+1") is timed in this process.
 */
import http from 'node:http';
import os from 'node:os';
import { load, percentile, post, type Timing } from '../message-overhead/client.js';
import { startAgentd } from '../message-overhead/processes.js';
import { mathPlugin } from '../../src/plugins/math/math-plugin.js';
import type { PluginContext } from '../../src/plugins/plugin.js';
import { startToolFakeProvider } from './processes.js';

const total = Number(process.env.TOTAL ?? 4_000);
const rounds = 20;
const warmUp = 500;
const fixed = (value: number) => value.toFixed(2);
const p = (values: number[], fraction: number) => percentile(values, fraction);

/** The tool's own run time, as agentd's tool runner calls it, without the runner's checks around it. */
async function toolRunTimesMs(count: number): Promise<number[]> {
  const instance = await mathPlugin.open({}, {}, {} as PluginContext);
  const calculate = instance.tools.find((tool) => tool.name === 'calculate')!;
  const signal = new AbortController().signal;
  const times: number[] = [];
  for (let index = 0; index < count + warmUp; index += 1) {
    const started = performance.now();
    await calculate.execute({ expression: '1+1' }, { abortSignal: signal });
    if (index >= warmUp) times.push(performance.now() - started);
  }
  return times;
}

const toolMs = await toolRunTimesMs(total);
const provider = await startToolFakeProvider();
const profileDirectory = process.env.PROFILE;
const agentd = await startAgentd(
  { AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url, AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model' },
  3927,
  profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`] : [],
);
const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
try {
  const auth = { authorization: `Bearer ${agentd.key}` };
  const createAgent = async (body: Record<string, unknown>) => {
    const created = await fetch(`${agentd.url}/v1/agents`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', bio: 'A benchmark agent.', ...body }),
    });
    if (created.status !== 201) throw new Error(`creating an agent answered ${created.status}`);
    return ((await created.json()) as { id: string }).id;
  };
  const toolAgent = await createAgent({ plugins: [{ name: 'math' }] });
  const plainAgent = await createAgent({});

  // Every message has a user of its own, so that no history (with earlier tool calls) grows the prompt.
  let userNumber = 0;
  const message = (agentId: string, stream: boolean, marker: string) => () =>
    post(
      connection,
      `${agentd.url}/v1/agents/${agentId}/messages`,
      { text: 'What is 1+1?', userId: `user-${(userNumber += 1)}`, stream },
      auth,
      marker,
    );
  // One word answers the tool's result: its one delta is also the last, so time to it is time to the final delta.
  const toolPlain = message(toolAgent, false, '"text"');
  const toolStream = message(toolAgent, true, 'message.delta');
  const plainReply = message(plainAgent, false, '"text"');

  await load(warmUp, 1, toolPlain);
  await load(warmUp, 1, toolStream);
  await load(warmUp, 1, plainReply);
  const { samples } = await provider.take();
  const providerUrl = `${provider.url}/chat/completions`;
  const direct = (body: unknown) => () => post(connection, providerUrl, body, {}, '"content"');
  const directPair = async (): Promise<Timing> => {
    const asked = await direct(samples['tool-call'])();
    const answered = await direct(samples['tool-result'])();
    return {
      totalMs: asked.totalMs + answered.totalMs,
      firstTextMs: Number.NaN,
      status: Math.max(asked.status, answered.status),
    };
  };
  await load(warmUp, 1, directPair);
  await load(warmUp, 1, direct(samples.plain));

  const timings = {
    directPair: [] as Timing[],
    directAnswer: [] as Timing[],
    toolPlain: [] as Timing[],
    toolStream: [] as Timing[],
    directPlain: [] as Timing[],
    plainReply: [] as Timing[],
  };
  const gaps = { directPair: [] as number[], toolPlain: [] as number[], toolStream: [] as number[] };
  const perRound = Math.ceil(total / rounds);
  for (let round = 0; round < rounds; round += 1) {
    timings.directPair.push(...(await load(perRound, 1, directPair)));
    gaps.directPair.push(...(await provider.take()).replayGapsMs);
    timings.toolPlain.push(...(await load(perRound, 1, toolPlain)));
    gaps.toolPlain.push(...(await provider.take()).gapsMs);
    timings.toolStream.push(...(await load(perRound, 1, toolStream)));
    gaps.toolStream.push(...(await provider.take()).gapsMs);
    timings.directAnswer.push(...(await load(perRound, 1, direct(samples['tool-result']))));
    timings.directPlain.push(...(await load(perRound, 1, direct(samples.plain))));
    timings.plainReply.push(...(await load(perRound, 1, plainReply)));
  }

  const totals = (kind: keyof typeof timings) => timings[kind].map((timing) => timing.totalMs);
  const deltas = timings.toolStream.map((timing) => timing.firstTextMs);
  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  console.log(`${perRound * rounds} requests of each kind in ${rounds} interleaved rounds, 1 client\n`);
  console.log('| measurement | p50 ms | p90 ms |');
  console.log('|---|---|---|');
  const row = (label: string, values: number[]) =>
    console.log(`| ${label} | ${fixed(p(values, 0.5))} | ${fixed(p(values, 0.9))} |`);
  row('provider direct: both steps (asks for the tool + answers)', totals('directPair'));
  row('provider direct: the answer to the tool result alone', totals('directAnswer'));
  row('through agentd: two-step reply, non-streamed', totals('toolPlain'));
  row('through agentd: two-step reply, streamed, to the final delta', deltas);
  row('through agentd: two-step reply, streamed, to the end (completed)', totals('toolStream'));
  row('provider direct: one-step request (no tools)', totals('directPlain'));
  row('through agentd: one-step reply (no tools), non-streamed', totals('plainReply'));
  row('the tool alone (calculate "1+1", in-process)', toolMs);
  row('gap at the provider: tool call sent → result request in, bare client replaying', gaps.directPair);
  row('gap at the provider: tool call sent → result request in, through agentd, non-streamed', gaps.toolPlain);
  row('gap at the provider: tool call sent → result request in, through agentd, streamed', gaps.toolStream);

  const toolP50 = p(toolMs, 0.5);
  const perStep = (through: number[]) => (p(through, 0.5) - p(totals('directPair'), 0.5)) / 2;
  const roundTrip = p(totals('toolPlain'), 0.5) - p(totals('plainReply'), 0.5) - p(totals('directAnswer'), 0.5);
  console.log('\nagentd added (p50, ms):');
  console.log(
    `- per step, (two-step reply − provider's two calls) / 2: non-streamed ${fixed(perStep(totals('toolPlain')))}, streamed to the final delta ${fixed(perStep(deltas))}, to the end ${fixed(perStep(totals('toolStream')))}`,
  );
  console.log(
    `- around the round trip, gap − tool: non-streamed ${fixed(p(gaps.toolPlain, 0.5) - toolP50)}, streamed ${fixed(p(gaps.toolStream, 0.5) - toolP50)}`,
  );
  const floor = p(gaps.directPair, 0.5);
  console.log(
    `- around the round trip, gap − tool − a bare client's gap: non-streamed ${fixed(p(gaps.toolPlain, 0.5) - toolP50 - floor)}, streamed ${fixed(p(gaps.toolStream, 0.5) - toolP50 - floor)}`,
  );
  console.log(`- by the round trip, two-step − one-step reply − the provider's second answer: ${fixed(roundTrip)}`);
} finally {
  connection.destroy();
  await agentd.stop();
  await provider.stop();
}
