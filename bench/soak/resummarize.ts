/**
 * Summarizes a finished soak again from its directory (samples.jsonl and
 * summary.json), e.g. after the way the summary is computed changed:
 *
 *   node --import tsx bench/soak/resummarize.ts /tmp/agentd-soak-… [--warm-up 0.2] [--max-rss-growth 5]
 *
 * The traffic's counts and latencies are taken from the summary as they were.
 * A summary that does not record when the traffic began is given its end
 * minus its length in whole seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readSamples } from './samples-file.js';
import { summarize } from './soak-summary.js';
import { failuresOf } from './soak-verdict.js';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'warm-up': { type: 'string' }, 'max-rss-growth': { type: 'string' } },
});
const directory = positionals[0];
if (directory === undefined) throw new Error('usage: resummarize.ts DIRECTORY');
const summaryFile = path.join(directory, 'summary.json');
const previous = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
const endedAt = Date.parse(previous.trafficEndedAt ?? previous.trafficEndedAtFromLog);
const startedAt = previous.trafficStartedAt
  ? Date.parse(previous.trafficStartedAt)
  : endedAt - previous.trafficSeconds * 1000;
if (Number.isNaN(endedAt)) throw new Error('summary.json does not say when the traffic ended (trafficEndedAt)');
const warmUpFraction = Number(options['warm-up'] ?? previous.warmUpFraction ?? 0.2);
const maxRssGrowth = Number(options['max-rss-growth'] ?? previous.maxRssGrowthPercent ?? 5);
const summary = summarize(
  readSamples(path.join(directory, 'samples.jsonl')),
  { trafficStartedAt: startedAt, trafficEndedAt: endedAt, warmUpFraction },
  {
    answers: previous.answers,
    durations: previous.durations,
    problems: previous.problems,
    firstProblems: previous.firstProblems,
  },
);
const failures = failuresOf(summary, maxRssGrowth);
const report = {
  command: previous.command,
  database: previous.database,
  minutes: previous.minutes,
  warmUpFraction,
  maxRssGrowthPercent: maxRssGrowth,
  ...summary,
  failures,
};
fs.writeFileSync(summaryFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify(report, null, 2));
process.exitCode = failures.length === 0 ? 0 : 1;
