import type { ModelListView, ModelViewValue } from '../../schemas/openai.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findAgentByModel } from './find-agent-by-model.js';

/**
 * The most agents `GET /v1/models` lists (the newest): OpenAI's models list has
 * no pages, and clients read it whole to fill a picker.
 */
export const modelListLimit = 1000;

function toModel(agent: AgentRecord): ModelViewValue {
  return {
    id: agent.id,
    object: 'model',
    created: Math.floor(Date.parse(agent.createdAt) / 1000),
    owned_by: 'agentd',
  };
}

/** The account's agents as OpenAI models, newest first. */
export async function listModels({ ctx }: { ctx: ServiceContext }): Promise<ModelListView> {
  requireScope(ctx, 'agents:read');
  const agents = await ctx.deps.repositories.agents.page({
    accountId: ctx.actor.accountId,
    sortBy: 'createdAt',
    order: 'desc',
    limit: modelListLimit,
  });
  return { object: 'list', data: agents.map(toModel) };
}

export async function getModel({ ctx, model }: { ctx: ServiceContext; model: string }): Promise<ModelViewValue> {
  requireScope(ctx, 'agents:read');
  return toModel(await findAgentByModel(ctx, model));
}
