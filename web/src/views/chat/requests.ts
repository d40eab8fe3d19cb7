import type { Approval, DecideApprovalBody } from '../../../../src/client/types.js';
import { request } from '../../api.js';
import { hrefOf } from '../../route.js';
import { knowledgeApi } from '../knowledge/requests.js';

export type { Approval, DecideApprovalBody };

const approvalPath = (agentId: string, approvalId: string) =>
  `/v1/agents/${encodeURIComponent(agentId)}/approvals/${encodeURIComponent(approvalId)}`;

/** POST …/approvals/{approvalId}: the answer names the resumed run once every call of the paused run is decided. */
export const decideApproval = (agentId: string, approvalId: string, body: DecideApprovalBody) =>
  request<Approval>('POST', approvalPath(agentId, approvalId), { body });

export const getApproval = (agentId: string, approvalId: string) =>
  request<Approval>('GET', approvalPath(agentId, approvalId));

/** The dashboard's page of one run (its timeline). */
export const runHref = (agentId: string, runId: string) => hrefOf({ name: 'run', agentId, runId });

const baseNames = new Map<string, Promise<string | null>>();

/**
 * The name of a knowledge base a citation names, read once per base for the
 * page's life (a reply cites few bases); null when it cannot be read (it was
 * deleted since), and the citation then shows without it. A failure is not
 * kept: the next reply that cites the base asks again.
 */
export function knowledgeBaseName(knowledgeBaseId: string): Promise<string | null> {
  let name = baseNames.get(knowledgeBaseId);
  if (!name) {
    name = knowledgeApi.get(knowledgeBaseId).then(
      (base) => base.name,
      () => {
        baseNames.delete(knowledgeBaseId);
        return null;
      },
    );
    baseNames.set(knowledgeBaseId, name);
  }
  return name;
}
