import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addCounts,
  emptyCounts,
  histogramBucketOf,
  histogramPercentile,
  histogramSize,
  latencyBoundsMs,
} from '../../src/events/metric-counts.js';

function histogramOf(samples: number[]): number[] {
  const histogram = new Array<number>(histogramSize).fill(0);
  for (const sample of samples) (histogram[histogramBucketOf(sample)] as number) += 1;
  return histogram;
}

describe('latency histograms', () => {
  it('has no percentile without samples', () => {
    assert.equal(histogramPercentile(histogramOf([]), 0.5), null);
  });

  it('reports the upper bound of the bucket holding the percentile: never below the true value', () => {
    // 90 fast (8 ms) and 10 slow (820 ms) samples.
    const samples = [...Array.from({ length: 90 }, () => 8), ...Array.from({ length: 10 }, () => 820)];
    const histogram = histogramOf(samples);
    assert.equal(histogramPercentile(histogram, 0.5), 10);
    assert.equal(histogramPercentile(histogram, 0.9), 10);
    assert.equal(histogramPercentile(histogram, 0.95), 1000);
    assert.equal(histogramPercentile(histogram, 0.99), 1000);
  });

  it('puts a value on a bound in that bound’s bucket, and above the last bound reports the last bound', () => {
    assert.equal(histogramPercentile(histogramOf([100]), 0.5), 100);
    assert.equal(histogramPercentile(histogramOf([100.5]), 0.5), 150);
    assert.equal(histogramPercentile(histogramOf([10_000_000]), 0.99), latencyBoundsMs.at(-1));
  });

  it('merges by addition: two halves give the percentiles of the whole', () => {
    const first = emptyCounts();
    const second = emptyCounts();
    first.latency = histogramOf([5, 5, 5]);
    second.latency = histogramOf([2000, 2000, 2000, 2000]);
    first.failures.timeout = 1;
    second.failures.timeout = 2;
    addCounts(first, second);
    assert.equal(histogramPercentile(first.latency, 0.5), 2500);
    assert.equal(histogramPercentile(first.latency, 0.4), 5);
    assert.equal(first.failures.timeout, 3);
  });
});
