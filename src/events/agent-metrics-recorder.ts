import type { RunTrigger } from '../schemas/runs.js';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../clock.js';
import type { AgentMetricsRepository, MetricRow } from '../storage/repositories/agent-metrics.js';
import { addCounts, emptyCounts, histogramBucketOf, type FailureType, type MetricCounts } from './metric-counts.js';

/** How one accepted message ended, as the message path reports it. */
export interface MessageOutcome {
  streamed: boolean;
  /** Who started the run the reply is. */
  trigger: RunTrigger;
  /** Null when the reply completed (or the client went away); else why it failed. */
  failure: FailureType | null;
  toolCalls: number;
  /** Images sent with the message, and images the reply produced. */
  imagesIn: number;
  imagesOut: number;
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cachedInputTokens: number;
  /** What the reply's model calls cost in US dollars; null when its model has no price. */
  costUsd: number | null;
  /** Request to reply complete, for completed replies; null otherwise. */
  latencyMs: number | null;
  /** Request to the first text, for streamed replies that sent some; null otherwise. */
  timeToFirstTokenMs: number | null;
}

export interface AgentRef {
  accountId: string;
  agentId: string;
}

/**
 * Per-agent metrics as the message path records them: synchronous, in
 * memory, never a database round trip per message. `flush` writes what was
 * gathered since the last one.
 */
export interface AgentMetricsRecorder {
  message(agent: AgentRef, at: number, outcome: MessageOutcome): void;
  rateLimited(agent: AgentRef): void;
  concurrencyRejected(agent: AgentRef): void;
  memoryUpdated(agent: AgentRef): void;
  flush(): Promise<void>;
  /** Removes rollups older than the retention; the number of rows removed. */
  prune(): Promise<number>;
  /** Stops the timer and writes what is left (graceful shutdown). */
  close(): Promise<void>;
}

/** AGENTD_AGENT_METRICS=off: nothing is gathered or written. */
export const disabledAgentMetrics: AgentMetricsRecorder = {
  message: () => undefined,
  rateLimited: () => undefined,
  concurrencyRejected: () => undefined,
  memoryUpdated: () => undefined,
  flush: async () => undefined,
  prune: async () => 0,
  close: async () => undefined,
};

export interface RollupRecorderOptions {
  repository: AgentMetricsRepository;
  clock: Clock;
  logger: Logger;
  /** How often gathered counts are written. */
  flushMs: number;
  retentionDays: number;
  /**
   * Most (agent, minute) rows held between flushes; beyond it new rows are
   * dropped (and the drop logged), so a database outage cannot exhaust memory.
   */
  maxPendingRows?: number;
}

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;
/** Rollups past the retention are removed at most this often, by whichever instance flushes. */
const pruneEveryMs = 60 * minuteMs;

interface PendingRow {
  accountId: string;
  agentId: string;
  bucketStart: string;
  counts: MetricCounts;
}

/** The minute rows of a batch and the hour rows they add up to, written in the same transaction. */
function rowsOf(batch: Map<string, PendingRow>): MetricRow[] {
  const rows: MetricRow[] = [];
  const hours = new Map<string, MetricRow>();
  for (const row of batch.values()) {
    rows.push({ ...row, period: 'minute' });
    const hourStart = `${row.bucketStart.slice(0, 13)}:00:00.000Z`;
    const key = `${row.accountId} ${row.agentId} ${hourStart}`;
    let hour = hours.get(key);
    if (hour === undefined) {
      hour = {
        accountId: row.accountId,
        agentId: row.agentId,
        period: 'hour',
        bucketStart: hourStart,
        counts: emptyCounts(),
      };
      hours.set(key, hour);
    }
    addCounts(hour.counts, row.counts);
  }
  rows.push(...hours.values());
  return rows;
}

/**
 * Gathers counts per (agent, minute) in memory and writes them every
 * `flushMs`, with the hours they add up to, as one batch of additive upserts (`… on conflict do update set
 * messages = messages + excluded.messages`), so several instances add into
 * the same rows and a row written twice by one instance is never counted
 * once. A batch is one transaction: when it fails, nothing of it was added,
 * and its counts are put back for the next flush.
 */
