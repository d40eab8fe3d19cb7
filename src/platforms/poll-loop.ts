import { abortableDelay } from '../providers/abortable-delay.js';
import type { PlatformContext } from './platform.js';

/** What a failed poll means for the loop. */
export type PollFailure =
  /** The platform refused the credentials: reported to the core, and polling ends. */
  | { kind: 'rejected'; failure: Error }
  /** The platform's rate limit: poll again after `waitMs`, without counting a fault. */
  | { kind: 'rate-limited'; waitMs: number }
  /** Anything else (network, 5xx): poll again after an exponential back-off. */
  | { kind: 'fault'; described: unknown };

export interface PollLoop {
  /** As in logs: 'x', 'bluesky'. */
  platform: string;
  /** What a fault's log line says, e.g. 'X mentions not read'. */
  notRead: string;
  context: PlatformContext;
  intervalMs: number;
  pollOnce(): Promise<void>;
  classify(error: unknown): PollFailure;
}

const retryMinMs = 1_000;
const retryMaxMs = 60_000;

/**
 * Polls until the context's signal stops it: `intervalMs` between polls that
 * succeed, the platform's own wait after a rate limit, 1 s doubling to a
 * minute after faults in a row, and no more polls once credentials are
 * refused (the core shows the platform as `error`).
 */
export async function pollUntilStopped(loop: PollLoop): Promise<void> {
  const { context } = loop;
  let failures = 0;
  while (!context.signal.aborted) {
    let waitMs = loop.intervalMs;
    try {
      await loop.pollOnce();
      failures = 0;
    } catch (error) {
      if (context.signal.aborted) return;
      const failure = loop.classify(error);
      if (failure.kind === 'rejected') {
        context.reportFailure(failure.failure);
        return;
      }
      if (failure.kind === 'rate-limited') {
        waitMs = failure.waitMs;
        context.logger.warn(
          { agentId: context.agentId, platform: loop.platform, waitMs },
          'rate limit reached; waiting for its reset',
        );
      } else {
        failures += 1;
        waitMs = Math.min(retryMaxMs, retryMinMs * 2 ** Math.min(failures - 1, 10));
        context.logger.warn(
          { agentId: context.agentId, platform: loop.platform, error: failure.described, retryInMs: waitMs },
          loop.notRead,
        );
      }
    }
    await abortableDelay(waitMs, context.signal);
  }
}
