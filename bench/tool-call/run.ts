/**
 * The time agentd adds around one tool round trip: the model asks for a tool,
 * agentd runs it and sends the result back.
 *
 *   npm run bench:tool-call
 *   TOTAL=1000 node --import tsx bench/tool-call/run.ts           # fewer requests
 *   PROFILE=/tmp/profiles node --import tsx bench/tool-call/run.ts # agentd writes a CPU profile there
 *
 * Three processes: the scripted fake provider (fake-provider.ts: a call of
 * the tool offered, then one word once the result is back), a built agentd
 * (SQLite, rate limits off, private addresses allowed) with an agent that has
 * the math plugin, one with the openapi plugin and one with the http plugin
 * (both calling `GET /items/1` of a small JSON API this process serves on
 * loopback), and one without plugins, and this load generator (1 client,
 * keep-alive).
 *
 * Measured in interleaved rounds, so that a noisy moment of the machine falls
 * on every kind alike: the two-step reply through agentd (non-streamed, and
 * streamed to its one delta and to its end), the provider's own time for the
 * same two requests (agentd's own, recorded by the fake and replayed straight
 * to it one after the other), a one-step reply without tools and its request
 * replayed directly, and, inside the fake, the gap between the end of the
 * answer asking for the tool and the arrival of the request bringing its
 * result. The tools' own run times (mathjs on "1+1"; the openapi and http
 * tools' call of the API through the outbound client) are timed in this process.
 */
import http from 'node:http';
import os from 'node:os';
import { load, percentile, post, type Timing } from '../message-overhead/client.js';
import { cpuMs, startAgentd } from '../message-overhead/processes.js';
import type { AddressInfo } from 'node:net';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { httpPlugin } from '../../src/plugins/http/http-plugin.js';
import { mathPlugin } from '../../src/plugins/math/math-plugin.js';
import { openApiPlugin } from '../../src/plugins/openapi/index.js';
import type { PluginContext, Tool } from '../../src/plugins/plugin.js';
import { startToolFakeProvider } from './processes.js';

const total = Number(process.env.TOTAL ?? 4_000);
const rounds = 20;
const warmUp = 500;
const fixed = (value: number) => value.toFixed(2);
const p = (values: number[], fraction: number) => percentile(values, fraction);

/** The API the openapi and http tools call: one small JSON item, as an API answers a lookup. */
const item = JSON.stringify({ id: 1, name: 'Widget', price: 9.5, tags: ['blue', 'small'] });
const api = http.createServer((request, response) => {
  if (request.headers['x-api-key'] !== 'bench-api-key-0001') response.writeHead(401).end();
  else response.writeHead(200, { 'content-type': 'application/json' }).end(item);
});
api.listen(0, '127.0.0.1');
await new Promise((resolve) => api.once('listening', resolve));
const apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

/** The API described in OpenAPI 3.1: one operation with a path parameter and an API-key scheme. */
const itemsDocument = {
  openapi: '3.1.0',
  info: { title: 'Items', version: '1' },
  security: [{ key: [] }],
  paths: {
    '/items/{id}': {
      get: {
        operationId: 'getItem',
        summary: 'One item.',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '200': { description: 'The item.' } },
      },
    },
  },
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
};
const openApiEntry = {
  name: 'openapi',
  config: { document: itemsDocument, baseUrl: apiOrigin },
  secrets: { key: 'bench-api-key-0001' },
};
const httpEntry = {
  name: 'http',
  // The API's origin written out: a bare host would mean https on port 443 only.
  config: { secretHeaders: { [apiOrigin]: { 'X-Api-Key': 'apiKey' } } },
  secrets: { apiKey: 'bench-api-key-0001' },
};

/**
 * The tools' own run times, as agentd's tool runner calls them, without the runner's checks around them; one call
 * of each in turn, so a noisy moment of the machine falls on each alike.
 */
async function toolRunTimesMs(calls: Array<[Tool, unknown]>, count: number): Promise<number[][]> {
  const signal = new AbortController().signal;
  const times = calls.map((): number[] => []);
  for (let index = 0; index < count + warmUp; index += 1) {
    for (const [position, [tool, input]] of calls.entries()) {
      const started = performance.now();
      await tool.execute(input, { abortSignal: signal });
      if (index >= warmUp) times[position]!.push(performance.now() - started);
    }
  }
  return times;
}

const benchContext = { fetch: createOutboundFetch({ allowPrivateAddresses: true }) } as PluginContext;
const defaults = { timeoutMs: 10_000, maxResponseBytes: 1_048_576 };
const calculate = (await mathPlugin.open({}, {}, benchContext)).tools[0]!;
const getItem = (await openApiPlugin.open({ ...defaults, ...openApiEntry.config }, openApiEntry.secrets, benchContext))
  .tools[0]!;
const fetchUrl = (await httpPlugin.open({ ...defaults, ...httpEntry.config }, httpEntry.secrets, benchContext))
  .tools[0]!;
