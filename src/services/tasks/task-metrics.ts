import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * The scheduler's metrics for the Prometheus endpoint, labelled by outcome
 * only (never by agent or task: label sets stay bounded whatever users create).
 */
export class TaskMetrics {
  readonly runs = new Counter({
    name: 'agentd_task_runs_total',
    help: 'Task runs this instance ended, by outcome: completed, failed, cancelled, or skipped (a due time not run: missed, or its agent no longer active).',
    labelNames: ['outcome'] as const,
    registers: [],
  });

  readonly paused = new Counter({
    name: 'agentd_tasks_paused_total',
    help: 'Tasks this instance paused because their last runs failed.',
    registers: [],
  });

  readonly startDelay = new Histogram({
    name: 'agentd_task_start_delay_seconds',
    help: 'From a due time to its claim by this instance: how late scheduled runs start.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [],
  });

  register(registry: Registry): void {
    registry.registerMetric(this.runs);
    registry.registerMetric(this.paused);
    registry.registerMetric(this.startDelay);
  }
}
