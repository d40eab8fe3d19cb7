import { percentile } from './client.js';

/**
 * How sure a difference of percentiles is: a 95 % bootstrap interval (each
 * sample drawn again with replacement, `rounds` times, seeded so a run's
 * figures can be computed again). A p99 of 1,000 new streams is their 10th
 * slowest, so one or two probes that met a busy moment move it by milliseconds;
 * the interval says how far.
 */
export function bootstrapInterval(
  samples: number[][],
  statistic: (samples: number[][]) => number,
  rounds = 2000,
  seed = 1,
): [number, number] {
  let state = seed >>> 0;
  // mulberry32: small, fast and good enough to draw indexes.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const values: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const drawn = samples.map((sample) => sample.map(() => sample[Math.floor(random() * sample.length)]!));
    values.push(statistic(drawn));
  }
  return [percentile(values, 0.025), percentile(values, 0.975)];
}
