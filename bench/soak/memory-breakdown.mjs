// Where a soak's resident memory was, by stretch of the run: from the samples
// bench/soak/sampler.mjs wrote (those with `residentKiB` and `heapSpaces`).
//
//   node bench/soak/memory-breakdown.mjs /tmp/soak/samples.jsonl [stretch minutes, default 3]
//
// Medians per stretch, in MiB: RSS; the brk heap (glibc's main arena: what the
// main thread mallocs — SQLite's page caches among it); other anonymous memory
// (V8's pages, other threads' arenas); file-backed pages (code); and per V8
// space what is resident (new, old, code) and what the old space holds alive.
import { readFileSync } from 'node:fs';

const [, , file, stretchArgument = '3'] = process.argv;
const samples = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line))
  .filter((sample) => sample.residentKiB && sample.heapSpaces);
const stretchSeconds = Number(stretchArgument) * 60;
const mib = (bytes) => bytes / 1_048_576;
const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const columns = {
  RSS: (sample) => mib(sample.rss),
  'brk heap': (sample) => sample.residentKiB.brkHeap / 1024,
  'other anonymous': (sample) => sample.residentKiB.anonymous / 1024,
  file: (sample) => sample.residentKiB.file / 1024,
  'V8 new space': (sample) => mib(sample.heapSpaces.new_space.physical),
  'V8 old space': (sample) => mib(sample.heapSpaces.old_space.physical),
  'old space live': (sample) => mib(sample.heapSpaces.old_space.used),
  'V8 code space': (sample) => mib(sample.heapSpaces.code_space.physical),
};
const stretches = new Map();
for (const sample of samples) {
  const index = Math.floor(sample.seconds / stretchSeconds);
  stretches.set(index, [...(stretches.get(index) ?? []), sample]);
}
console.log(`| minutes | ${Object.keys(columns).join(' | ')} |`);
console.log(
  `|---|${Object.keys(columns)
    .map(() => '---')
    .join('|')}|`,
);
for (const [index, group] of stretches) {
  const from = (index * stretchSeconds) / 60;
  const cells = Object.values(columns).map((read) => median(group.map(read)).toFixed(1));
  console.log(`| ${from}–${from + stretchSeconds / 60} | ${cells.join(' | ')} |`);
}
