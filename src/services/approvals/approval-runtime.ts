import type { Logger } from 'pino';
import type { PlatformRuntime } from '../platforms/platform-runtime.js';
import type { ServiceDeps } from '../context.js';
import { produceRun, type ProducedRun } from '../runs/produce-run.js';
import { postToPlatform } from '../tasks/task-output.js';
import type { ResumeOrder, ResumeStarter } from './approvals.js';
import type { PausedState } from './paused-state.js';

/**
 * Goes on with paused replies on this instance once their decisions are in:
 * produces the run that resumes each (trigger `approval`) and, when the paused
 * message came from a platform whose connector can name its chat, posts the
 * answer back to that chat with the connector's own send path.
 */
export class ApprovalRuntime implements ResumeStarter {
  #deps: ServiceDeps | null = null;
  #platforms: PlatformRuntime | null = null;
  readonly #running = new Set<Promise<void>>();
  readonly #early: ResumeOrder[] = [];

  constructor(private readonly logger: Logger) {}

  /** Wired once the services and the platform runtime exist (they need this runtime first). */
  attach(deps: ServiceDeps, platforms: PlatformRuntime): void {
    this.#deps = deps;
    this.#platforms = platforms;
    for (const order of this.#early.splice(0)) this.start(order);
  }

  start(order: ResumeOrder): void {
    const deps = this.#deps;
    // The first heartbeat's expiry sweep may settle a run before the platforms are wired: it starts then.
    if (deps === null) {
      this.#early.push(order);
      return;
    }
    const done = this.#resume(deps, order).finally(() => this.#running.delete(done));
    this.#running.add(done);
  }

  /** As `start`, resolving when the run has ended (a run taken over from a stopped instance). */
  run(order: ResumeOrder): Promise<void> {
    const deps = this.#deps;
    if (deps === null) return Promise.resolve(this.start(order));
    const done = this.#resume(deps, order).finally(() => this.#running.delete(done));
    this.#running.add(done);
    return done;
  }

  async #resume(deps: ServiceDeps, order: ResumeOrder): Promise<void> {
    const produced = await produceRun(deps, {
      id: order.runId,
      accountId: order.accountId,
      agentId: order.agentId,
      trigger: 'approval',
      input: { text: '' },
      resume: { pausedRunId: order.pausedRunId },
      ...(order.takeover === true ? { takeover: true } : {}),
    });
    try {
      await this.#postBack(deps, order, produced);
    } catch (error) {
      this.logger.warn(
        { runId: order.runId, agentId: order.agentId, reason: (error as Error).message },
        'could not post a resumed reply back to its chat',
      );
    }
  }

  async #postBack(deps: ServiceDeps, order: ResumeOrder, produced: ProducedRun): Promise<void> {
    const text = produced.reply?.text ?? '';
    if (text === '' || this.#platforms === null) return;
    const paused = await deps.repositories.approvals.pausedRun(order.pausedRunId);
    if (paused === undefined) return;
    const state = JSON.parse(paused.state) as PausedState;
    if (state.origin === null) return;
    const definition = deps.platforms.catalog.definitionOf(state.origin.platform);
    const target =
      state.origin.replyTarget ?? definition?.replyTarget?.({ userId: state.userId, roomId: state.roomId }) ?? null;
    if (target === null) return;
    // The output type names the connectors that post (telegram, slack, discord); only one with a reply target
    // gets here.
    await postToPlatform(
      deps,
      this.#platforms,
      order,
      { type: 'platform', platform: state.origin.platform as 'telegram', target },
      text,
      AbortSignal.timeout(30_000),
    );
  }

  /** Waits for the resumed replies under way (their runs are stopped by the run runtime's close). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}
