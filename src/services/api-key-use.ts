import { isoTime } from '../clock.js';
import type { ServiceDeps } from './context.js';

/**
 * How fresh an API key's `lastUsedAt` is kept: a key is recorded at most
 * once per this interval per instance. Recording on every request would put
 * a write on the hot path (and on SQLite drop the committed-read cache the
 * key lookup is served from); a minute is as precise as "last used" needs.
 */
export const keyUseRecordIntervalMs = 60_000;

/** Keys known by an instance at once before the memory of when they were recorded is started afresh. */
const rememberedKeyLimit = 10_000;

const recordedAt = new WeakMap<ServiceDeps, Map<string, number>>();

/**
 * Notes that a key authenticated a request. The write is not awaited: the
 * request never waits for it, and a failure only leaves `lastUsedAt` older
 * (it is logged, without the key).
 */
export function noteKeyUse(deps: ServiceDeps, keyId: string): void {
  let recorded = recordedAt.get(deps);
  if (recorded === undefined) {
    recorded = new Map();
    recordedAt.set(deps, recorded);
  }
  const now = deps.clock.now();
  const last = recorded.get(keyId);
  if (last !== undefined && now - last < keyUseRecordIntervalMs) return;
  if (recorded.size >= rememberedKeyLimit) recorded.clear();
  recorded.set(keyId, now);
  deps.repositories.apiKeys.recordUse(keyId, isoTime(now)).catch((error: unknown) => {
    deps.logger.warn({ keyId, error: String(error) }, 'could not record when an API key was last used');
  });
}
