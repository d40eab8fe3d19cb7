import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { CreateEvalBody, EvalSummarySchema } from '../../schemas/evals.js';
import { createEval } from '../../services/evals/evals.js';

export function registerCreateEval(app: App): void {
  app.post(
    '/v1/agents/:agentId/evals',
    {
      config: { operation: { scope: 'messages:send', rateLimit: 'writeEvals', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createEval',
        tags: ['evals'],
        summary: 'Evaluate an agent on a dataset',
        description:
          'Answers every case of the dataset with one version of the agent, or two to compare (default: the current ' +
          'one), in the background, and scores each reply. Each reply is a run (trigger `eval`) produced by the ' +
          "normal reply path with that version's configuration, isolated: a conversation of its own deleted once " +
          'the case is answered, memory off, no message webhooks, nothing posted to platforms, and tools with side ' +
          'effects not run (the model reads `{"stubbed": true, "reason": "not executed in an eval"}`) unless the ' +
          "case allows them. Replies count against the agent's spend limits and wait for its in-flight slots. " +
          "`rubric` scorers ask the judge (default: the agent's own model). Answers 202 with the eval, `queued`; " +
          'follow it with GET …/evals/{evalId}; `eval.completed` is sent to webhooks when it ends. A dataset or ' +
          'version that does not exist, or a judge whose provider is not enabled, is 400; a version that needs a ' +
          'secret the agent no longer holds, or a provider this server does not enable, is 409. Scope: `messages:send`.',
        params: AgentIdParams,
        body: CreateEvalBody,
        response: { 202: EvalSummarySchema, ...problemResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const created = await createEval({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        input: request.body,
      });
      return reply.status(202).header('location', `/v1/agents/${created.agentId}/evals/${created.id}`).send(created);
    },
  );
}
