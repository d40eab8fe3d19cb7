import type { Logger } from 'pino';
import { abortableDelay } from '../providers/abortable-delay.js';
import type { PlatformLeases } from '../limits/platform-lease.js';
import type { PlatformState } from '../storage/repositories/platform-states.js';
import {
  PlatformCredentialsRejected,
  type AnyPlatformDefinition,
  type PlatformConnection,
  type PlatformContext,
} from './platform.js';

/** What a runner reports to the supervisor, which records it (state table, event trail, agent status). */
export interface RunnerReports {
  state(state: PlatformState, reason: string | null, holder: string | null): Promise<void>;
  credentialsRejected(reason: string): Promise<void>;
}

export interface RunnerTimings {
  /** First pause after a network fault, doubled up to `retryMaxMs`. */
  retryMinMs: number;
  retryMaxMs: number;
  /** Pause between attempts to take a lease another instance holds. */
  leaseRetryMs: number;
}

export interface ConnectorRunnerOptions {
  agentId: string;
  type: string;
  definition: AnyPlatformDefinition;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  onLease: boolean;
  leases: PlatformLeases;
  instanceId: string;
  timings: RunnerTimings;
  logger: Logger;
  reports: RunnerReports;
  /** The context given to the connector, with the signal that stops it and its failure report. */
  contextFor(signal: AbortSignal, reportFailure: (error: unknown) => void): PlatformContext;
}

/** A message that names the fault without any secret: connectors' errors are scrubbed where they are made. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one connector of one agent until told to stop: takes its lease first
 * when it must run on one instance, starts it, restarts it with backoff after
 * network faults, and gives up (reporting the rejection) when the platform
 * refuses the credentials.
 */
export class ConnectorRunner {
  readonly #controller = new AbortController();
  readonly #done: Promise<void>;
  /** True once the platform rejected the credentials: the runner has ended and its state stays `error`. */
  rejected = false;

  constructor(private readonly options: ConnectorRunnerOptions) {
    this.#done = this.#run().catch((error) => {
      options.logger.error(
        { agentId: options.agentId, platform: options.type, error: describe(error) },
        'connector runner failed',
      );
    });
  }

  /** Stops the connector and resolves once it has stopped. */
  async stop(): Promise<void> {
    this.#controller.abort();
    await this.#done;
  }

  async #run(): Promise<void> {
    const { options } = this;
    const stopping = this.#controller.signal;
    let failures = 0;
    while (!stopping.aborted) {
      const lease = options.onLease ? await options.leases.tryAcquire(`${options.agentId}:${options.type}`) : null;
      if (options.onLease && lease === null) {
        await abortableDelay(options.timings.leaseRetryMs, stopping);
        continue;
      }
      const attempt = new AbortController();
      const abortAttempt = () => attempt.abort();
      stopping.addEventListener('abort', abortAttempt, { once: true });
      lease?.lost.addEventListener('abort', abortAttempt, { once: true });
      let failure: unknown = null;
      const failed = new Promise<void>((resolve) => {
        attempt.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      const reportFailure = (error: unknown) => {
        failure ??= error;
        attempt.abort();
      };
      let connection: PlatformConnection | null = null;
      try {
        if (!attempt.signal.aborted) {
          connection = await options.definition.start(
            options.settings,
            options.secrets,
            options.contextFor(attempt.signal, reportFailure),
          );
          failures = 0;
          await options.reports.state('running', null, options.onLease ? options.instanceId : null);
          await failed;
        }
      } catch (error) {
        failure ??= error;
      } finally {
        stopping.removeEventListener('abort', abortAttempt);
        attempt.abort();
        await connection?.stop().catch((error) => {
          options.logger.warn(
            { agentId: options.agentId, platform: options.type, error: describe(error) },
            'connector did not stop cleanly',
          );
        });
        await lease?.release();
      }
      if (stopping.aborted) return;
      if (failure instanceof PlatformCredentialsRejected) {
        this.rejected = true;
        await options.reports.credentialsRejected(failure.message);
        return;
      }
      if (failure === null) continue; // the lease was lost: try to take it again
      failures += 1;
      const delay = Math.min(options.timings.retryMaxMs, options.timings.retryMinMs * 2 ** Math.min(failures - 1, 16));
      const reason = `${describe(failure)}; retrying in ${Math.ceil(delay / 1000)} s`;
      options.logger.warn({ agentId: options.agentId, platform: options.type, reason }, 'connector failed');
      await options.reports.state('error', reason, options.onLease ? options.instanceId : null);
      await abortableDelay(delay, stopping);
    }
  }
}
