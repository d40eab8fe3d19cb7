import { sql, type RawBuilder } from 'kysely';
import { emptyCounts, type MetricCounts } from '../../events/metric-counts.js';
import { inTransaction, type Executor } from '../schema.js';
import { metricColumns } from './agent-metrics-columns.js';

/** Rows are kept per minute (minute views) and per hour (hour and day views, usage). */
export type MetricPeriod = 'minute' | 'hour';

/** The counts of one agent in one minute or hour, as the recorder flushes them. */
export interface MetricRow {
  accountId: string;
  agentId: string;
  period: MetricPeriod;
  /** Start of the minute or hour, RFC 3339 UTC with milliseconds. */
  bucketStart: string;
  counts: MetricCounts;
}

/** How many characters of `bucket_start` name a minute, an hour and a day (`2026-11-22T14:05`, `…T14`, `2026-11-22`). */
export const bucketPrefixLength = { minute: 16, hour: 13, day: 10 } as const;
export type BucketSize = keyof typeof bucketPrefixLength;

/**
 * Batch sizes of the upsert, largest first: every flush is cut into batches of
 * these sizes only, so a handful of statements are prepared once and reused
 * instead of one per row count (which would churn SQLite's statement cache).
 */
const batchSizes = [64, 16, 4, 1] as const;

const counterSums = sql.join(
  metricColumns.map((column) => sql`sum(${sql.ref(column.name)}) as ${sql.ref(column.name)}`),
);

function countsOf(row: Record<string, unknown>): MetricCounts {
  const counts = emptyCounts();
  // PostgreSQL answers sums as numeric text; SQLite as numbers; a group with no rows as null.
  for (const column of metricColumns) column.add(counts, Number(row[column.name] ?? 0));
  return counts;
}

function rangeOf(from: string, to: string): RawBuilder<unknown> {
  return sql`${sql.ref('bucket_start')} >= ${from} and ${sql.ref('bucket_start')} < ${to}`;
}

/**
 * The rollups of agent metrics. Writes add into rows (never set them), so any
 * number of instances may flush the same minute of the same agent; minute
 * views read minute rows, hour and day views and usage read hour rows, summed
 * into buckets with `substr` of the fixed-width time text, the same SQL on
 * both dialects.
 */
export class AgentMetricsRepository {
  constructor(private readonly db: Executor) {}

  /** Adds every row's counts into the table, all or none (one transaction). */
  async add(rows: readonly MetricRow[]): Promise<void> {
    if (rows.length === 0) return;
    await inTransaction(this.db, async (transaction) => {
      let offset = 0;
      for (const size of batchSizes) {
        while (rows.length - offset >= size) {
          await this.#upsert(transaction, rows.slice(offset, offset + size));
          offset += size;
        }
      }
    });
  }

  async #upsert(executor: Executor, rows: readonly MetricRow[]): Promise<void> {
    const values = rows.map((row) => {
      const value: Record<string, string | number> = {
        account_id: row.accountId,
        period: row.period,
        agent_id: row.agentId,
        bucket_start: row.bucketStart,
      };
      for (const column of metricColumns) value[column.name] = column.read(row.counts);
      return value;
    });
    const additions = Object.fromEntries(
      metricColumns.map((column) => [
        column.name,
        sql`${sql.ref(`agent_metrics.${column.name}`)} + ${sql.ref(`excluded.${column.name}`)}`,
      ]),
    );
    await executor
      .insertInto('agent_metrics')
      .values(values as never)
      .onConflict((conflict) =>
        conflict.columns(['account_id', 'period', 'agent_id', 'bucket_start']).doUpdateSet(additions as never),
      )
      .execute();
  }

  /**
   * The agent's counts in [from, to), summed per minute, hour or day: keyed by
   * the bucket's prefix of the time text (see `bucketPrefixLength`). Buckets
   * without rows are absent.
   */
  async buckets(
    query: { accountId: string; agentId: string; from: string; to: string; size: BucketSize },
    executor: Executor = this.db,
  ): Promise<Map<string, MetricCounts>> {
    const bucket = sql`substr(${sql.ref('bucket_start')}, 1, ${sql.lit(bucketPrefixLength[query.size])})`;
    const period: MetricPeriod = query.size === 'minute' ? 'minute' : 'hour';
    const result = await sql<Record<string, unknown>>`
      select ${bucket} as bucket, ${counterSums}
      from ${sql.table('agent_metrics')}
      where ${sql.ref('account_id')} = ${query.accountId} and ${sql.ref('period')} = ${period}
        and ${sql.ref('agent_id')} = ${query.agentId}
        and ${rangeOf(query.from, query.to)}
      group by ${bucket}`.execute(executor);
    return new Map(result.rows.map((row) => [String(row.bucket), countsOf(row)]));
  }

  /** The account's counts in the hours that start in [from, to), over all its agents. */
  async accountTotals(
    query: { accountId: string; from: string; to: string },
    executor: Executor = this.db,
  ): Promise<MetricCounts> {
    const result = await sql<Record<string, unknown>>`
      select ${counterSums}
      from ${sql.table('agent_metrics')}
      where ${sql.ref('account_id')} = ${query.accountId} and ${sql.ref('period')} = 'hour'
        and ${rangeOf(query.from, query.to)}`.execute(executor);
    return countsOf(result.rows[0] ?? {});
  }

  /** The account's counts in the hours that start in [from, to) per agent, in agent id order after `afterAgentId`, at most `limit`. */
  async totalsByAgent(
    query: { accountId: string; from: string; to: string; afterAgentId?: string; limit: number },
    executor: Executor = this.db,
  ): Promise<Array<{ agentId: string; counts: MetricCounts }>> {
    const after = query.afterAgentId === undefined ? sql`` : sql`and ${sql.ref('agent_id')} > ${query.afterAgentId}`;
    const result = await sql<Record<string, unknown>>`
      select ${sql.ref('agent_id')}, ${counterSums}
      from ${sql.table('agent_metrics')}
      where ${sql.ref('account_id')} = ${query.accountId} and ${sql.ref('period')} = 'hour'
        and ${rangeOf(query.from, query.to)} ${after}
      group by ${sql.ref('agent_id')}
      order by ${sql.ref('agent_id')}
      limit ${sql.lit(query.limit)}`.execute(executor);
    return result.rows.map((row) => ({ agentId: String(row.agent_id), counts: countsOf(row) }));
  }

  /** The account's counts in the hours that start in [from, to), per day (`2026-11-22`) and agent; pairs without rows are absent. */
  async dailyByAgent(
    query: { accountId: string; from: string; to: string },
    executor: Executor = this.db,
  ): Promise<Array<{ day: string; agentId: string; counts: MetricCounts }>> {
    const day = sql`substr(${sql.ref('bucket_start')}, 1, ${sql.lit(bucketPrefixLength.day)})`;
    const result = await sql<Record<string, unknown>>`
      select ${day} as day, ${sql.ref('agent_id')}, ${counterSums}
      from ${sql.table('agent_metrics')}
      where ${sql.ref('account_id')} = ${query.accountId} and ${sql.ref('period')} = 'hour'
        and ${rangeOf(query.from, query.to)}
      group by ${day}, ${sql.ref('agent_id')}`.execute(executor);
    return result.rows.map((row) => ({ day: String(row.day), agentId: String(row.agent_id), counts: countsOf(row) }));
  }

  /** Removes every minute and hour that starts before `cutoff`; the number of rows removed. */
  async pruneBefore(cutoff: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.deleteFrom('agent_metrics').where('bucket_start', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
