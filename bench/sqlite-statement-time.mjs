// Loaded with `--import` into an agentd on SQLite that a benchmark starts: times
// every statement better-sqlite3 runs on the main thread (the wall time of
// `run`, `get`, `all`, `iterate`'s first row being SQLite's own work, done
// synchronously) and writes, when the process exits, one entry per SQL text:
// how many times it ran and for how many milliseconds in all. A COMMIT is
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

  /** SQL text (multi-row VALUES folded) → { calls, ms }. */
  const totals = new Map();
  /** The first write of the open transaction, which names its COMMIT. */
  let transaction = null;
  const fold = (source) =>
    source
      .replace(/\s+/g, ' ')
      .replace(/(values \([^)]*\))(, \([^)]*\))+/gi, '$1, …')
      .trim();
  const add = (label, ms) => {
    const entry = totals.get(label) ?? { calls: 0, ms: 0 };
    entry.calls += 1;
    entry.ms += ms;
    totals.set(label, entry);
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
    const entries = [...totals].map(([sql, { calls, ms }]) => ({ sql, calls, ms }));
    writeFileSync(file, JSON.stringify(entries.sort((a, b) => b.ms - a.ms)));
  });
}