export class RollupRecorder implements AgentMetricsRecorder {
  readonly #options: Required<RollupRecorderOptions>;
  #pending = new Map<string, PendingRow>();
  #writing: Promise<void> = Promise.resolve();
  #lastPrune = Number.NEGATIVE_INFINITY;
  #dropped = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(options: RollupRecorderOptions) {
    this.#options = { maxPendingRows: 20_000, ...options };
    this.#timer = setInterval(() => void this.flush(), options.flushMs);
    this.#timer.unref();
  }

  #row(agent: AgentRef, at: number): MetricCounts | null {
    const minute = Math.floor(at / minuteMs) * minuteMs;
    const key = `${agent.accountId} ${agent.agentId} ${minute}`;
    let row = this.#pending.get(key);
    if (row === undefined) {
      if (this.#pending.size >= this.#options.maxPendingRows) {
        this.#dropped += 1;
        return null;
      }
      row = { accountId: agent.accountId, agentId: agent.agentId, bucketStart: isoTime(minute), counts: emptyCounts() };
      this.#pending.set(key, row);
    }
    return row.counts;
  }

  message(agent: AgentRef, at: number, outcome: MessageOutcome): void {
    const counts = this.#row(agent, at);
    if (counts === null) return;
    counts.messages += 1;
    counts.runs[outcome.trigger] += 1;
    if (outcome.streamed) counts.streamedMessages += 1;
    if (outcome.failure !== null) {
      counts.failedMessages += 1;
      counts.failures[outcome.failure] += 1;
    }
    counts.toolCalls += outcome.toolCalls;
    counts.imagesIn += outcome.imagesIn;
    counts.imagesOut += outcome.imagesOut;
    counts.inputTokens += outcome.inputTokens;
    counts.outputTokens += outcome.outputTokens;
    counts.cachedInputTokens += outcome.cachedInputTokens;
    if (outcome.costUsd === null) counts.unpricedMessages += 1;
    else counts.costMicroUsd += Math.round(outcome.costUsd * 1_000_000);
    if (outcome.latencyMs !== null) (counts.latency[histogramBucketOf(outcome.latencyMs)] as number) += 1;
    if (outcome.timeToFirstTokenMs !== null) {
      (counts.timeToFirstToken[histogramBucketOf(outcome.timeToFirstTokenMs)] as number) += 1;
    }
  }

  rateLimited(agent: AgentRef): void {
    const counts = this.#row(agent, this.#options.clock.now());
    if (counts !== null) counts.rateLimited += 1;
  }

  concurrencyRejected(agent: AgentRef): void {
    const counts = this.#row(agent, this.#options.clock.now());
    if (counts !== null) counts.concurrencyRejected += 1;
  }

  memoryUpdated(agent: AgentRef): void {
    const counts = this.#row(agent, this.#options.clock.now());
    if (counts !== null) counts.memoryUpdates += 1;
  }

  /** Writes what was gathered; flushes run one after another, never two at once. */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  async #write(): Promise<void> {
    const { repository, logger, clock } = this.#options;
    if (this.#dropped > 0) {
      logger.warn({ dropped: this.#dropped }, 'agent metrics dropped: too many rows waiting to be written');
      this.#dropped = 0;
    }
    if (this.#pending.size > 0) {
      const batch = this.#pending;
      this.#pending = new Map();
      const rows = rowsOf(batch);
      try {
        await repository.add(rows);
      } catch (error) {
        logger.warn({ err: error, rows: rows.length }, 'writing agent metrics failed; retrying with the next flush');
        this.#putBack(batch);
      }
    }
    if (clock.now() - this.#lastPrune >= pruneEveryMs) {
      this.#lastPrune = clock.now();
      await this.prune();
    }
  }

  #putBack(batch: Map<string, PendingRow>): void {
    for (const [key, row] of batch) {
      const current = this.#pending.get(key);
      if (current !== undefined) addCounts(current.counts, row.counts);
      else if (this.#pending.size < this.#options.maxPendingRows) this.#pending.set(key, row);
      else this.#dropped += 1;
    }
  }

  async prune(): Promise<number> {
    const { repository, logger, clock, retentionDays } = this.#options;
    try {
      const removed = await repository.pruneBefore(isoTime(clock.now() - retentionDays * dayMs));
      if (removed > 0) logger.info({ removed }, 'agent metrics past their retention removed');
      return removed;
    } catch (error) {
      logger.warn({ err: error }, 'removing agent metrics past their retention failed');
      return 0;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
