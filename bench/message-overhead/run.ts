/**
 * What agentd adds to a reply, and how many open streams one instance holds.
 *
 *   npm run build && node --import tsx bench/message-overhead/run.ts
 *
 * Latency: the fake OpenAI-compatible provider (its own process) answers at
 * once; the same client measures requests to the provider directly and
 * through agentd (a built instance, its own process, SQLite, rate limits off).
 * The difference of the percentiles is agentd's overhead: for a non-streamed
 * reply (to the complete response) and for a stream (to the first text).
 * Every message has a userId, so history is read and the exchange stored.
 * The same rounds also measure sdk-floor-server.mjs, a bare server making the
 * same model call through the AI SDK and nothing else: agentd's own part is
 * its time above that floor. CLIENTS=1 measures with one client only (default 1,50).
 * The agent has long-term memory off (MEMORY=on: on, as new agents have it by default).
 * FLOOR=store: the floor also stores each exchange in SQLite with agentd's
 * schema, as agentd must before a non-streamed reply (the storage floor).
 *
 * Capacity: a fresh agentd and a provider that sends one word every 10 seconds hold STREAMS streams open at
 * once (opened OPENING at a time, default 32); agentd's resident memory is read when all of them have begun,
 * then PROBES (default 200) new streams (probe.ts, a process of its own), PROBE_GAP_MS (default 100) apart,
 * measure the time to their first text against the provider's own. Set STREAMS (default 5000) to try other
 * numbers. The provider is at an https: address offering HTTP/2, as hosted providers are; PROVIDER=http makes
 * it plain HTTP/1.1. The agent has long-term memory on, as new agents have it (MEMORY=off: off). HOLD_S
 * (default: WORD_MS, at least 5 s) is how long the streams are held open before memory is read and the probes
 * begin, and the window of "CPU while held" (time to take heap snapshots with
 * NODE_ARGS=--heapsnapshot-signal=SIGUSR2); AGENTD_OUTPUT=file keeps agentd's output, and
 * PROBE_TIMES=prefix each probe's times in order (prefix-agentd.json, prefix-relay.json).
 * The same run then holds as many streams in bare-relay.mjs, a server that only relays the provider's words
 * (no keys, database, history or run records), and probes it the same way: its added time is the floor on
 * this machine, and agentd's own part is its time above it (RELAY=off skips it; RELAY_NODE_ARGS: its flags).
 * STALLS=1 loads stall-watch.mjs into both servers and the provider and prints where each new stream's time went
 * (before the provider call; the call's way there, the provider's own work and the way back; the first delta
 * written) and how many of the slowest met a garbage collection; STALLS=lags also counts the stretches the
 * server's event loop was held. WORD_MS (default 10000) is the provider's time between words (with PROBES=0 and
 * a long HOLD_S, a very large value holds the streams with no words flowing).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { load, percentile, post, type Timing } from './client.js';
import { bootstrapInterval } from './interval.js';
import { cpuMs, createBenchAgent, root, rssBytes, startAgentd, startFakeProvider, startSdkFloor } from './processes.js';
import { makeTestCertificate } from '../../test/helpers/tls-certificate.js';
import { stallHeader, stallRows } from './stalls.js';

const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MiB`;
const fixed = (value: number) => value.toFixed(2);

/** Through agentd against the SDK alone: how much of the added time is the SDK's floor, how much agentd's own. */
function floorSummary(
  label: string,
  direct: Timing[],
  sdk: Timing[],
  through: Timing[],
  field: 'totalMs' | 'firstTextMs',
) {
  const at = (timings: Timing[], fraction: number) =>
    percentile(
      timings.map((timing) => timing[field]),
      fraction,
    );
  const cells = [0.5, 0.99].flatMap((fraction) => {
    const [base, floor, via] = [at(direct, fraction), at(sdk, fraction), at(through, fraction)];
    return [fixed(base), fixed(floor), fixed(via), `${fixed(floor - base)}`, `**${fixed(via - floor)}**`];
  });
  floorLines.push(`| ${label} | ${cells.join(' | ')} |`);
}
const floorLines: string[] = [];
const cpuLines: string[] = [];

