import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { PlatformPostBody, PlatformPostParams, PlatformPostResult } from '../../schemas/platforms.js';
import type { PlatformRuntime } from '../../services/platforms/platform-runtime.js';
import { postPlatformText } from '../../services/platforms/post-text.js';

export function registerPostPlatformText(app: App, platforms: PlatformRuntime): void {
  app.post(
    '/v1/agents/:agentId/platforms/:type/posts',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'updateAgent', rateLimitPer: 'agent' } },
      schema: {
        operationId: 'postPlatformText',
        tags: ['platforms'],
        summary: 'Post a text now with one of the agent’s platforms',
        description:
          'Posts `text` to `target` with the agent’s connector of `type` (telegram, slack, discord, x, bluesky), ' +
          'as a task’s output is posted; answers `200` once the platform took it. The agent must be `active` and ' +
          'the entry enabled (`409` otherwise, and when the platform refuses the post, e.g. X’s daily cap of the ' +
          'entry, with its reason); the platform’s rate limit is a `429` with `Retry-After` until its reset. ' +
          'Posts are counted in `agentd_platform_posts_total` and recorded in the trail (`connector.posted`). ' +
          'Scope: `agents:write`.',
        params: PlatformPostParams,
        body: PlatformPostBody,
        response: { 200: PlatformPostResult, ...problemResponses(400, 404, 409) },
      },
    },
    async (request) =>
      postPlatformText({
        ctx: contextOf(request),
        platforms,
        agentId: request.params.agentId,
        type: request.params.type,
        input: request.body,
      }),
  );
}
