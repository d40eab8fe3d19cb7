import { Counter, Histogram, type Registry } from 'prom-client';
import type { TokenUsage } from './model-adapter.js';
import type { ProviderFailureKind } from './provider-error.js';

/** How a model call ended: `success`, or the kind of its failure (a bounded set). */
export type ModelCallOutcome = 'success' | ProviderFailureKind;

/**
 * Model calls for the Prometheus endpoint: a duration histogram by provider
 * and outcome, and token counters by provider. Labelled by provider only,
 * never by agent or model name: label sets stay bounded whatever users
 * create. Built with the dependencies (the gateway records into it) and
 * added to each app's registry by `register`.
 */
export class ModelCallMetrics {
  readonly duration = new Histogram({
    name: 'agentd_model_call_duration_seconds',
    help: 'Model calls from the request to the provider (retries included) to the end of its answer, by provider and outcome.',
    labelNames: ['provider', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120],
    registers: [],
  });

  readonly tokens = new Counter({
    name: 'agentd_model_tokens_total',
    help: 'Tokens the providers reported, by provider and direction (input, output).',
    labelNames: ['provider', 'direction'] as const,
    registers: [],
  });

  observe(provider: string, outcome: ModelCallOutcome, seconds: number): void {
    this.duration.observe({ provider, outcome }, seconds);
  }

  countTokens(provider: string, usage: TokenUsage): void {
    if (usage.inputTokens > 0) this.tokens.inc({ provider, direction: 'input' }, usage.inputTokens);
    if (usage.outputTokens > 0) this.tokens.inc({ provider, direction: 'output' }, usage.outputTokens);
  }

  register(registry: Registry): void {
    registry.registerMetric(this.duration);
    registry.registerMetric(this.tokens);
  }
}
