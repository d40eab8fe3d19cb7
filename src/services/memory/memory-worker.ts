import { ProviderError } from '../../providers/provider-error.js';
import {
  MemoryWriteConflict,
  updateConversationMemory,
  type MemoryJob,
  type MemoryPassResult,
  type MemoryWorkDeps,
} from './update-conversation-memory.js';

export interface MemoryWorkerOptions {
  /** The first retry's delay after a failed update; each next one doubles it. */
  retryDelayMs?: number;
  /** Retries of one conversation before it waits for its next message. */
  maxRetries?: number;
  /** One pass over a conversation (tests replace it to watch the schedule alone). */
  update?: (deps: MemoryWorkDeps, job: MemoryJob, signal: AbortSignal) => Promise<MemoryPassResult>;
}

const defaultRetryDelayMs = 5_000;
const defaultMaxRetries = 5;

/**
 * The queue of memory work of this instance: one conversation at a time, off
 * every reply's path. A conversation is queued once however many exchanges
 * arrive before its turn (each update reads everything that is new). What a
 * pass leaves waiting for the agent's schedule (facts short of a batch) is
 * done once the conversation has had no message for the schedule's idle
 * time: a timer per conversation, restarted by each exchange on this
 * instance. On several instances each keeps its own timer; one firing while
 * another instance still gets messages only runs a batch early. A failed
 * update is logged (kind only, never content), retried with backoff, and in
 * any case found again on the conversation's next exchange: nothing is lost
 * to a failure or a restart, because the work is derived from the stored
 * turns and the markers (see update-conversation-memory.ts).
 */
export class MemoryWorker {
  readonly #pending = new Map<string, MemoryJob>();
  readonly #attempts = new Map<string, number>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #idleTimers = new Map<string, NodeJS.Timeout>();
  readonly #controller = new AbortController();
  readonly #idle: Array<() => void> = [];
  readonly #retryDelayMs: number;
  readonly #maxRetries: number;
  readonly #update: NonNullable<MemoryWorkerOptions['update']>;
  #running: Promise<void> | null = null;
  #closed = false;

  constructor(
    private readonly deps: MemoryWorkDeps,
    options: MemoryWorkerOptions = {},
  ) {
    this.#retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
    this.#maxRetries = options.maxRetries ?? defaultMaxRetries;
    this.#update = options.update ?? updateConversationMemory;
  }

  /** Queues the conversation's memory for an update; returns at once. */
  schedule(job: MemoryJob): void {
    if (this.#closed) return;
    const key = `${job.agentId}\u0000${job.conversation}`;
    // A new message: the conversation is not idle, its timer starts again after this pass.
    if (job.idle !== true) this.#stopIdleTimer(key);
    const queued = this.#pending.get(key);
    // An idle flush queued behind a new exchange stays one: it was due before the exchange came.
    this.#pending.set(key, queued?.idle === true && job.idle !== true ? queued : job);
    if (this.#running === null) this.#running = this.#drain();
  }

  /** Conversations with work waiting for their idle time (on this instance). */
  get waiting(): number {
    return this.#idleTimers.size;
  }

  /** Resolves once nothing is queued or running (retries waiting on their timer do not count). */
  whenIdle(): Promise<void> {
    if (this.#running === null) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops taking work, aborts the model call under way and waits for the current update to end. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const timer of this.#idleTimers.values()) clearTimeout(timer);
    this.#idleTimers.clear();
    this.#pending.clear();
    this.#controller.abort();
    await this.#running;
  }

  async #drain(): Promise<void> {
    // Started from schedule(): the reply that queued the work goes on first.
    await Promise.resolve();
    try {
      for (;;) {
        const next = this.#pending.entries().next();
        if (next.done || this.#closed) break;
        const [key, job] = next.value;
        this.#pending.delete(key);
        try {
          const { more, idleSeconds } = await this.#update(this.deps, job, this.#controller.signal);
          this.#attempts.delete(key);
          if (more && !this.#pending.has(key)) this.#pending.set(key, job);
          else if (idleSeconds !== null && !this.#pending.has(key)) this.#startIdleTimer(key, job, idleSeconds);
        } catch (error) {
          this.#failed(key, job, error);
        }
      }
    } finally {
      this.#running = null;
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  #startIdleTimer(key: string, job: MemoryJob, idleSeconds: number): void {
    if (this.#closed) return;
    this.#stopIdleTimer(key);
    const timer = setTimeout(() => {
      this.#idleTimers.delete(key);
      this.schedule({ accountId: job.accountId, agentId: job.agentId, conversation: job.conversation, idle: true });
    }, idleSeconds * 1000);
    // Waiting work never keeps the process alive: it is found again from the stored turns after a restart.
    timer.unref();
    this.#idleTimers.set(key, timer);
  }

  #stopIdleTimer(key: string): void {
    const timer = this.#idleTimers.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#idleTimers.delete(key);
  }

  #failed(key: string, job: MemoryJob, error: unknown): void {
    if (this.#closed) return;
    const attempt = (this.#attempts.get(key) ?? 0) + 1;
    // Only the kind of failure is logged: provider and database messages can quote what the users wrote.
    const reason =
      error instanceof ProviderError
        ? `provider ${error.kind}`
        : error instanceof MemoryWriteConflict
          ? 'written by another instance meanwhile'
          : error instanceof Error
            ? error.name
            : 'unknown';
    const giveUp = attempt > this.#maxRetries;
    this.deps.logger.warn(
      { agentId: job.agentId, attempt, reason, willRetry: !giveUp },
      giveUp
        ? 'memory update failed; it is tried again with the conversation’s next message'
        : 'memory update failed; retrying later',
    );
    if (giveUp) {
      this.#attempts.delete(key);
      return;
    }
    this.#attempts.set(key, attempt);
    // A conflict is resolved by reading what the other instance wrote: soon, not after a backoff.
    const delay = error instanceof MemoryWriteConflict ? 50 : this.#retryDelayMs * 2 ** (attempt - 1);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.schedule(job);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }
}
