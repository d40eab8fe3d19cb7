import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { isoTime, type Clock } from '../clock.js';
import type { WebhookSettings } from '../config.js';
import { OutboundRefusedError } from '../outbound/outbound-refused-error.js';
import type { FetchFunction } from '../plugins/plugin.js';
import type { SecretBox } from '../security/secret-box.js';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  WebhookDeliveryRepository,
} from '../storage/repositories/webhook-deliveries.js';
import type { WebhookRepository } from '../storage/repositories/webhooks.js';
import { attemptSignal } from '../attempt-signal.js';
import { retryDelayMs } from './retry-schedule.js';

/** Deliveries one instance has in flight at once: a slow receiver holds one slot, not the whole dispatcher. */
const maximumInFlight = 16;
/** How often finished deliveries past the retention are removed. */
const pruneEveryMs = 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

export interface DispatcherDeps {
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  secretBox: SecretBox;
  fetch: FetchFunction;
  clock: Clock;
  logger: Logger;
  settings: WebhookSettings;
}

/** Why an attempt failed, in words that hold neither the URL nor a secret. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof OutboundRefusedError) return `refused: ${error.reason}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? `connection failed (${code})` : 'connection failed';
}

/**
 * Delivers the outbox. Runs in every instance: each claims due rows with one
 * conditional UPDATE (see the repository), so exactly one instance makes a
 * given attempt. A commit on this instance wakes it at once; otherwise it
 * looks every `pollMs`, or when the next retry falls due if that is sooner.
 * A claim lapses after the time-out and a margin, so deliveries an instance
 * held when it died are taken over (at least once: the receiver may see one
 * twice, and dedupes on `webhook-id`).
 */
export class WebhookDispatcher {
  readonly #deps: DispatcherDeps;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stopping = new AbortController();
  #running: Promise<void> | null = null;
  #woken = false;
  #wake: (() => void) | null = null;
  #lastPrune = 0;

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
  }

  start(): void {
    if (this.#running !== null) return;
    this.#running = this.#loop().catch((error: unknown) =>
      this.#deps.logger.error({ err: error }, 'the webhook dispatcher stopped on an error'),
    );
  }

  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Stops claiming, aborts attempts in flight (their claims are released for the next start) and waits for them. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    this.#wake?.();
    await this.#running;
    await Promise.allSettled([...this.#inFlight]);
  }

  get #leaseMs(): number {
    return this.#deps.settings.timeoutMs + 5_000;
  }

  async #loop(): Promise<void> {
    const { logger, settings } = this.#deps;
    while (!this.#stopping.signal.aborted) {
      this.#woken = false;
      let claimedAll = false;
      try {
        await this.#pruneWhenDue();
        const free = maximumInFlight - this.#inFlight.size;
        if (free > 0) {
          const claimed = await this.#claim(free);
          claimedAll = claimed === free;
        }
      } catch (error) {
        logger.warn({ err: error }, 'webhook dispatcher could not read the outbox; trying again');
      }
      if (this.#stopping.signal.aborted) break;
      if (this.#woken || (claimedAll && this.#inFlight.size < maximumInFlight)) continue;
      await this.#sleep(await this.#untilNextDue(settings.pollMs));
    }
  }

  async #untilNextDue(pollMs: number): Promise<number> {
    try {
      const next = await this.#deps.deliveries.nextDueAt();
      if (next === null) return pollMs;
      return Math.max(0, Math.min(pollMs, Date.parse(next) - this.#deps.clock.now()));
    } catch {
      return pollMs;
    }
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = null;
        done();
      };
    });
  }

  async #claim(limit: number): Promise<number> {
    const now = this.#deps.clock.now();
    const claimed = await this.#deps.deliveries.claimDue(
      isoTime(now),
      isoTime(now + this.#leaseMs),
      randomBytes(12).toString('base64url'),
      limit,
    );
    for (const delivery of claimed) {
      const attempt = this.#attempt(delivery).catch((error: unknown) =>
        this.#deps.logger.warn({ err: error, deliveryId: delivery.id }, 'recording a webhook delivery failed'),
      );
      this.#inFlight.add(attempt);
      void attempt.finally(() => {
        this.#inFlight.delete(attempt);
        // A slot is free: claim the next due delivery now rather than at the next poll.
        this.wake();
      });
    }
    return claimed.length;
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const { webhooks, deliveries, secretBox, clock, logger, settings } = this.#deps;
    const webhook = await webhooks.findById(delivery.webhookId);
    if (webhook === null || !webhook.enabled) {
      const now = isoTime(clock.now());
      await deliveries.settle(delivery, { state: 'cancelled', nextAttemptAt: now, attempt: null, now });
      return;
    }
    const sentAt = new Date(clock.now());
    const signature = new Webhook(secretBox.open(webhook.sealedSecret, webhook.id)).sign(
      delivery.eventId,
      sentAt,
      delivery.payload,
    );
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    const abort = attemptSignal(this.#stopping.signal, settings.timeoutMs);
    try {
      const response = await this.#deps.fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'agentd-webhooks',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: delivery.payload,
        // Redirects are failures, as in the Standard Webhooks guidance: a receiver answers where it was registered.
        redirect: 'error',
        signal: abort.signal,
      });
      statusCode = response.status;
      // Only the status matters; the body is not read (a receiver could send any amount).
      await response.body?.cancel().catch(() => undefined);
      if (statusCode < 200 || statusCode > 299) error = `the receiver answered ${statusCode}`;
    } catch (failure) {
      if (this.#stopping.signal.aborted) {
        // Shutting down: the attempt does not count, and the delivery is due again for the next instance.
        const now = isoTime(clock.now());
        await deliveries.settle(delivery, { state: 'pending', nextAttemptAt: now, attempt: null, now });
        return;
      }
      error = describeFailure(failure, settings.timeoutMs);
    } finally {
      abort.release();
    }
    const now = clock.now();
    const attempt: DeliveryAttempt = {
      attempt: delivery.attempts + 1,
      statusCode,
      durationMs: Math.round(performance.now() - started),
      error,
      at: isoTime(now),
    };
    const delay = error === null ? null : retryDelayMs(attempt.attempt, settings.retryBaseMs);
    const state = error === null ? 'succeeded' : delay === null ? 'failed' : 'pending';
    const nextAttemptAt = isoTime(now + (delay ?? 0));
    const recorded = await deliveries.settle(delivery, { state, nextAttemptAt, attempt, now: isoTime(now) });
    const fields = {
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      eventType: delivery.eventType,
      attempt: attempt.attempt,
      statusCode,
      durationMs: attempt.durationMs,
    };
    if (!recorded) logger.warn(fields, 'a webhook delivery outlived its claim; its outcome was not recorded');
    else if (error === null) logger.debug(fields, 'webhook delivered');
    else
      logger.info(
        { ...fields, error, state, nextAttemptAt: state === 'pending' ? nextAttemptAt : null },
        'webhook delivery failed',
      );
  }

  async #pruneWhenDue(): Promise<void> {
    const now = this.#deps.clock.now();
    if (now - this.#lastPrune < pruneEveryMs) return;
    this.#lastPrune = now;
    const cutoff = isoTime(now - this.#deps.settings.retentionDays * dayMs);
    const removed = await this.#deps.deliveries.pruneFinishedBefore(cutoff);
    if (removed > 0) this.#deps.logger.info({ removed }, 'webhook deliveries past their retention removed');
  }
}
