import { Counter, type Registry } from 'prom-client';

/**
 * Posts the social connectors took and made, for the Prometheus endpoint,
 * labelled by platform type and direction only (never by agent: label sets
 * stay bounded whatever users create).
 */
export class PlatformMetrics {
  readonly posts = new Counter({
    name: 'agentd_platform_posts_total',
    help: 'Posts of social platforms by platform and direction: received (mentions, replies to an agent) or posted.',
    labelNames: ['platform', 'direction'] as const,
    registers: [],
  });

  register(registry: Registry): void {
    registry.registerMetric(this.posts);
  }
}