function summary(label: string, direct: Timing[], through: Timing[], field: 'totalMs' | 'firstTextMs') {
  const row = (fraction: number) => {
    const base = percentile(
      direct.map((timing) => timing[field]),
      fraction,
    );
    const via = percentile(
      through.map((timing) => timing[field]),
      fraction,
    );
    return { base, via, added: via - base };
  };
  const p50 = row(0.5);
  const p99 = row(0.99);
  console.log(
    `| ${label} | ${fixed(p50.base)} | ${fixed(p50.via)} | **${fixed(p50.added)}** | ${fixed(p99.base)} | ${fixed(p99.via)} | **${fixed(p99.added)}** |`,
  );
}

async function latency() {
  const provider = await startFakeProvider(0, 0);
  // FLOOR=store: the floor also stores each exchange in SQLite (see sdk-floor-server.mjs).
  const floorData = process.env.FLOOR === 'store' ? fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-floor-')) : undefined;
  const sdkFloor = await startSdkFloor(provider.url, floorData).catch(async (error) => {
    await provider.stop();
    throw error;
  });
  const agentd = await startAgentd(
    { AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url, AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model' },
    3917,
  ).catch(async (error) => {
    await sdkFloor.stop();
    await provider.stop();
    throw error;
  });
  try {
    const auth = { authorization: `Bearer ${agentd.key}` };
    const agent = { id: await createBenchAgent(agentd.url, agentd.key) };
    const messagesUrl = `${agentd.url}/v1/agents/${agent.id}/messages`;
    const providerUrl = `${provider.url}/chat/completions`;
    const providerBody = (stream: boolean) => ({
      model: 'bench-model',
      messages: [
        { role: 'system', content: 'You are Bench.' },
        { role: 'user', content: 'What pays for gas?' },
      ],
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });

    console.log(
      '| measurement | provider direct (ms) p50 | through agentd p50 | added p50 | provider direct p99 | through agentd p99 | added p99 |',
    );
    console.log('|---|---|---|---|---|---|---|');
    const concurrencies = (process.env.CLIENTS ?? '1,50').split(',').map(Number);
    for (const concurrency of concurrencies) {
      const total = concurrency === 1 ? 4_000 : 10_000;
      const rounds = 20;
      const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
      const direct = (stream: boolean) => () =>
        post(agent, providerUrl, providerBody(stream), {}, stream ? '"content"' : 'choices');
      const through = (stream: boolean) => (index: number) =>
        post(
          agent,
          messagesUrl,
          { text: 'What pays for gas?', userId: `user-${concurrency}-${index}`, stream },
          auth,
          stream ? 'message.delta' : '"text"',
        );
      const sdkAlone = (stream: boolean) => (index: number) =>
        post(
          agent,
          sdkFloor.url,
          { text: 'What pays for gas?', userId: `user-${concurrency}-${index}`, stream },
          {},
          stream ? 'message.delta' : '"text"',
        );
      // Warm-up: JIT, connection pools, SQLite statement cache.
      await load(500, concurrency, through(false));
      await load(500, concurrency, through(true));
      await load(500, concurrency, direct(false));
      await load(500, concurrency, direct(true));
      await load(500, concurrency, sdkAlone(false));
      await load(500, concurrency, sdkAlone(true));
      // In rounds, each measuring all four in turn, so that a noisy moment on the machine falls on all of them alike.
      const directPlain: Timing[] = [];
      const throughPlain: Timing[] = [];
      const directStream: Timing[] = [];
      const throughStream: Timing[] = [];
      const sdkPlain: Timing[] = [];
      const sdkStream: Timing[] = [];
      const perRound = total / rounds;
      // CPU time the serving process spent on each kind of request, summed over the rounds.
      const cpu = { sdkPlain: 0, throughPlain: 0, sdkStream: 0, throughStream: 0 };
      const counted = async (kind: keyof typeof cpu, pid: number, timings: Promise<Timing[]>) => {
        const before = cpuMs(pid);
        const result = await timings;
        cpu[kind] += cpuMs(pid) - before;
        return result;
      };
      const agentdPid = agentd.process.pid!;
      const sdkPid = sdkFloor.process.pid!;
      for (let round = 0; round < rounds; round += 1) {
        const offset = round * perRound;
        const shifted = (send: (index: number) => Promise<Timing>) => (index: number) => send(offset + index);
        directPlain.push(...(await load(perRound, concurrency, direct(false))));
        sdkPlain.push(...(await counted('sdkPlain', sdkPid, load(perRound, concurrency, sdkAlone(false)))));
        throughPlain.push(
          ...(await counted('throughPlain', agentdPid, load(perRound, concurrency, shifted(through(false))))),
        );
        directStream.push(...(await load(perRound, concurrency, direct(true))));
        sdkStream.push(...(await counted('sdkStream', sdkPid, load(perRound, concurrency, sdkAlone(true)))));
        throughStream.push(
          ...(await counted('throughStream', agentdPid, load(perRound, concurrency, shifted(through(true))))),
        );
      }
      const perRequest = (milliseconds: number) => milliseconds / total;
      for (const [label, sdkCpu, agentdCpu] of [
        ['non-streamed reply', cpu.sdkPlain, cpu.throughPlain],
        ['streamed reply (to its end)', cpu.sdkStream, cpu.throughStream],
      ] as const) {
        cpuLines.push(
          `| ${label}, ${concurrency} client${concurrency > 1 ? 's' : ''} | ${fixed(perRequest(sdkCpu))} | ${fixed(perRequest(agentdCpu))} | **${fixed(perRequest(agentdCpu - sdkCpu))}** |`,
        );
      }
      const clients = `${concurrency} client${concurrency > 1 ? 's' : ''}`;
      floorSummary(`non-streamed reply, ${clients}`, directPlain, sdkPlain, throughPlain, 'totalMs');
      floorSummary(`time to first delta, ${clients}`, directStream, sdkStream, throughStream, 'firstTextMs');
      summary(
        `non-streamed reply, ${concurrency} client${concurrency > 1 ? 's' : ''}`,
        directPlain,
        throughPlain,
        'totalMs',
      );
      summary(
        `time to first delta, ${concurrency} client${concurrency > 1 ? 's' : ''}`,
        directStream,
        throughStream,
        'firstTextMs',
      );
      agent.destroy();
    }
    console.log(
      '\nThe same rounds against the SDK alone (sdk-floor-server.mjs: the same model call, nothing else), in ms:\n' +
        '| measurement | direct p50 | SDK alone p50 | agentd p50 | SDK floor p50 | agentd above the floor p50 | direct p99 | SDK alone p99 | agentd p99 | SDK floor p99 | agentd above the floor p99 |\n' +
        '|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const line of floorLines) console.log(line);
    console.log(
      '\nCPU time per request of the serving process (user + system, from /proc, summed over the rounds), in ms:\n' +
        '| request | SDK alone | agentd | agentd above the SDK |\n|---|---|---|---|',
    );
    for (const line of cpuLines) console.log(line);
  } finally {
    await agentd.stop();
    await sdkFloor.stop();
    await provider.stop();
  }
}

/** Milliseconds to the first occurrence of `marker` in a streamed answer; the request is then dropped. */
/** Connection failures a client retries: the server's listen queue was full or it reset a connection not yet accepted. */
const retriedCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

interface ProbeTimes {
  direct: number[];
  through: number[];
  /** STALLS=1: the files stall-watch.mjs wrote in the server and in the provider. */
  stalls?: { server: string; provider: string };
}

/**
 * STREAMS open streams held by `main` (agentd's dist/main.js, or the bare relay), then the probes' times to a
 * first text through it and from the provider directly.
 */
async function capacity(streams: number, server: 'agentd' | 'relay'): Promise<ProbeTimes> {
  // One word every 10 s, for longer than it takes to open every stream: streams that are open and mostly
  // waiting on the model, as real ones are (at one word a second, 5,000 streams are 5,000 events a second,
  // which measures CPU, not how many streams an instance holds).
  // The provider at an https: address offering HTTP/2, as hosted providers are (PROVIDER=http: plain HTTP/1.1).
  const certificate = process.env.PROVIDER === 'http' ? undefined : makeTestCertificate();
  // STALLS=1: stall-watch.mjs in the server and in the provider records where each probe's time went
  // (STALLS=lags: and the server's stalls).
  const stallsFile = (name: string) =>
    path.join(os.tmpdir(), `agentd-bench-stalls-${server}-${name}-${process.pid}.json`);
  const stalls = process.env.STALLS ? { server: stallsFile('server'), provider: stallsFile('provider') } : undefined;
  const wordMs = Number(process.env.WORD_MS ?? 10_000);
  const provider = await startFakeProvider(wordMs, 120, certificate, stalls?.provider);
  const probes = Number(process.env.PROBES ?? 200);
  const agentd = await startAgentd(
    {
      ...(stalls
        ? { BENCH_STALLS_FILE: stalls.server, BENCH_STALLS_LAGS: process.env.STALLS === 'lags' ? '1' : '0' }
        : {}),
      ...(certificate ? { NODE_EXTRA_CA_CERTS: certificate.certPath } : {}),
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
      AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model',
      AGENTD_PROVIDER_TIMEOUT_MS: '120000',
      // The default bound (100 open streams per account) would refuse all but the first hundred.
      AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: String(streams + probes),
    },
    3918,
    [
      ...(stalls ? ['--import', path.join(root, 'bench/message-overhead/stall-watch.mjs')] : []),
      ...((server === 'relay' ? process.env.RELAY_NODE_ARGS : process.env.NODE_ARGS)?.split(' ').filter(Boolean) ?? []),
    ],
    server === 'relay'
      ? path.join(root, 'bench/message-overhead/bare-relay.mjs')
      : process.env.MAIN
        ? path.resolve(process.env.MAIN)
        : undefined,
  );
  console.log(`\n${server === 'relay' ? 'The bare relay (the floor)' : 'agentd'}:`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const requests: http.ClientRequest[] = [];
  let hangingUp = false;
  try {
    const auth = { authorization: `Bearer ${agentd.key}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${agentd.url}/v1/agents`, {
        method: 'POST',
        headers: auth,
        // Long-term memory as new agents have it (on), unless MEMORY=off.
        body: JSON.stringify({
          name: 'Streams',
          ...(process.env.MEMORY === 'off' ? { memory: { summary: false, facts: false, recall: false } } : {}),
        }),
      })
    ).json()) as { id: string };
    const messagesUrl = `${agentd.url}/v1/agents/${created.id}/messages`;
    // Each stream holds a descriptor in agentd for the client's connection, and over HTTP/1.1 one more for the
    // provider's (over HTTP/2, 100 streams share one): past the process's limit, accepts fail (the kernel's
    // connection is reset) and provider calls cannot connect (503).
    const perStream = certificate ? 1.01 : 2;
    const needed = Math.ceil(perStream * streams + 64);
    const openFiles = /Max open files\s+(\d+)/.exec(fs.readFileSync(`/proc/${agentd.process.pid}/limits`, 'utf8'))?.[1];
    if (openFiles !== undefined && needed > Number(openFiles))
      console.log(`agentd may open ${openFiles} files; ${streams} streams need about ${needed} (ulimit -n)`);
    const idleRss = rssBytes(agentd.process.pid!);
    const idleCpu = cpuMs(agentd.process.pid!);
    await heapSnapshot(agentd.process.pid!, 'idle');
    const started = performance.now();
    let begun = 0;
    let failed = 0;
    let dropped = 0;
    let retries = 0;
    const errors = new Map<string, number>();
    const count = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
    // Opened at a steady pace, as clients arrive: at most OPENING requests at a time waiting for their response
    // (a burst of thousands of connects measures the listen queue, not the streams held). A connection the
    // kernel refused or reset before it was answered is tried again after a short pause, as a client would.
    const opening = Number(process.env.OPENING ?? 32);
    const open = (index: number, attempt = 0): Promise<void> =>
      new Promise<void>((resolve) => {
        const request = http.request(messagesUrl, { method: 'POST', agent, headers: auth });
        let answered = false;
        request.on('error', (error: NodeJS.ErrnoException) => {
          if (answered) return;
          const code = error.code ?? error.message;
          if (retriedCodes.has(code) && attempt < 5) {
            retries += 1;
            count(`${code} (retried)`);
            setTimeout(() => resolve(open(index, attempt + 1)), 100 * 2 ** attempt);
            return;
          }
          failed += 1;
          count(code);
          resolve();
        });
        request.on('response', (response) => {
          answered = true;
          if (response.statusCode === 200) begun += 1;
          else {
            failed += 1;
            count(`HTTP ${response.statusCode}`);
          }
          response.on('data', () => undefined);
          response.on('error', () => undefined);
          // A stream that ends before this run hangs up was dropped (its reply has 120 words, 10 s apart).
          response.once('close', () => {
            if (response.statusCode === 200 && !hangingUp) dropped += 1;
          });
          resolve();
        });
        request.end(JSON.stringify({ text: 'Count slowly.', userId: `stream-${index}`, stream: true }));
        requests.push(request);
      });
    let next = 0;
    await Promise.all(
      Array.from({ length: opening }, async () => {
        while (next < streams) {
          const index = next;
          next += 1;
          await open(index);
          if (process.env.VERBOSE && index % 1000 === 0)
            console.log('opened', index, begun, failed, Math.round(performance.now() - started));
        }
      }),
    );
    if (errors.size > 0) console.log('connection errors and refusals:', Object.fromEntries(errors));
    const openedMs = performance.now() - started;
    const openingCpu = cpuMs(agentd.process.pid!) - idleCpu;
    // Let every stream receive a word, then read memory with all of them open, and the share of a core the
    // server spent meanwhile relaying their words: by default the hold is WORD_MS, a word of every stream
    // however long the opening took.
    const holdCpu = cpuMs(agentd.process.pid!);
    const holdStarted = performance.now();
    const holdMs = 1000 * Number(process.env.HOLD_S ?? Math.max(5, wordMs / 1000));
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    const heldCpu = (cpuMs(agentd.process.pid!) - holdCpu) / (performance.now() - holdStarted);
    const rss = rssBytes(agentd.process.pid!);
    const descriptors = fs.readdirSync(`/proc/${agentd.process.pid}/fd`).length;
    console.log(
      `\n| open streams | failed | retried connects | time to open all | CPU to open them | CPU while held | RSS idle | RSS with all open | per stream | descriptors |`,
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    console.log(
      `| ${begun} | ${failed} | ${retries} | ${(openedMs / 1000).toFixed(1)} s | ${(openingCpu / Math.max(1, begun)).toFixed(2)} ms per stream | ${(heldCpu * 100).toFixed(1)} % of a core | ${mib(idleRss)} | ${mib(rss)} | ${((rss - idleRss) / Math.max(1, begun) / 1024).toFixed(0)} KiB | ${descriptors} |`,
    );
    // With every stream open: the time to the first text of a new stream, through agentd and from the provider
    // directly, alternating, one at a time.
    // The new streams come from a process of their own (probe.ts), as other clients' would: their timings are
    // not held up by this process's work for the open streams (a word a second to read, its own collections).
    const probeRun = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'bench/message-overhead/probe.ts'),
        JSON.stringify({
          providerUrl: provider.url,
          ca: certificate?.cert,
          messagesUrl,
          authorization: auth.authorization,
          probes,
          gapMs: Number(process.env.PROBE_GAP_MS ?? 100),
        }),
      ],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (probeRun.status !== 0) throw new Error(`probe.ts failed: ${probeRun.stderr}`);
    const {
      direct,
      through,
      failed: probesFailed,
    } = JSON.parse(probeRun.stdout.trim().split('\n').at(-1)!) as {
      direct: number[];
      through: number[];
      failed: number;
    };
    if (probesFailed > 0) console.log(`${probesFailed} new streams failed to open`);
    // PROBE_TIMES=prefix keeps each probe's two times, in order (prefix-agentd.json, prefix-relay.json).
    if (process.env.PROBE_TIMES)
      fs.writeFileSync(`${process.env.PROBE_TIMES}-${server}.json`, JSON.stringify({ direct, through }));
    console.log(`\nopen streams that ended before the run hung up (dropped): ${dropped}`);
    await heapSnapshot(agentd.process.pid!, 'open');
    return { direct, through, ...(stalls ? { stalls } : {}) };
  } finally {
    hangingUp = true;
    for (const request of requests) request.destroy();
    agent.destroy();
    await agentd.stop();
    await provider.stop();
  }
}

