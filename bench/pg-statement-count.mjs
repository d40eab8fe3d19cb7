// Loaded with `--import` into an agentd on PostgreSQL that a benchmark starts: counts
// every query node-postgres sends (one query is one round trip to the server:
// BEGIN and COMMIT are round trips of their own) and times each from its send
// to its answer, and writes, when the process exits, one entry per SQL text in
// the format of sqlite-statement-time.mjs: how many times it ran, for how many
// milliseconds in all, and the median of one run. The counts are what a
// loaded machine cannot change; the times are wall time, the server's share
// of the cores included. A COMMIT is named after the first write of its
// transaction, so the commit of a reply's exchange is told apart.
//
//   SQL_TIME_FILE=/tmp/pg.json node --import ./bench/pg-statement-count.mjs dist/main.js serve
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const file = process.env.SQL_TIME_FILE;
if (file && isMainThread && process.argv[1]) {
  // The pg of the build being measured (its own node_modules), not the benchmark's.
  const require = createRequire(path.resolve(process.argv[1]));
  const pg = require('pg');
  const prototype = pg.Client.prototype;

  /** SQL text (multi-row VALUES folded) → { calls, ms, samples }. */
  const totals = new Map();
  /** Per connection: the first write of its open transaction, which names its COMMIT. */
  const transactions = new WeakMap();
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
    if (entry.samples.length < 100_000) entry.samples.push(ms);
  };
  const labelOf = (client, source) => {
    const text = fold(source);
    if (/^begin/i.test(text)) {
      transactions.set(client, '');
      return 'begin';
    }
    if (/^(commit|end)/i.test(text)) {
      const label = `commit (transaction of: ${transactions.get(client) || 'reads only'})`;
      transactions.delete(client);
      return label;
    }
    if (/^rollback/i.test(text)) {
      transactions.delete(client);
      return 'rollback';
    }
    const open = transactions.get(client);
    if (open === '' && !/^select/i.test(text)) transactions.set(client, text.slice(0, 60));
    return open === undefined && !/^(select|with)/i.test(text) ? `${text} (autocommit)` : text;
  };
  const original = prototype.query;
  prototype.query = function counted(config, ...rest) {
    const source = typeof config === 'string' ? config : config?.text;
    if (typeof source !== 'string') return original.call(this, config, ...rest);
    const label = labelOf(this, source);
    const started = performance.now();
    const result = original.call(this, config, ...rest);
    if (result && typeof result.then === 'function') {
      const done = () => add(label, performance.now() - started);
      result.then(done, done);
    }
    return result;
  };
  process.on('exit', () => {
    const entries = [...totals].map(([sql, { calls, ms, samples }]) => {
      const sorted = samples.sort((a, b) => a - b);
      return { sql, calls, ms, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0 };
    });
    writeFileSync(file, JSON.stringify(entries.sort((a, b) => b.calls - a.calls)));
  });
}
