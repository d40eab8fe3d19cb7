import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarize, type Sample } from '../../bench/soak/soak-summary.js';
import { TrafficTally } from '../../bench/soak/traffic-tally.js';

const mebibyte = 1_048_576;
const start = Date.parse('2026-11-23T10:00:00.000Z');

function sample(secondsFromStart: number, rssMiB: number, extra: Partial<Sample> = {}): Sample {
  return {
    time: new Date(start + secondsFromStart * 1000).toISOString(),
    seconds: secondsFromStart,
    rss: rssMiB * mebibyte,
    heapUsed: 50 * mebibyte,
    heapTotal: 80 * mebibyte,
    external: 0,
    arrayBuffers: 0,
    loopDelayP50Ms: 1,
    loopDelayP99Ms: 5,
    loopDelayMaxMs: 9,
    activeResources: 10,
    resourceKinds: {},
    fileDescriptors: 30,
    ...extra,
  };
}

/** Ten minutes of traffic sampled every 5 s, between an idle sample before and after. */
function run(rssAt: (second: number) => number): Sample[] {
  const samples = [sample(-5, 100, { activeResources: 2 })];
  for (let second = 0; second <= 600; second += 5) samples.push(sample(second, rssAt(second)));
  samples.push(sample(610, 150, { activeResources: 3 }));
  return samples;
}

const window = { trafficStartedAt: start, trafficEndedAt: start + 600_000, warmUpFraction: 0.2 };

test('RSS growth compares the tenth of the traffic time after warm-up with the last tenth', () => {
  // Warm-up ends at 120 s; 200 MiB then, growing to 220 MiB at the end: 10 %.
  const summary = summarize(
    run((second) => (second < 120 ? 150 : 200 + ((second - 120) / 480) * 20)),
    window,
    new TrafficTally().summary(),
  );
  assert.equal(summary.warmUpSeconds, 120);
  assert.ok(summary.rssMiB.atWarmUpEnd > 200 && summary.rssMiB.atWarmUpEnd < 202, String(summary.rssMiB.atWarmUpEnd));
  assert.ok(summary.rssMiB.atEnd > 218 && summary.rssMiB.atEnd < 220, String(summary.rssMiB.atEnd));
  assert.ok(summary.rssGrowthPercent > 8.5 && summary.rssGrowthPercent < 10, String(summary.rssGrowthPercent));
  assert.equal(summary.rssMiB.idleBefore, 100);
  assert.equal(summary.rssMiB.idleAfter, 150);
  assert.equal(summary.activeResources.idleBefore, 2);
  assert.equal(summary.activeResources.idleAfter, 3);
});

test('growth during warm-up and a single spike at the end are not counted as growth', () => {
  const summary = summarize(
    run((second) => (second < 120 ? 100 + second : second === 595 ? 400 : 200)),
    window,
    new TrafficTally().summary(),
  );
  assert.equal(summary.rssGrowthPercent, 0);
  assert.equal(summary.rssMiB.maxAfterWarmUp, 400);
});

test("5xx answers are counted apart from the contract's 503s", () => {
  const tally = new TrafficTally();
  tally.record('get', 200, 1);
  tally.record('message builtin', 503, 1);
  tally.record('message builtin', 500, 1);
  tally.record('stream provider', 502, 1);
  const summary = summarize(
    run(() => 200),
    window,
    tally.summary(),
  );
  assert.equal(summary.serverErrorsOtherThan503, 2);
  assert.deepEqual(summary.requestsByStatus, { '200': 1, '500': 1, '502': 1, '503': 1 });
});

test('a run too short to have samples after warm-up says so instead of reporting numbers', () => {
  assert.throws(
    () => summarize([sample(-5, 100), sample(0, 100), sample(700, 100)], window, new TrafficTally().summary()),
    /too few samples/,
  );
});
