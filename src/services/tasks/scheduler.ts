import { isoTime } from '../../clock.js';
import type { TaskSettings } from '../../config.js';
import { newId } from '../../ids.js';
import type { TaskOutputValue } from '../../schemas/tasks.js';
import type { DueRunRow } from '../../storage/repositories/runs.js';
import type { DueTaskRow } from '../../storage/repositories/tasks.js';
import type { ServiceDeps } from '../context.js';
import type { PlatformRuntime } from '../platforms/platform-runtime.js';
import { dueTimesThrough, storedSchedule } from './schedule.js';
import { TaskMetrics } from './task-metrics.js';
import { executeTaskRun, type TaskRunOrder } from './task-run.js';

/**
 * A due time that no instance claimed within this long of it was missed
 * (every instance was down, or the fleet far behind): of those, only the most
 * recent runs and the others are recorded as `skipped`. A due time claimed
 * late but within it (a slow tick, a busy database) still runs.
 */
export const missedAfterMs = 10_000;
/** Missed due times recorded as `skipped` per claim of a task, most recent first; older ones leave no row. */
export const skippedRunsLimit = 100;
/** Tasks claimed per transaction at most (and never more than the free run slots of this instance). */
export const claimBatch = 100;

export interface TaskSchedulerOptions {
  deps: ServiceDeps;
  platforms: PlatformRuntime;
  settings: TaskSettings;
}

/**
 * Claims due tasks and produces their runs. Each tick, one transaction locks
 * the due tasks (PostgreSQL: FOR UPDATE SKIP LOCKED, so instances ticking at
 * once take different tasks; SQLite: the single writer), inserts the due
 * time's run (`queued`, trigger `task`) and moves the task's due time on; the
 * unique (task_id, due_at) of runs makes a second claim of a due time
 * impossible even so. The claimed runs are then produced on this instance.
 *
 * Tasks of an agent that is not `active` are moved on without a run: their
 * due times pass unrecorded, and nothing runs for them later either.
 */
export class TaskScheduler {
  readonly metrics = new TaskMetrics();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #stopping = new AbortController();
  #timer: NodeJS.Timeout | null = null;
  #ticking = false;
  #closed = false;

  constructor(private readonly options: TaskSchedulerOptions) {}

  /** Starts claiming due tasks every `tickMs` (unless AGENTD_TASKS=off). */
  start(): void {
    if (!this.options.settings.schedule || this.#timer !== null) return;
    this.#timer = setInterval(() => void this.tick(), this.options.settings.tickMs);
    this.#timer.unref();
    void this.tick();
  }

  /** Runs in progress on this instance. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** One look for due tasks: claims what this instance has room for and starts producing it. Returns the runs started. */
  async tick(): Promise<number> {
    if (this.#ticking || this.#closed) return 0;
    this.#ticking = true;
    try {
      const room = Math.min(claimBatch, this.options.settings.concurrency - this.#inFlight.size);
      if (room <= 0) return 0;
      const orders = await this.claim(this.options.deps.clock.now(), room);
      for (const order of orders) this.launch(order);
      return orders.length;
    } catch (error) {
      this.options.deps.logger.warn({ error: (error as Error).message }, 'task claim failed');
      return 0;
    } finally {
      this.#ticking = false;
    }
  }

  /**
   * The claim transaction: up to `limit` tasks due at `now`, each moved on
   * to its next due time, with the runs of its due times written. Returns the
   * runs to produce (exposed for tests and the bench).
   */
  async claim(now: number, limit: number): Promise<TaskRunOrder[]> {
    const { repositories } = this.options.deps;
    const nowText = isoTime(now);
    let skipped = 0;
    const orders = await repositories.db.transaction().execute(async (transaction) => {
      const due = await repositories.tasks.lockDue(nowText, limit, transaction);
      const runs: DueRunRow[] = [];
      const planned: TaskRunOrder[] = [];
      const moves = due.map((task) => {
        const plan = this.#plan(task, now, nowText);
        runs.push(...plan.runs);
        planned.push(...plan.orders);
        return { taskId: task.id, claimedDueAt: task.next_due_at as string, nextDueAt: plan.next };
      });
      const inserted = new Set(await repositories.runs.insertDueRuns(runs, transaction));
      await repositories.tasks.advance(moves, transaction);
      skipped = runs.filter((run) => run.status === 'skipped' && inserted.has(run.id)).length;
      const claimed = planned.filter((order) => inserted.has(order.runId));
      return claimed;
    });
    if (skipped > 0) this.metrics.runs.inc({ outcome: 'skipped' }, skipped);
    for (const order of orders) {
      if (order.dueAt !== null) this.metrics.startDelay.observe(Math.max(0, now - Date.parse(order.dueAt)) / 1000);
    }
    return orders;
  }

  /** What one claim of a task writes: the runs of its due times through `now`, and its next due time. */
  #plan(task: DueTaskRow, now: number, nowText: string) {
    const schedule = storedSchedule(task.schedule);
    const times = dueTimesThrough(schedule, Date.parse(task.next_due_at as string), now, skippedRunsLimit);
    const next = times.next === null ? null : isoTime(times.next);
    const runs: DueRunRow[] = [];
    const orders: TaskRunOrder[] = [];
    if (task.agent_status !== 'active' || task.enabled !== 1) return { runs, orders, next };
    const output = JSON.parse(task.output) as TaskOutputValue;
    const row = (dueAt: number, status: DueRunRow['status']): DueRunRow => ({
      id: newId('run'),
      accountId: task.account_id,
      agentId: task.agent_id,
      taskId: task.id,
      dueAt: isoTime(dueAt),
      status,
      input: task.instructions,
      roomId: `task:${task.id}`,
      instanceId: this.options.deps.runs.instanceId,
      createdAt: nowText,
    });
    // Oldest first, so that run ids (time-ordered) follow due times.
    for (const dueAt of [...times.skipped].reverse().concat(times.latest)) {
      const late = dueAt === times.latest || dueAt >= now - missedAfterMs;
      const run = row(dueAt, late ? 'queued' : 'skipped');
      runs.push(run);
      if (late) {
        orders.push({
          runId: run.id,
          accountId: task.account_id,
          agentId: task.agent_id,
          taskId: task.id,
          name: task.name,
          instructions: task.instructions,
          output,
          dueAt: run.dueAt,
        });
      }
    }
    return { runs, orders, next };
  }

  /** Produces a claimed (or started-now) run on this instance, in the background. */
  launch(order: TaskRunOrder): void {
    void this.run(order);
  }

  /** As `launch`, resolving when the run and its outcome are recorded (a run taken over from a stopped instance). */
  run(order: TaskRunOrder): Promise<void> {
    const { deps, platforms } = this.options;
    const running = executeTaskRun({ deps, platforms, metrics: this.metrics }, order, this.#stopping.signal).finally(
      () => this.#inFlight.delete(order.runId),
    );
    this.#inFlight.set(order.runId, running);
    return running;
  }

  /** Resolves once every run in progress on this instance has ended (tests, the bench). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight.values()]);
  }

  /**
   * Stops claiming, lets the runs in progress finish for up to `graceMs`,
   * then cancels the rest (their runs end `cancelled`).
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.settled(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.#stopping.abort();
    await this.settled();
  }
}
