import { AppError, notFound, validationError } from '../../errors.js';
import { PlatformPostFailed } from '../../platforms/platform.js';
import type { PlatformPostBodyValue, PlatformPostResultView } from '../../schemas/platforms.js';
import { isoTime } from '../../clock.js';
import { outputPlatforms } from '../../schemas/tasks.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { ensureAnswering } from '../messages/agent-availability.js';
import { postToPlatform } from '../tasks/task-output.js';
import type { PlatformRuntime } from './platform-runtime.js';

/**
 * Posts a text now with the agent's connector of `type`, as a task's output
 * is posted: the entry must be there and enabled, the agent active. The
 * platform's refusal is a 409 with its reason (never a secret), its rate
 * limit a 429 with `Retry-After` until its reset.
 */
export async function postPlatformText({
  ctx,
  platforms,
  agentId,
  type,
  input,
}: {
  ctx: ServiceContext;
  platforms: PlatformRuntime;
  agentId: string;
  type: string;
  input: PlatformPostBodyValue;
}): Promise<PlatformPostResultView> {
  requireScope(ctx, 'agents:write');
  const agent = await findOwnAgent(ctx, agentId);
  const entry = agent.profile.platforms.find((platform) => platform.type === type);
  if (entry === undefined) throw notFound(`Platform ${type} of agent ${agent.id}`);
  const definition = ctx.deps.platforms.catalog.definitionOf(type);
  if (definition?.postText === undefined || !(outputPlatforms as readonly string[]).includes(type)) {
    throw validationError('/params/type', `cannot post on its own; use one of ${outputPlatforms.join(', ')}`);
  }
  if (!entry.enabled) throw new AppError('conflict', `The ${type} platform of agent ${agent.id} is disabled.`);
  if (agent.status !== 'active') await ensureAnswering(ctx, agent);
  const controller = new AbortController();
  try {
    await postToPlatform(
      ctx.deps,
      platforms,
      { accountId: agent.accountId, agentId: agent.id },
      { type: 'platform', platform: type as (typeof outputPlatforms)[number], target: input.target },
      input.text,
      controller.signal,
    );
  } catch (error) {
    if (error instanceof PlatformPostFailed && error.kind === 'rate_limited') {
      const seconds = Math.max(
        1,
        Math.ceil(((error.retryAt ?? ctx.deps.clock.now() + 60_000) - ctx.deps.clock.now()) / 1000),
      );
      throw new AppError('rate_limited', `${type}: ${error.message}`, { headers: { 'retry-after': String(seconds) } });
    }
    // Connectors describe their failures without secrets (the platform's own reason, or that it is unreachable).
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError('conflict', `The ${type} platform did not take the post: ${reason}`);
  }
  return { platform: type, target: input.target, postedAt: isoTime(ctx.deps.clock.now()) };
}
