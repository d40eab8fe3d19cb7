/**
 * One knowledge base among many in one HNSW index: how each way of searching it does when the base is 50 %,
 * 1 %, 0.1 % or 0.01 % of the rows (the rest spread over 100 other bases; rows given to bases at random, so a
 * base's rows lie in every cluster). Top 10, 50 queries per base, recall@10 against the exact top 10 of that
 * base's rows, and how many rows came back (fewer than 10 is what a user notices: missing context).
 *
 * - HNSW, filter after the scan: what pgvector did before 0.8 (and does with iterative scans off).
 * - HNSW, iterative scan (relaxed order, re-sorted): pgvector 0.8, `hnsw.max_scan_tuples` 20,000.
 * - exact within the base: the b-tree on the base, every vector of the base compared.
 * - HNSW iterative scan, planner's choice: that query with the b-tree there, the planner free to take it.
 * - agentd: `VectorIndex.search` as shipped (bases up to `exactSearchRows` rows exact, larger ones iterative).
 * - per-base partial HNSW index: one `create index … where knowledge_base_id = '…'` per base.
 */
import pg from 'pg';
import { knowledgeVectorLayout } from '../../src/storage/repositories/knowledge-bases.js';
import { exactSearchRows, VectorIndex } from '../../src/storage/repositories/vector-index.js';
import { openDatabase } from '../../src/storage/database.js';
import { createFreshDatabase } from '../../test/helpers/postgres.js';
import { dimensions, ExactNearest, percentile, queryVector, rowVector, vectorText } from './clustered-vectors.js';

const k = 10;
const queryCount = 50;
const targets = [
  { id: 'kb_half', share: 0.5 },
  { id: 'kb_1', share: 0.01 },
  { id: 'kb_01', share: 0.001 },
  { id: 'kb_001', share: 0.0001 },
];
const others = 100;

/** A base for each row: fixed by the row's position (Knuth's multiplicative hash), the targets' shares exact on average. */
function baseOf(position: number): string {
  let draw = (Math.imul(position + 1, 2654435761) >>> 0) / 4_294_967_296;
  for (const target of targets) {
    if (draw < target.share) return target.id;
    draw -= target.share;
  }
  return `kb_other_${position % others}`;
}

interface Strategy {
  name: string;
  /** Statements run before the search, in its transaction. */
  settings: string[];
  /** `$1` the vector, `$2` the base (or an array of the one base, with `baseArray`). */
  query: string;
  baseArray?: boolean;
}

const nearest = (table: string, filter: string) =>
  `select search_id, embedding <=> $1::vector as distance from ${table} where ${filter} order by distance limit ${k}`;
const resorted = (table: string, filter: string) =>
  `with nearest as materialized (${nearest(table, filter)}) select search_id from nearest order by distance + 0`;

