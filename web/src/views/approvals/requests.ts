import type { Agent, Approval, ApprovalList, DecideApprovalBody } from '../../../../src/client/types.js';
import { request } from '../../api.js';

export type { Approval, DecideApprovalBody };

/** What waits for a decision across the account's agents, newest first (GET /v1/approvals). */
export const listPendingApprovals = (cursor: string | undefined, signal?: AbortSignal) =>
  request<ApprovalList>('GET', '/v1/approvals', { query: { status: 'pending', limit: 50, cursor }, signal });

export const decideApproval = (approval: Approval, body: DecideApprovalBody) =>
  request<Approval>(
    'POST',
    `/v1/agents/${encodeURIComponent(approval.agentId)}/approvals/${encodeURIComponent(approval.id)}`,
    { body },
  );

const agentNames = new Map<string, Promise<string>>();

/**
 * The names of the agents a page of approvals names, one request per agent
 * not seen before (a page names few agents); an agent that cannot be read
 * is shown by its id.
 */
export async function namesOf(agentIds: string[]): Promise<Map<string, string>> {
  const distinct = [...new Set(agentIds)];
  for (const agentId of distinct) {
    if (!agentNames.has(agentId)) {
      agentNames.set(
        agentId,
        request<Agent>('GET', `/v1/agents/${encodeURIComponent(agentId)}`).then(
          (agent) => agent.name,
          () => agentId,
        ),
      );
    }
  }
  const names = await Promise.all(distinct.map((agentId) => agentNames.get(agentId) as Promise<string>));
  return new Map(distinct.map((agentId, index) => [agentId, names[index] as string]));
}
