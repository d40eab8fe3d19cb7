// Loaded with `--import` into an agentd on SQLite that a benchmark starts: times
// every statement better-sqlite3 runs on the main thread (the wall time of
// `run`, `get`, `all`, `iterate`'s first row being SQLite's own work, done
// synchronously) and writes, when the process exits, one entry per SQL text:
// how many times it ran, for how many milliseconds in all, and the median of
// one run (which a machine busy with other work inflates far less than the
// sum: a statement of tens of microseconds is rarely the one preempted). A COMMIT is
// named after the first write of its transaction, so the commit of a reply's
// exchange and the commit of its run's end are told apart.
//
//   SQL_TIME_FILE=/tmp/times.json node --import ./bench/sqlite-statement-time.mjs dist/main.js serve
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.SQL_TIME_FILE;
if (file && isMainThread) {
  const require = createRequire(import.meta.url);
  const Database = require('better-sqlite3');
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();

  /** SQL text (multi-row VALUES folded) → { calls, ms, samples }. */
  const totals = new Map();
  /** The first write of the open transaction, which names its COMMIT. */
  let transaction = null;
  const fold = (source) =>
    source
      .replace(/\s+/g, ' ')
      .replace(/(values \([^)]*\))(, \([^)]*\))+/gi, '$1, …')
      .trim();
  const add = (label, ms) => {
    let entry = totals.get(label);
    if (entry === undefined) {
      entry = { calls: 0, ms: 0, samples: [] };
      totals.set(label, entry);
    }
    entry.calls += 1;
    entry.ms += ms;
    // The first 100,000 runs of each statement are enough for its median.
    if (entry.samples.length < 100_000) entry.samples.push(ms);
  };
  const labelOf = (source) => {
    const text = fold(source);
    if (/^begin/i.test(text)) {
      transaction = '';
      return 'begin';
    }
    if (/^(commit|end)/i.test(text)) {
      const label = `commit (transaction of: ${transaction || 'reads only'})`;
      transaction = null;
      return label;
    }
    if (/^rollback/i.test(text)) {
      transaction = null;
      return 'rollback';
    }
    if (transaction === '' && !/^select/i.test(text)) transaction = text.slice(0, 60);
    return transaction === null && !/^select/i.test(text) ? `${text} (autocommit)` : text;
  };
  for (const method of ['run', 'get', 'all']) {
    const original = prototype[method];
    prototype[method] = function timed(...parameters) {
      const label = labelOf(this.source);
      const started = performance.now();
      try {
        return original.apply(this, parameters);
      } finally {
        add(label, performance.now() - started);
      }
    };
  }
  process.on('exit', () => {
    const entries = [...totals].map(([sql, { calls, ms, samples }]) => {
      const sorted = samples.sort((a, b) => a - b);
      return { sql, calls, ms, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0 };
    });
    writeFileSync(file, JSON.stringify(entries.sort((a, b) => b.ms - a.ms)));
  });
}
