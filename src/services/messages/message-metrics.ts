import type { FailureType } from '../../events/metric-counts.js';
import type { TokenUsage } from '../../providers/model-adapter.js';
import { costOf } from '../../providers/prices.js';
import { ProviderError, type ProviderFailureKind } from '../../providers/provider-error.js';
import type { ServiceContext } from '../context.js';
import type { Exchange } from './exchange-store.js';

const failureTypeByKind: Record<Exclude<ProviderFailureKind, 'aborted'>, FailureType> = {
  unavailable: 'provider_error',
  rejected: 'provider_rejected',
  timeout: 'timeout',
  'circuit-open': 'circuit_open',
  credentials: 'credentials',
  model: 'model_not_found',
};

/** The failure type a message that ended with `error` is counted under. */
export function failureTypeOf(error: unknown): FailureType {
  if (error instanceof ProviderError && error.kind !== 'aborted') return failureTypeByKind[error.kind];
  return 'internal';
}

/** How an accepted message ended, for its agent's metrics. */
export interface MessageEnding {
  /** Null for a completed reply or one whose client went away. */
  failure: FailureType | null;
  /** Whether the reply completed: only those count towards the latency percentiles. */
  completed: boolean;
  toolCalls: number;
  /** Images the reply produced (tools made them). */
  imagesOut?: number;
  /** Tokens the provider reported for the steps that finished. */
  usage: TokenUsage;
  /** performance.now() when the first text was sent to a streamed reply's client, or null. */
  firstTextTick: number | null;
}

/** Counts one accepted message in its agent's metrics: in memory, written with the next flush. */
export function recordMessageMetrics(ctx: ServiceContext, exchange: Exchange, ending: MessageEnding): void {
  // The one place every accepted message's usage passes, once: what its spend reservation settles with.
  exchange.spend?.use(ending.usage);
  const now = performance.now();
  ctx.deps.agentMetrics.message({ accountId: ctx.actor.accountId, agentId: exchange.agentId }, exchange.startedAt, {
    streamed: exchange.streamed,
    trigger: exchange.trigger,
    failure: ending.failure,
    toolCalls: ending.toolCalls,
    imagesIn: exchange.attachments?.length ?? 0,
    imagesOut: ending.imagesOut ?? 0,
    inputTokens: ending.usage.inputTokens,
    outputTokens: ending.usage.outputTokens,
    cachedInputTokens: ending.usage.cachedInputTokens ?? 0,
    // Priced now, like the stored reply: a failed reply's finished steps were billed too.
    costUsd: costOf(ctx.deps.prices.priceOf(exchange.model.provider, exchange.model.name), ending.usage),
    latencyMs: ending.completed ? now - exchange.startedTick : null,
    timeToFirstTokenMs:
      exchange.streamed && ending.firstTextTick !== null ? ending.firstTextTick - exchange.startedTick : null,
  });
}