/**
 * HEAP_SNAPSHOTS=dir (with NODE_ARGS=--heapsnapshot-signal=SIGUSR2): agentd writes a heap snapshot into its
 * working directory when idle and with every stream open, moved to dir as idle/open.heapsnapshot, for
 * `node bench/soak/heap-diff.mjs dir/idle.heapsnapshot dir/open.heapsnapshot`.
 */
async function heapSnapshot(pid: number, name: string): Promise<void> {
  const directory = process.env.HEAP_SNAPSHOTS;
  if (!directory) return;
  fs.mkdirSync(directory, { recursive: true });
  const before = new Set(fs.readdirSync(root));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const written = fs.readdirSync(root).find((file) => file.endsWith('.heapsnapshot') && !before.has(file));
    if (written === undefined) continue;
    // Written when its size stops changing.
    let size = -1;
    while (size !== fs.statSync(path.join(root, written)).size) {
      size = fs.statSync(path.join(root, written)).size;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    fs.renameSync(path.join(root, written), path.join(directory, `${name}.heapsnapshot`));
    return;
  }
}

const streams = Number(process.env.STREAMS ?? 5_000);
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);
if (process.env.ONLY !== 'capacity') await latency();
if (process.env.ONLY !== 'latency') {
  const measured: [string, ProbeTimes][] = [['agentd', await capacity(streams, 'agentd')]];
  if (process.env.RELAY !== 'off') measured.push(['the bare relay', await capacity(streams, 'relay')]);
  const at = (values: number[], fraction: number) => percentile(values, fraction);
  const lines = [
    `\nTime to the first text of a new stream with ${streams} open (${process.env.PROBES ?? 200} each, one at a time), ms:`,
    '| streams held by | provider direct p50 | through p50 | added p50 | provider direct p99 | through p99 | added p99 |',
    '|---|---|---|---|---|---|---|',
  ];
  const added = new Map<string, [number, number]>();
  for (const [label, { direct, through }] of measured) {
    const cells = [0.5, 0.99].map((fraction) => {
      const [base, via] = [at(direct, fraction), at(through, fraction)];
      return { base, via, added: via - base };
    });
    added.set(label, [cells[0]!.added, cells[1]!.added]);
    lines.push(
      `| ${label} | ${cells.map((cell) => `${fixed(cell.base)} | ${fixed(cell.via)} | **${fixed(cell.added)}**`).join(' | ')} |`,
    );
  }
  const floor = added.get('the bare relay');
  const own = added.get('agentd')!;
  if (floor !== undefined) {
    // agentd's added time less the relay's, at a percentile, and its 95 % interval over the four samples.
    const samples = measured.flatMap(([, { direct, through }]) => [through, direct]);
    const ownPart = (fraction: number) => (drawn: number[][]) =>
      at(drawn[0]!, fraction) - at(drawn[1]!, fraction) - (at(drawn[2]!, fraction) - at(drawn[3]!, fraction));
    const interval = (fraction: number) => bootstrapInterval(samples, ownPart(fraction)).map(fixed).join(' to ');
    lines.push(
      `\nagentd above the bare relay (its own part): p50 **${fixed(own[0] - floor[0])}** ms (95 % interval ${interval(0.5)}), ` +
        `p99 **${fixed(own[1] - floor[1])}** ms (95 % interval ${interval(0.99)})`,
    );
  }
  const watched = measured.filter(([, times]) => times.stalls !== undefined);
  if (watched.length > 0) {
    lines.push('\nInside the servers (STALLS), ms:', ...stallHeader);
    for (const [label, times] of watched) {
      lines.push(...stallRows(label, times.stalls!, Number(process.env.PROBES ?? 200)));
      for (const file of Object.values(times.stalls!)) fs.rmSync(file, { force: true });
    }
  }
  console.log(lines.join('\n'));
}
