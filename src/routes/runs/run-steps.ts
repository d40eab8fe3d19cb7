import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { RunStepParams, RunStepPrompt, RunSteps } from '../../schemas/run-steps.js';
import { RunIdParams } from '../../schemas/runs.js';
import { getRunStepPrompt, listRunSteps } from '../../services/runs/run-steps.js';

export function registerRunSteps(app: App): void {
  app.get(
    '/v1/agents/:agentId/runs/:runId/steps',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listRunSteps',
        tags: ['runs'],
        summary: "List a run's steps",
        description:
          'What the run did, in order (docs/runs.md, "A run\'s steps"): each model step (model, finish reason, ' +
          'tokens in, out and cached, time to first token and to end, retries, the tool calls asked for, and the ' +
          "prompt's sections with their estimated tokens against `contextTokens`, the model's window), each tool " +
          'call (input, output or error, duration, approval), each approval the run paused for and its decision, ' +
          'and, for a run that went on after decisions (trigger `approval`), where it resumed. Steps are recorded ' +
          'as the run goes and kept as long as its events (`AGENTD_RUN_EVENT_RETENTION_HOURS`, 24 h by default); ' +
          'a run whose steps are gone (or recorded before steps were) shows what its reply holds. ' +
          'Tool outputs are masked as in replies. Scope: `agents:read`.',
        params: RunIdParams,
        response: { 200: RunSteps, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      listRunSteps({ ctx: contextOf(request), agentId: request.params.agentId, runId: request.params.runId }),
  );
  app.get(
    '/v1/agents/:agentId/runs/:runId/steps/:index/prompt',
    {
      config: { operation: { scope: 'agents:read', rateLimit: 'readRuns', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getRunStepPrompt',
        tags: ['runs'],
        summary: 'Get the prompt a model step was sent',
        description:
          'The prompt of one model step (`index` from GET …/steps) as the provider received it: the system prompt, ' +
          'every message in order (history, the notes of this message — knowledge, recalled turns, context — and ' +
          "the user's text, then this reply's earlier tool rounds), and the tools offered; with its sections and " +
          'their estimated tokens. Tool outputs in it are masked as stored; images are counted, not repeated. 404 ' +
          'for a step that is not a model step or whose prompt was not recorded. Scope: `agents:read` of the ' +
          "run's account.",
        params: RunStepParams,
        response: { 200: Type.Ref(RunStepPrompt), ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      getRunStepPrompt({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        runId: request.params.runId,
        index: request.params.index,
      }),
  );
}
