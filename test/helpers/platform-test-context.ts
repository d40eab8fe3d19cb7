import type { Logger } from 'pino';
import type { InboundMessage, InboundReply, PlatformContext, TakenItem } from '../../src/platforms/platform.js';
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
  /** The items taken (`items.take`) and not answered now, by id. */
  pendingItems(): Map<string, { pending: string; attempts: number }>;
  /** The ids of the items marked answered, in order. */
  answeredItems(): string[];
  /**
   * What the takeover sweep does: hands every unanswered item whose claim is
   * free (given as `pendingItems`, or released) to the connector's
   * `answerTakenOver`, one after the other in take order, each counted as one
   * more attempt, and settles it as the answer says. Resolves once all are.
   */
  handOver(): Promise<void>;
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
  /** The read position to start from. */
  position?: number;
  /** Items earlier holders took (`items.take`) and left unanswered, their claims run out; `takenAt` defaults to now. */
  pendingItems?: Array<{ itemId: string; pending: string; attempts: number; takenAt?: number }>;
}): TestPlatformContext {
  const received: InboundMessage[] = [];
  let events = 0;
  const controller = new AbortController();
  const log = captureLog();
  const answer = options.answer ?? ((message) => ({ text: `echo: ${message.content}`, limited: false }));
  const failures: unknown[] = [];
  let position: number | null = options.position ?? null;
  interface Item {
    pending: string;
    attempts: number;
    takenAt: number;
    claimed: boolean;
    answered: boolean;
  }
  const items = new Map<string, Item>();
  const answered: string[] = [];
  for (const item of options.pendingItems ?? []) {
    items.set(item.itemId, { takenAt: Date.now(), ...item, claimed: false, answered: false });
  }
  let answerTakenOver: ((item: TakenItem) => Promise<boolean>) | null = null;
  const held = (itemId: string, item: Item): TakenItem => ({
    itemId,
    pending: item.pending,
    attempts: item.attempts,
    takenAt: item.takenAt,
    signal: controller.signal,
    async answered() {
      item.answered = true;
      item.claimed = false;
      answered.push(itemId);
    },
    async release() {
      item.claimed = false;
    },
  });
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
      async claim(next: number | string) {
        const value = Number(next);
        if (position !== null && value <= position) return false;
        position = value;
        return true;
      },
    },
    items: {
      async take(itemId: string, pending: string) {
        const known = items.get(itemId);
        if (known !== undefined && (known.answered || known.claimed)) return null;
        const item = known ?? { pending, attempts: 0, takenAt: Date.now(), claimed: false, answered: false };
        item.attempts += 1;
        item.claimed = true;
        items.set(itemId, item);
        return held(itemId, item);
      },
      answerTakenOver(answer: (item: TakenItem) => Promise<boolean>) {
        answerTakenOver = answer;
      },
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
    pendingItems: () =>
      new Map(
        [...items]
          .filter(([, item]) => !item.answered)
          .map(([itemId, item]) => [itemId, { pending: item.pending, attempts: item.attempts }]),
      ),
    answeredItems: () => [...answered],
    async handOver() {
      if (answerTakenOver === null) throw new Error('the connector did not register answerTakenOver');
      const free = [...items].filter(([, item]) => !item.answered && !item.claimed);
      for (const [itemId, item] of free.sort(([, first], [, second]) => first.takenAt - second.takenAt)) {
        item.attempts += 1;
        item.claimed = true;
        const taken = held(itemId, item);
        await ((await answerTakenOver(taken)) ? taken.answered() : taken.release());
      }
    },
    received,
    events: () => events,
    failures,
    log,
    abort: () => controller.abort(),
  };
}
