import type { Logger } from 'pino';
import type { InboundMessage, InboundReply, PlatformContext } from '../../src/platforms/platform.js';
import { captureLog, type CapturedLog } from './log-capture.js';

/**
 * A PlatformContext for driving one connector directly in tests: it records
 * every message the connector hands to the core and answers with the test's
 * function (by default an echo), counts `markEvent` calls and stops the
 * connector through its AbortController. Its logger keeps every line for
 * the test to read and writes it to the run's log for the secrets check.
 */
export interface TestPlatformContext {
  context: PlatformContext;
  /** The item taken and not settled now, if any. */
  pending(): { pending: string; attempts: number } | null;
  /** The items taken (`items.claim`) and not settled now, by id. */
  pendingItems(): Map<string, { pending: string; attempts: number }>;
  received: InboundMessage[];
  events(): number;
  /** What the connector reported through `reportFailure` after it started. */
  failures: unknown[];
  log: CapturedLog;
  abort(): void;
}

export function createTestPlatformContext(options: {
  apiBaseUrl?: string;
  answer?: (message: InboundMessage) => InboundReply | Promise<InboundReply>;
  logger?: Logger;
  /** Files the connector may read (the images a reply produced), by id. */
  files?: Record<string, { bytes: Uint8Array; mediaType: string }>;
  /** An item an earlier holder took at `position` and never settled (its process died while answering it). */
  pending?: { position: number; pending: string; attempts: number };
  /** Items earlier holders took (`items.claim`) and never settled; `takenAt` defaults to now. */
  pendingItems?: Array<{ itemId: string; pending: string; attempts: number; takenAt?: number }>;
}): TestPlatformContext {
  const received: InboundMessage[] = [];
  let events = 0;
  const controller = new AbortController();
  const log = captureLog();
  const answer = options.answer ?? ((message) => ({ text: `echo: ${message.content}`, limited: false }));
  const failures: unknown[] = [];
  let position: number | null = options.pending?.position ?? null;
  let pending: { pending: string; attempts: number } | null =
    options.pending === undefined ? null : { pending: options.pending.pending, attempts: options.pending.attempts };
  const items = new Set<string>();
  const pendingItems = new Map<string, { pending: string; attempts: number; takenAt: number }>();
  for (const item of options.pendingItems ?? []) {
    items.add(item.itemId);
    pendingItems.set(item.itemId, { takenAt: Date.now(), ...item });
  }
  // Built untyped and then assigned, so that members the core's PlatformContext gains
  // (a durable position, reportFailure) can be given here before and after they exist.
  const fields = {
    agentId: `agt_test${Math.random().toString(36).slice(2, 10)}`,
    accountId: 'acc_test',
    ...(options.apiBaseUrl ? { apiBaseUrl: options.apiBaseUrl } : {}),
    fetch: () => Promise.reject(new Error('no outgoing calls by user-given URL in this test')),
    clock: { now: () => Date.now() },
    logger: options.logger ?? log.logger,
    signal: controller.signal,
    async handleMessage(message: InboundMessage) {
      received.push(message);
      return answer(message);
    },
    markEvent() {
      events += 1;
    },
    positions: {
      last: async () => position,
      lastText: async () => (position === null ? null : String(position)),
      async claim(next: number | string, item?: string) {
        const value = Number(next);
        if (position !== null && value <= position) return false;
        position = value;
        pending = item === undefined ? null : { pending: item, attempts: 1 };
        return true;
      },
      async retakePending() {
        if (pending === null) return null;
        pending = { ...pending, attempts: pending.attempts + 1 };
        return pending;
      },
      async settle(at: number | string) {
        if (Number(at) === position) pending = null;
      },
    },
    items: {
      async claim(itemId: string, pending?: string) {
        if (items.has(itemId)) return false;
        items.add(itemId);
        if (pending !== undefined) pendingItems.set(itemId, { pending, attempts: 1, takenAt: Date.now() });
        return true;
      },
      async retakePending() {
        return [...pendingItems.entries()].map(([itemId, item]) => {
          item.attempts += 1;
          return { itemId, ...item };
        });
      },
      async settle(itemId: string) {
        pendingItems.delete(itemId);
      },
      sweep: async () => undefined,
    },
    dailyPosts: { take: async () => true },
    recordPost: () => undefined,
    reportFailure(error: unknown) {
      failures.push(error);
    },
    async readFile(fileId: string) {
      return options.files?.[fileId] ?? null;
    },
  };
  const context: PlatformContext = fields;
  return {
    context,
    pending: () => pending,
    pendingItems: () =>
      new Map([...pendingItems].map(([itemId, item]) => [itemId, { pending: item.pending, attempts: item.attempts }])),
    received,
    events: () => events,
    failures,
    log,
    abort: () => controller.abort(),
  };
}
