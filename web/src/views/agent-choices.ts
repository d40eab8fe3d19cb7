import { api, type Agent } from '../api.js';

/** How many agents a picker offers: one page of the agents list, by name. */
export const agentChoiceLimit = 100;

/** The agents a picker offers (the first page by name), for the filters and the export of these views. */
export async function loadAgentChoices(signal?: AbortSignal): Promise<{ agents: Agent[]; more: boolean }> {
  const page = await api.listAgents({ limit: agentChoiceLimit, sortBy: 'name', order: 'asc' }, signal);
  return { agents: page.data, more: page.pagination.hasMore };
}
