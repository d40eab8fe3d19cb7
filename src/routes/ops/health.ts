import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';

export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answers; `degraded` means the service still works without it. */
  check(): Promise<'ok' | 'degraded'>;
  /** Whether the instance can serve at all without this dependency. */
  required: boolean;
}

const checkTimeoutMs = 2000;

async function runCheck(check: ReadinessCheck): Promise<'ok' | 'degraded' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check.check(),
      new Promise<'unavailable'>((resolve) => {
        timer = setTimeout(() => resolve('unavailable'), checkTimeoutMs);
      }),
    ]);
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

const ReadyResponse = Type.Object({
  status: Type.String({ description: '`ok`, `degraded` (serving with reduced guarantees) or `unavailable`.' }),
  checks: Type.Record(Type.String(), Type.String()),
});

export function registerHealth(app: App, checks: ReadinessCheck[]): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'health',
        tags: ['operations'],
        summary: 'Liveness: the process is up',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'ready',
        tags: ['operations'],
        summary: 'Readiness: the database (and Redis, when configured) answer',
        description:
          '200 while the instance can serve. A missing Redis is reported as `degraded` with 200, because ' +
          'the instance then keeps serving with per-instance limits; a missing database is 503.',
        security: [],
        response: { 200: ReadyResponse, 503: ReadyResponse },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(checks.map(async (check) => [check, await runCheck(check)] as const));
      const failedRequired = results.some(([check, result]) => check.required && result === 'unavailable');
      const degraded = results.some(([, result]) => result !== 'ok');
      const status = failedRequired ? 'unavailable' : degraded ? 'degraded' : 'ok';
      return reply
        .status(failedRequired ? 503 : 200)
        .send({ status, checks: Object.fromEntries(results.map(([check, result]) => [check.name, result])) });
    },
  );
}
