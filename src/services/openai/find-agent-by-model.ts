import { AppError, notFound } from '../../errors.js';
import { nameSortKey, type AgentRecord } from '../../storage/repositories/agents.js';
import { findOwnAgent } from '../agents/get-agent.js';
import type { ServiceContext } from '../context.js';

const namePrefix = 'agent:';
/** Agents read per step while looking through those whose names differ only in case. */
const namePageSize = 50;

/**
 * The agent an OpenAI `model` names: its id, or `agent:<name>` when exactly
 * one agent of the account has that name (compared exactly; two → 400, none → 404).
 * Anything else is a model this server does not have: 404, as OpenAI answers.
 */
export async function findAgentByModel(ctx: ServiceContext, model: string): Promise<AgentRecord> {
  if (!model.startsWith(namePrefix)) {
    if (!model.startsWith('agt_')) {
      throw new AppError(
        'not_found',
        `The model ${JSON.stringify(model.slice(0, 100))} does not exist: name an agent by its id or as agent:<name>.`,
      );
    }
    return findOwnAgent(ctx, model);
  }
  const name = model.slice(namePrefix.length);
  const key = nameSortKey(name);
  const matches: AgentRecord[] = [];
  // The name index orders by case-folded name, then id: the agents of this name are one contiguous range.
  let after = { key, id: '' };
  for (;;) {
    const page = await ctx.deps.repositories.agents.page({
      accountId: ctx.actor.accountId,
      sortBy: 'name',
      order: 'asc',
      limit: namePageSize,
      after,
    });
    const inRange = page.filter((agent) => nameSortKey(agent.name) === key);
    matches.push(...inRange.filter((agent) => agent.name === name));
    if (matches.length > 1) {
      throw new AppError('validation_failed', `More than one agent is named ${JSON.stringify(name)}; use its id.`, {
        errors: [{ path: '/body/model', message: 'names more than one agent' }],
      });
    }
    const last = page.at(-1);
    if (inRange.length < page.length || last === undefined || page.length < namePageSize) break;
    after = { key, id: last.id };
  }
  const [found] = matches;
  if (found === undefined) throw notFound('Agent');
  return found;
}
