import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { PluginList } from '../../schemas/plugins.js';
import { listPlugins } from '../../services/plugins.js';

export function registerListPlugins(app: App): void {
  app.get(
    '/v1/plugins',
    {
      config: { operation: { scope: null, rateLimit: 'listPlugins', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listPlugins',
        tags: ['plugins'],
        summary: 'List the plugins this server offers',
        description:
          "An agent's `plugins` entries name one of these; `config` is checked against its `configSchema` and `secrets` " +
          'against its `secretsSchema` on create and PATCH (400 `validation_failed` with the JSON pointer of each problem); ' +
          'some plugins check further then: `openapi` reads, validates and dereferences its document (fetching a `url`), ' +
          '`http` checks that every secret its `secretHeaders` names is set. ' +
          'Each enabled plugin gives the model tools it may call while answering. Any valid key may read this list.',
        response: { 200: PluginList, ...problemResponses() },
      },
    },
    async (request) => listPlugins({ ctx: contextOf(request) }),
  );
}
