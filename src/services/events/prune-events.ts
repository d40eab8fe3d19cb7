import { isoTime } from '../../clock.js';
import type { ServiceContext } from '../context.js';

const dayMs = 24 * 60 * 60 * 1000;

/** Deletions before this time are past the retention: their trails are no longer shown, and may be removed. */
export function retentionCutoff(ctx: ServiceContext): string {
  return isoTime(ctx.deps.clock.now() - ctx.deps.eventRetentionDays * dayMs);
}

/**
 * Removes the trails of agents deleted longer ago than the retention. Run
 * after each deletion: trails only expire after one, and the query is an
 * index range over deletions, so it costs little. A failure is logged and
 * left to the next deletion; reads hide expired trails either way.
 */
export async function pruneExpiredTrails(ctx: ServiceContext): Promise<void> {
  try {
    const removed = await ctx.deps.repositories.agentEvents.pruneDeletedBefore(retentionCutoff(ctx));
    if (removed > 0) ctx.deps.logger.info({ removed, requestId: ctx.requestId }, 'expired agent event trails removed');
  } catch (error) {
    ctx.deps.logger.warn({ err: error, requestId: ctx.requestId }, 'removing expired agent event trails failed');
  }
}