export async function compareFilteredSearches(baseUrl: string, size: number): Promise<void> {
  const database = await createFreshDatabase(baseUrl, 'agentd_bench_filtered');
  const handle = openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const index = new VectorIndex(handle.db, 'postgres', dimensions, knowledgeVectorLayout);
    await index.ensure();
    const table = index.table;
    await client.query(`drop index ${table}_hnsw_idx`);
    const queries = Array.from({ length: queryCount }, (_, number) => queryVector(number));
    const exact = new Map(
      targets.map((target) => [target.id, new ExactNearest(queries, k, (position) => baseOf(position) === target.id)]),
    );
    for (let from = 0; from < size; from += 1000) {
      const positions = Array.from({ length: Math.min(1000, size - from) }, (_, offset) => from + offset);
      const vectors = positions.map((position) => {
        const vector = rowVector(position);
        for (const nearest of exact.values()) nearest.add(position, vector);
        return vectorText(vector);
      });
      await client.query(
        `insert into ${table} (search_id, knowledge_base_id, embedding)
         select * from unnest($1::bigint[], $2::text[], $3::text[]::vector[])`,
        [positions.map((position) => position + 1), positions.map(baseOf), vectors],
      );
    }
    await index.ensure();
    await client.query(`vacuum analyze ${table}`);

    const run = async (strategy: Strategy, base: string) => {
      const timings: number[] = [];
      const found: number[][] = [];
      let returned = 0;
      for (const [number, query] of queries.entries()) {
        await client.query('begin');
        for (const setting of strategy.settings) await client.query(setting);
        const begun = performance.now();
        const { rows } = await client.query<{ search_id: string }>(strategy.query, [
          vectorText(query),
          strategy.baseArray ? [base] : base,
        ]);
        if (number > 0) timings.push(performance.now() - begun); // the first one warms the caches
        await client.query('commit');
        returned += rows.length;
        found.push(rows.map((row) => Number(row.search_id) - 1));
      }
      return { timings, returned: returned / queries.length, recall: exact.get(base)!.recall(found) };
    };
    const agentd = async (base: string) => {
      const timings: number[] = [];
      const found: number[][] = [];
      let returned = 0;
      for (const [number, query] of queries.entries()) {
        const begun = performance.now();
        const matches = await index.search([base], [...query], k);
        if (number > 0) timings.push(performance.now() - begun);
        returned += matches.length;
        found.push(matches.map((match) => match.key - 1));
      }
      return { timings, returned: returned / queries.length, recall: exact.get(base)!.recall(found) };
    };
    const plan = async (base: string) => {
      await client.query('begin');
      await client.query("set local hnsw.iterative_scan = 'relaxed_order'");
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, format text) ${resorted(table, 'knowledge_base_id = any($2::text[])')}`,
        [vectorText(queries[0]!), [base]],
      );
      await client.query('commit');
      const text = rows.map((row) => row['QUERY PLAN']).join('\n');
      return /hnsw_idx/.test(text) ? 'HNSW' : /partition_idx/.test(text) ? 'b-tree' : 'scan';
    };

    const byBase = `knowledge_base_id = $2`;
    const strategies: Strategy[] = [
      {
        name: 'HNSW, filter after the scan',
        settings: [
          'set local hnsw.iterative_scan = off',
          'set local enable_bitmapscan = off',
          'set local enable_seqscan = off',
        ],
        query: nearest(table, byBase),
      },
      {
        name: 'HNSW, iterative scan',
        settings: [
          "set local hnsw.iterative_scan = 'relaxed_order'",
          'set local enable_bitmapscan = off',
          'set local enable_seqscan = off',
        ],
        query: resorted(table, byBase),
      },
      {
        name: 'exact within the base (b-tree)',
        settings: ['set local enable_indexscan = off', 'set local enable_seqscan = off'],
        query: nearest(table, byBase),
      },
    ];
    // Forcing HNSW for the first two means hiding the b-tree from the planner: dropped for them, then rebuilt.
    const rows: string[] = [];
    const line = (name: string, base: string, result: Awaited<ReturnType<typeof agentd>>, note = '') =>
      rows.push(
        `| ${name} | ${base} | ${result.returned.toFixed(1)} | ${result.recall.toFixed(3)} | ${percentile(result.timings, 0.5).toFixed(2)} | ${percentile(result.timings, 0.99).toFixed(2)} | ${note} |`,
      );
    await client.query(`drop index ${table}_partition_idx`);
    for (const strategy of strategies.slice(0, 2))
      for (const target of targets) line(strategy.name, target.id, await run(strategy, target.id));
    await index.ensure();
    await client.query(`analyze ${table}`);
    for (const target of targets) line(strategies[2]!.name, target.id, await run(strategies[2]!, target.id));
    const planners: Strategy = {
      name: "HNSW, iterative scan, planner's choice",
      settings: ["set local hnsw.iterative_scan = 'relaxed_order'"],
      query: resorted(table, 'knowledge_base_id = any($2::text[])'),
      baseArray: true,
    };
    for (const target of targets) line(planners.name, target.id, await run(planners, target.id), await plan(target.id));
    const { rows: counts } = await client.query<{ base: string; rows: string }>(
      `select knowledge_base_id as base, count(*) as rows from ${table} group by knowledge_base_id`,
    );
    const exactUpTo = exactSearchRows(size);
    for (const target of targets) {
      const rowsOfBase = Number(counts.find((count) => count.base === target.id)?.rows ?? 0);
      const path = rowsOfBase <= exactUpTo ? 'exact' : 'HNSW, iterative';
      line('agentd (VectorIndex.search)', target.id, await agentd(target.id), `${rowsOfBase} rows: ${path}`);
    }

    // Partial indexes: one per base, and the planner's cost of many of them.
    const partialBuild = performance.now();
    for (const target of targets)
      await client.query(
        `create index ${table}_${target.id}_idx on ${table} using hnsw (embedding vector_cosine_ops) where knowledge_base_id = '${target.id}'`,
      );
    const partialSeconds = (performance.now() - partialBuild) / 1000;
    const partial: Strategy = {
      name: 'per-base partial HNSW index',
      settings: ["set local hnsw.iterative_scan = 'relaxed_order'"],
      query: resorted(table, byBase),
    };
    for (const target of targets) line(partial.name, target.id, await run(partial, target.id));

    const planning = async () => {
      const times: number[] = [];
      for (const query of queries.slice(0, 20)) {
        const { rows: explained } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, summary) ${nearest(table, byBase)}`,
          [vectorText(query), 'kb_1'],
        );
        const planningLine = explained.find((row) => row['QUERY PLAN'].startsWith('Planning Time'))!;
        times.push(Number(/([\d.]+) ms/.exec(planningLine['QUERY PLAN'])![1]));
      }
      return percentile(times, 0.5);
    };
    const planningFew = await planning();
    const manyBuild = performance.now();
    for (let other = 0; other < others; other += 1)
      await client.query(
        `create index ${table}_other_${other}_idx on ${table} using hnsw (embedding vector_cosine_ops) where knowledge_base_id = 'kb_other_${other}'`,
      );
    const manySeconds = (performance.now() - manyBuild) / 1000;
    const planningMany = await planning();
    const sizes = await client.query<{ whole: string; partials: string }>(
      `select pg_relation_size('${table}_hnsw_idx') as whole,
         (select sum(pg_relation_size(indexrelid)) from pg_index where indrelid = '${table}'::regclass and indpred is not null) as partials`,
    );

    console.log(
      `\nPostgreSQL, one base among ${targets.length + others} in one table of ${size.toLocaleString('en')} rows: top ${k}, ${queryCount} queries per base\n`,
    );
    console.log('| search | base (share of rows) | rows returned (of 10) | recall@10 | p50 (ms) | p99 (ms) | plan |');
    console.log('|---|---|---:|---:|---:|---:|---|');
    for (const row of rows) console.log(row);
    console.log(
      `\nPartial indexes: the 4 target bases' built in ${partialSeconds.toFixed(1)} s; 100 more (one per other base) in ${manySeconds.toFixed(1)} s; all 104 take ${(Number(sizes.rows[0]!.partials) / 1_048_576).toFixed(0)} MB (the shared HNSW index: ${(Number(sizes.rows[0]!.whole) / 1_048_576).toFixed(0)} MB).`,
    );
    console.log(
      `Planning time of a filtered search (p50): ${planningFew.toFixed(2)} ms with 4 partial indexes, ${planningMany.toFixed(2)} ms with 104.`,
    );
  } finally {
    await client.end();
    await handle.close();
    await database.drop();
  }
}
