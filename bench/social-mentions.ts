/**
 * The social connectors' own cost: one agent on X and one on Bluesky, in one
 * agentd (in-process, SQLite, the builtin model with no word delay, rate
 * limits off), against the fake X API and the fake PDS of the tests, on
 * loopback. Measures, for each platform:
 *
 * - throughput: `--burst` mentions appear at once; from the poll that reads
 *   them to the last reply's request, how many mentions one poller answers a
 *   second (each through the whole message path: memory, run records, the
 *   trail, the daily cap; long answers as threads);
 * - latency: `--samples` mentions appear one at a time at random moments;
 *   for each, from the moment it appears to the arrival of its reply at the
 *   fake, less the model's own time (the run's duration as recorded), against
 *   one poll interval (`--poll-seconds`) + 50 ms.
 *
 * The burst's CPU time per mention (the whole process: agentd, the fakes and
 * the bench) is reported too: it does not depend on what else the machine runs.
 * `--cpu-profile <prefix>` writes a CPU profile of each burst to
 * `<prefix>.<platform>.cpuprofile` (for Chrome's DevTools or speedscope).
 *
 *   npm run bench:social-mentions -- [--burst 400] [--samples 40] [--poll-seconds 1] [--platforms x,bluesky] [--cpu-profile <prefix>]
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { startFakeBluesky } from '../test/helpers/fake-bluesky.js';
import { startFakeX } from '../test/helpers/fake-x-server.js';
import { createTestApp, type TestApp } from '../test/helpers/test-app.js';

const { values: options } = parseArgs({
  options: {
    burst: { type: 'string', default: '400' },
    samples: { type: 'string', default: '40' },
    'poll-seconds': { type: 'string', default: '1' },
    platforms: { type: 'string', default: 'x,bluesky' },
    'cpu-profile': { type: 'string' },
  },
});
const burst = Number(options.burst);
const samples = Number(options.samples);
const pollSeconds = Number(options['poll-seconds']);
const platforms = options.platforms.split(',');

const xAccount = { id: '1500000000000000999', username: 'bench_bot', token: 'x-user-token-bench' };
const skyAccount = { did: 'did:plc:bench4bench4bench4b', handle: 'bench.test', appPassword: 'bsky-app-pass-bench' };
const author = { did: 'did:plc:carol4carol4carol4', handle: 'carol.test' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The model's time per reply: the runs' recorded durations, by their order. */
async function modelTimes(t: TestApp, agentId: string): Promise<number[]> {
  const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs?limit=100` });
  if (response.statusCode !== 200) return [];
  return (response.json().data as Array<{ startedAt?: string; finishedAt?: string }>)
    .filter((run) => run.startedAt && run.finishedAt)
    .map((run) => Date.parse(run.finishedAt!) - Date.parse(run.startedAt!));
}

/** When the first call answering each key arrived, reading only the calls that came since the last look. */
function indexed<Call extends { at: number }>(calls: Call[], keyOf: (call: Call) => string | undefined) {
  const firstAt = new Map<string, number>();
  let read = 0;
  return (key: string): number | null => {
    for (; read < calls.length; read += 1) {
      const call = calls[read]!;
      const callKey = keyOf(call);
      if (callKey !== undefined && !firstAt.has(callKey)) firstAt.set(callKey, call.at);
    }
    return firstAt.get(key) ?? null;
  };
}

interface Platform {
  name: string;
  /** The requests the fake received so far, by endpoint. */
  requests(): string[];
  /** Makes a mention appear; resolves with a function telling when its reply arrived (or null). */
  mention(text: string): () => number | null;
  /** Arrival times of the reads of the mentions. */
  reads(): number[];
}

async function measure(t: TestApp, agentId: string, platform: Platform) {
  // Burst: all at once, between two polls.
  const reads = platform.reads().length;
  await until(() => platform.reads().length > reads, 10_000, 'a poll');
  const requestsBefore = platform.requests().length;
  const profiler = options['cpu-profile'] !== undefined ? new Session() : null;
  if (profiler !== null) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const repliedAt = Array.from({ length: burst }, (_, index) => platform.mention(`question ${index}`));
  await until(() => repliedAt.every((replied) => replied() !== null), 120_000, 'the burst answered');
  // The whole process's CPU (agentd, the fakes, this bench) for the burst: what the wall clock is on an idle CPU.
  const cpu = process.cpuUsage(cpuBefore);
  const requestsPerMention: Record<string, number> = {};
  for (const endpoint of platform.requests().slice(requestsBefore)) {
    requestsPerMention[endpoint] = (requestsPerMention[endpoint] ?? 0) + 1;
  }
  for (const endpoint of Object.keys(requestsPerMention)) {
    requestsPerMention[endpoint] = Number((requestsPerMention[endpoint]! / burst).toFixed(3));
  }
  if (profiler !== null) {
    const { profile } = await profiler.post('Profiler.stop');
    await writeFile(`${options['cpu-profile']}.${platform.name}.cpuprofile`, JSON.stringify(profile));
    profiler.disconnect();
  }
  const readAt = platform.reads().find((at) => at > 0 && at >= Math.min(...platform.reads().slice(reads + 1)))!;
  const last = Math.max(...repliedAt.map((replied) => replied()!));
  const perSecond = burst / ((last - readAt) / 1000);

  // Latency: one at a time, at random moments of the poll interval.
  const latencies: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    await sleep(Math.random() * pollSeconds * 1000);
    const appearedAt = Date.now();
    const replied = platform.mention(`single ${index}`);
    await until(() => replied() !== null, pollSeconds * 1000 + 10_000, 'a reply');
    latencies.push(replied()! - appearedAt);
  }
  const model = await modelTimes(t, agentId);
  const modelMedian = model.length > 0 ? percentile(model, 50) : 0;
  const net = latencies.map((latency) => latency - modelMedian);
  const summary = (values: number[]) => ({
    p50: Math.round(percentile(values, 50)),
    p99: Math.round(percentile(values, 99)),
    max: Math.round(Math.max(...values)),
  });
  return {
    platform: platform.name,
    burst,
    mentionsPerSecond: Math.round(perSecond),
    burstCpuMsPerMention: Number(((cpu.user + cpu.system) / 1000 / burst).toFixed(2)),
    requestsPerMention,
    latencyMs: summary(latencies),
    latencyLessRunMs: summary(net),
    runMedianMs: modelMedian,
    boundMs: pollSeconds * 1000 + 50,
  };
}

async function main() {
  const x = await startFakeX();
  x.addAccount({ id: xAccount.id, username: xAccount.username, userAccessToken: xAccount.token });
  const sky = await startFakeBluesky();
  sky.addAccount(skyAccount);
  sky.addAccount({ ...author, appPassword: 'carol-pass-unused' });
  const t = await createTestApp({
    platforms: true,
    env: {
      AGENTD_RATE_LIMITS: 'off',
      AGENTD_X_API_URL: x.apiUrl,
      AGENTD_BLUESKY_SERVICE_URL: sky.serviceUrl,
      AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
    },
  });
  try {
    const settings = { pollIntervalSeconds: pollSeconds };
    const xAgent = await t.newAgent({
      platforms: [
        { type: 'x', settings: { ...settings, dailyPostCap: 10_000 }, secrets: { userAccessToken: xAccount.token } },
      ],
    });
    const skyAgent = await t.newAgent({
      platforms: [
        {
          type: 'bluesky',
          settings,
          secrets: { identifier: skyAccount.handle, appPassword: skyAccount.appPassword },
        },
      ],
    });
    // Replies indexed as they arrive, so that watching for them costs the agentd under test nothing.
    const xReplies = indexed(x.calls, (call) =>
      call.method === 'POST' && call.path === '/2/tweets' ? call.body?.reply?.in_reply_to_tweet_id : undefined,
    );
    const xPlatform: Platform = {
      name: 'x',
      requests: () => x.calls.map((call) => `${call.method} ${call.path.replace(/[0-9]{6,}/g, ':id')}`),
      mention(text) {
        const id = x.mention(xAccount.id, { authorId: '1700000000000000999', text: `@${xAccount.username} ${text}` });
        return () => xReplies(id);
      },
      reads: () => x.callsTo(/mentions$/, xAccount.id).map((call) => call.at),
    };
    const skyReplies = indexed(sky.calls, (call) =>
      call.nsid === 'com.atproto.repo.createRecord' ? call.body?.record?.reply?.parent?.uri : undefined,
    );
    const skyPlatform: Platform = {
      name: 'bluesky',
      requests: () => sky.calls.map((call) => call.nsid),
      mention(text) {
        const post = sky.mention(skyAccount.did, author, `@${skyAccount.handle} ${text}`);
        return () => skyReplies(post.uri);
      },
      reads: () => sky.callsTo('app.bsky.notification.listNotifications').map((call) => call.at),
    };
    await until(() => xPlatform.reads().length >= 2 && skyPlatform.reads().length >= 2, 20_000, 'both polling');
    const results = [];
    if (platforms.includes('x')) results.push(await measure(t, xAgent.id, xPlatform));
    if (platforms.includes('bluesky')) results.push(await measure(t, skyAgent.id, skyPlatform));
    console.log(JSON.stringify({ pollSeconds, samples, results }, null, 2));
    if (sky.shapeProblems.length > 0) console.log('record problems:', sky.shapeProblems.slice(0, 5));
  } finally {
    await t.close();
    await x.close();
    await sky.close();
  }
}

await main();
