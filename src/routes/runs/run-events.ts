import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import type { GracefulShutdown } from '../../http/graceful-shutdown.js';
import { contextOf } from '../../http/operation.js';
import { clientAbortController, streamRunEvents } from '../../http/reply-stream.js';
import { problemResponses } from '../../schemas/common.js';
import { RunEventsHeaders, RunEventsQuery, RunIdParams } from '../../schemas/runs.js';
import { openRunEvents } from '../../services/runs/follow-run.js';

export function registerRunEvents(app: App, options: { keepAliveMs: number; shutdown: GracefulShutdown }): void {
  app.get(
    '/v1/agents/:agentId/runs/:runId/events',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'streamRunEvents',
        tags: ['runs'],
        summary: "Stream a run's events",
        description:
          'The run’s events as server-sent events, the same ones a streamed reply sends (`message.started`, ' +
          '`message.delta`, `tool.called`, `tool.completed`, then `message.completed` or `message.failed`), each ' +
          'with its `id` (1, 2, 3…). From the start, or after the `Last-Event-ID` header (or `after`): a client ' +
          'that lost its connection resumes where it was, on any instance, without a repeated event. While the run ' +
          'goes on the stream follows it, and ends after its last event. A run whose instance stopped is taken over by ' +
          'another instance (docs/runs.md, "When an instance stops"): its readers then get `run.resumed` ' +
          '`{runId, id, text, completedSteps, takeovers}`, whose `text` (the reply so far) replaces what the deltas ' +
          'said, then the continuation and the real end. Events stay readable for ' +
          'AGENTD_RUN_EVENT_RETENTION_HOURS (24) after they were recorded; later, a finished run gives its outcome ' +
          'as one last event. Leaving the stream does not stop the run (POST …/cancel does). Scope: `agents:read`.',
        params: RunIdParams,
        querystring: RunEventsQuery,
        headers: RunEventsHeaders,
        response: {
          200: {
            description: 'An event stream.',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...problemResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const reading = clientAbortController(reply);
      const header = request.headers['last-event-id'];
      const afterSeq = header !== undefined ? Number(header) : (request.query.after ?? 0);
      const events = await openRunEvents({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        runId: request.params.runId,
        afterSeq,
        signal: reading.signal,
      });
      await streamRunEvents(reply, events, {
        signal: reading,
        keepAliveMs: options.keepAliveMs,
        shutdown: options.shutdown,
      });
      return reply;
    },
  );
}
