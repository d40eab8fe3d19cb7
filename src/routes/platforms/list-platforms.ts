import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { PlatformTypeList } from '../../schemas/platforms.js';
import { listPlatformTypes } from '../../services/platforms/list-platforms.js';

export function registerListPlatforms(app: App): void {
  app.get(
    '/v1/platforms',
    {
      // Counted with the plugin list: both are small, static catalogs read when configuring agents.
      config: { operation: { scope: null, rateLimit: 'listPlugins', rateLimitPer: 'account' } },
      schema: {
        operationId: 'listPlatforms',
        tags: ['platforms'],
        summary: 'List the platform connectors this server runs',
        description:
          "An agent's `platforms` entries of these types are run by the service while the agent is `active` and the " +
          'entry `enabled`; `settings` and `secrets` are checked against the schemas here on create and PATCH (400 ' +
          '`validation_failed` with the JSON pointer of each problem). Entries of other types are stored and reported ' +
          '`unsupported`. Any valid key may read this list.',
        response: { 200: PlatformTypeList, ...problemResponses() },
      },
    },
    async (request) => listPlatformTypes({ ctx: contextOf(request) }),
  );
}