const [toolMs = [], openApiToolMs = [], httpToolMs = []] = await toolRunTimesMs(
  [
    [calculate, { expression: '1+1' }],
    [getItem, { id: 1 }],
    [fetchUrl, { url: `${apiOrigin}/items/1` }],
  ],
  total,
);
const provider = await startToolFakeProvider(apiOrigin);
const profileDirectory = process.env.PROFILE;
const agentd = await startAgentd(
  {
    AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
    AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model',
    // The bench's API is on loopback.
    AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
  },
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
  const openApiAgent = await createAgent({ plugins: [openApiEntry] });
  const httpAgent = await createAgent({ plugins: [httpEntry] });

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
  const openApiPlain = message(openApiAgent, false, '"text"');
  const httpPlain = message(httpAgent, false, '"text"');

  // The math agent's first: its requests are the samples replayed straight to the provider.
  await load(warmUp, 1, toolPlain);
  await load(warmUp, 1, toolStream);
  await load(warmUp, 1, plainReply);
  await load(warmUp, 1, openApiPlain);
  await load(warmUp, 1, httpPlain);
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
    openApiPlain: [] as Timing[],
    httpPlain: [] as Timing[],
  };
  const gaps = {
    directPair: [] as number[],
    toolPlain: [] as number[],
    toolStream: [] as number[],
    openApiPlain: [] as number[],
    httpPlain: [] as number[],
  };
  // agentd's CPU time (user and system, from /proc) over each kind's requests: what a reply costs agentd,
  // however long a machine busy with other work made it wait.
  const cpu = { toolPlain: 0, plainReply: 0, openApiPlain: 0, httpPlain: 0 };
  const agentdPid = agentd.process.pid!;
  const counted = async (kind: keyof typeof cpu, run: () => Promise<Timing[]>) => {
    const before = cpuMs(agentdPid);
    const result = await run();
    cpu[kind] += cpuMs(agentdPid) - before;
    return result;
  };
  const perRound = Math.ceil(total / rounds);
  for (let round = 0; round < rounds; round += 1) {
    timings.directPair.push(...(await load(perRound, 1, directPair)));
    gaps.directPair.push(...(await provider.take()).replayGapsMs);
    timings.toolPlain.push(...(await counted('toolPlain', () => load(perRound, 1, toolPlain))));
    gaps.toolPlain.push(...(await provider.take()).gapsMs);
    timings.toolStream.push(...(await load(perRound, 1, toolStream)));
    gaps.toolStream.push(...(await provider.take()).gapsMs);
    timings.directAnswer.push(...(await load(perRound, 1, direct(samples['tool-result']))));
    timings.directPlain.push(...(await load(perRound, 1, direct(samples.plain))));
    timings.plainReply.push(...(await counted('plainReply', () => load(perRound, 1, plainReply))));
    timings.openApiPlain.push(...(await counted('openApiPlain', () => load(perRound, 1, openApiPlain))));
    gaps.openApiPlain.push(...(await provider.take()).gapsMs);
    timings.httpPlain.push(...(await counted('httpPlain', () => load(perRound, 1, httpPlain))));
    gaps.httpPlain.push(...(await provider.take()).gapsMs);
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
  row('through agentd: two-step reply with the openapi tool (getItem), non-streamed', totals('openApiPlain'));
  row('through agentd: two-step reply with the http tool (fetch_url), non-streamed', totals('httpPlain'));
  row('the tool alone (calculate "1+1", in-process)', toolMs);
  row('the tool alone (openapi getItem: GET /items/1 on loopback, in-process)', openApiToolMs);
  row('the tool alone (http fetch_url: GET /items/1 on loopback, in-process)', httpToolMs);
  row('gap at the provider: tool call sent → result request in, bare client replaying', gaps.directPair);
  row('gap at the provider: tool call sent → result request in, through agentd, non-streamed', gaps.toolPlain);
  row('gap at the provider: tool call sent → result request in, through agentd, streamed', gaps.toolStream);
  row('gap at the provider: openapi tool call sent → result request in, through agentd', gaps.openApiPlain);
  row('gap at the provider: http tool call sent → result request in, through agentd', gaps.httpPlain);

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
  const apiTool = (label: string, kind: 'openApiPlain' | 'httpPlain', ownMs: number[]) =>
    console.log(
      `- ${label}: per step ${fixed(perStep(totals(kind)))} (the tool's own call included: ${fixed(p(ownMs, 0.5))}); ` +
        `around the round trip, gap − tool ${fixed(p(gaps[kind], 0.5) - p(ownMs, 0.5))}, minus a bare client's gap ` +
        `${fixed(p(gaps[kind], 0.5) - p(ownMs, 0.5) - floor)}; beside calculate, per step ` +
        `${fixed((p(totals(kind), 0.5) - p(totals('toolPlain'), 0.5)) / 2)}`,
    );
  const perReply = (kind: keyof typeof cpu) => cpu[kind] / (perRound * rounds);
  console.log(
    `- agentd CPU per reply: one-step ${fixed(perReply('plainReply'))}, calculate ${fixed(perReply('toolPlain'))}, ` +
      `openapi ${fixed(perReply('openApiPlain'))}, http ${fixed(perReply('httpPlain'))}; ` +
      `per step beside calculate: openapi ${fixed((perReply('openApiPlain') - perReply('toolPlain')) / 2)}, ` +
      `http ${fixed((perReply('httpPlain') - perReply('toolPlain')) / 2)}`,
  );
  apiTool('openapi (getItem)', 'openApiPlain', openApiToolMs);
  apiTool('http (fetch_url with a secret header)', 'httpPlain', httpToolMs);
} finally {
  connection.destroy();
  await agentd.stop();
  await provider.stop();
  api.close();
}
