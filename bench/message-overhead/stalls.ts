/**
 * What stall-watch.mjs recorded in a server of the capacity run (STALLS=1), as table rows: where a new
 * stream's time went inside the server, and how many of the slowest met a garbage collection or a stall.
 */
import fs from 'node:fs';
import { percentile } from './client.js';

interface Recorded {
  /** `performance.timeOrigin` of the process: its times plus this are comparable with another process's. */
  origin: number;
  requests: { began: number; delta: number }[];
  calls: { sent: number; data: number }[];
  /** Start, duration, kind (1 young, 4 full, 8 incremental marking). */
  collections: [number, number, number][];
  /** Start and length of each stretch of 4 ms or more between two 1 ms timer ticks. */
  lags: [number, number][];
  /** The provider's (its own file): when each request arrived and when its first text was written. */
  answers: { arrived: number; text: number }[];
}

const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '–');

export const stallHeader = [
  '| server | part of a new stream, inside the server | p50 | p90 | p99 |',
  '|---|---|---|---|---|',
];

/**
 * The rows for one server's probes: the last `probes` message requests it received. The provider's file
 * splits each provider call into its way there, the provider's own work and its answer's way back.
 */
export function stallRows(label: string, files: { server: string; provider: string }, probes: number): string[] {
  const recorded = JSON.parse(fs.readFileSync(files.server, 'utf8')) as Recorded;
  const provider = JSON.parse(fs.readFileSync(files.provider, 'utf8')) as Recorded;
  // The provider's times on the server's clock. The new streams come one at a time, so the one request that
  // arrived while a call was out is that call's.
  const shift = provider.origin - recorded.origin;
  const answers = provider.answers
    .filter((answer) => answer.text > 0)
    .map((answer) => ({ arrived: answer.arrived + shift, text: answer.text + shift }));
  const answered = recorded.requests.slice(-probes).filter((request) => request.delta > 0);
  if (answered.length === 0) return [`| ${label} | no probe was answered | | | |`];
  const parts = answered.map((request) => {
    const call = recorded.calls.find((each) => each.sent >= request.began && each.sent <= request.delta);
    const answered = call && call.data > 0;
    const answer = answered
      ? answers.find((each) => each.arrived >= call.sent - 1 && each.arrived <= call.data)
      : undefined;
    return {
      ...request,
      total: request.delta - request.began,
      beforeCall: call ? call.sent - request.began : Number.NaN,
      provider: answered ? call.data - call.sent : Number.NaN,
      there: answered && answer ? answer.arrived - call.sent : Number.NaN,
      providerWork: answer ? answer.text - answer.arrived : Number.NaN,
      back: answered && answer ? call.data - answer.text : Number.NaN,
      afterData: answered ? request.delta - call.data : Number.NaN,
    };
  });
  const row = (name: string, values: number[]) => {
    const known = values.filter(Number.isFinite);
    return `| ${label} | ${name} | ${[0.5, 0.9, 0.99].map((fraction) => fixed(percentile(known, fraction))).join(' | ')} |`;
  };
  const start = answered[0]!.began;
  const end = answered.at(-1)!.delta;
  const collections = recorded.collections.filter(([at]) => at >= start && at <= end);
  const young = collections.filter(([, , kind]) => kind === 1).map(([, duration]) => duration);
  const full = collections.filter(([, , kind]) => kind === 4).map(([, duration]) => duration);
  const meets = (request: { began: number; delta: number }, stretches: [number, number, ...number[]][]) =>
    stretches.some(([at, duration]) => at < request.delta && at + duration > request.began);
  const slowest = [...parts].sort((a, b) => b.total - a.total).slice(0, Math.max(1, Math.round(parts.length / 100)));
  const lags = recorded.lags.filter(([at]) => at >= start && at <= end);
  const longest = (durations: number[]) => fixed(Math.max(0, ...durations));
  const stalled = lags.reduce((sum, [, length]) => sum + length, 0);
  const slowProvider = percentile(slowest.map((part) => part.provider).filter(Number.isFinite), 0.5);
  const notes = [
    `young collections while probing: ${young.length}, pause p50 ${fixed(percentile(young, 0.5))} ms, ` +
      `longest ${longest(young)} ms; full: ${full.length}${full.length ? `, longest ${longest(full)} ms` : ''}`,
    `the slowest 1 % (${slowest.length}): ${slowest.filter((part) => meets(part, collections)).length} met a ` +
      'collection' +
      (recorded.lags.length
        ? `, ${slowest.filter((part) => meets(part, lags)).length} a stall of 4 ms or more (${lags.length} such ` +
          `stalls while probing, ${fixed(stalled)} ms in all)`
        : '') +
      `; their provider call took ${fixed(slowProvider)} ms at the median`,
  ];
  return [
    ...splits.map(([name, part]) =>
      row(
        name,
        parts.map((each) => each[part]),
      ),
    ),
    ...notes.map((note) => `| ${label} | ${note} | | | |`),
  ];
}

const splits: [string, 'total' | 'beforeCall' | 'provider' | 'there' | 'providerWork' | 'back' | 'afterData'][] = [
  ['whole: request to first delta written', 'total'],
  ['request to the provider call sent (key, agent, history, memory, inserts)', 'beforeCall'],
  ["provider call to the provider's first data", 'provider'],
  ['– the call reaching the provider', 'there'],
  ["– the provider's own work to its first text", 'providerWork'],
  ["– the provider's first text reaching the server's code", 'back'],
  ['first data to first delta written', 'afterData'],
];
