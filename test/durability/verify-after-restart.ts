import { fieldsOf, sameFields, type AcknowledgedLedger, type AgentExpectation } from './acknowledged-ledger.js';
import type { AgentdClient } from './agentd-client.js';

export interface Verification {
  /** Acknowledged writes looked at (an agent's state, a delete, a reply, an idempotency key). */
  checked: number;
  /** Acknowledged writes that are not there, or not as acknowledged. */
  lost: string[];
  /** Cut-off creates with an Idempotency-Key whose replay answered 409 (an abandoned claim, not yet taken over). */
  abandonedClaims: number;
}

interface Turn {
  id: string;
  role: 'user' | 'agent';
  text: string;
  createdAt: string;
  attachments?: Array<{ fileId: string; url: string; sizeBytes: number }>;
}

async function history(client: AgentdClient, agentId: string, userId: string): Promise<Turn[] | string> {
  const turns: Turn[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ userId, limit: '100', ...(cursor ? { cursor } : {}) });
    const answer = await client.request('GET', `/v1/agents/${agentId}/messages?${query}`);
    if (answer.status !== 200) return `history of ${agentId} answered ${answer.status}`;
    turns.push(...(answer.body.data as Turn[]));
    cursor = answer.body.pagination.nextCursor;
  } while (cursor !== null);
  return turns;
}

/**
 * After a restart, through the API: every acknowledged write is there as
 * acknowledged, unless a later acknowledged write replaced it. The write a
 * kill cut off may have happened or not; what is seen becomes the expectation
 * from here on (it is committed now).
 */
export async function verifyAcknowledged(
  client: AgentdClient,
  ledger: AcknowledgedLedger,
  owners: Map<string, number>,
  adoptOwner: () => number,
): Promise<Verification> {
  const result: Verification = { checked: 0, lost: [], abandonedClaims: 0 };
  for (const agent of ledger.agents.values()) await verifyAgent(client, agent, result);

  for (const agent of ledger.agents.values()) {
    if (agent.idempotency === null) continue;
    result.checked += 1;
    const answer = await client.request('POST', '/v1/agents', agent.idempotency.body, {
      'idempotency-key': agent.idempotency.key,
    });
    if (answer.status !== 201 || answer.body.id !== agent.id || answer.headers.get('idempotent-replayed') !== 'true') {
      result.lost.push(
        `replay of Idempotency-Key ${agent.idempotency.key} (agent ${agent.id}) answered ${answer.status} ` +
          `${answer.body?.id ?? answer.body?.code} replayed=${answer.headers.get('idempotent-replayed')}`,
      );
    }
  }

  for (const unanswered of ledger.unansweredCreates.splice(0)) {
    const answer = await client.request('POST', '/v1/agents', unanswered.body, {
      'idempotency-key': unanswered.key,
    });
    if (answer.status === 409 && answer.body.code === 'idempotency_in_progress') {
      result.abandonedClaims += 1;
    } else if (answer.status === 201) {
      owners.set(answer.body.id, adoptOwner());
      ledger.created(answer.body.id, fieldsOf(answer.body), unanswered);
      ledger.acknowledged.creates -= 1; // adopted, not acknowledged before the kill
    } else {
      result.lost.push(`replay of cut-off create ${unanswered.key} answered ${answer.status}`);
    }
  }
  return result;
}

async function verifyAgent(client: AgentdClient, agent: AgentExpectation, result: Verification): Promise<void> {
  const answer = await client.request('GET', `/v1/agents/${agent.id}`);
  const pending = agent.pending;
  agent.pending = null;
  if (agent.deleted) {
    result.checked += 1;
    if (answer.status !== 404) result.lost.push(`acknowledged delete of ${agent.id}: GET answered ${answer.status}`);
    return;
  }
  if (answer.status === 404 && pending?.kind === 'delete') {
    agent.deleted = true;
    return;
  }
  result.checked += 1;
  if (answer.status !== 200) {
    result.lost.push(`acknowledged agent ${agent.id}: GET answered ${answer.status}`);
    return;
  }
  const seen = fieldsOf(answer.body);
  const acceptable = sameFields(seen, agent.fields) || (pending?.kind === 'patch' && sameFields(seen, pending.fields));
  if (!acceptable) {
    result.lost.push(
      `agent ${agent.id} is ${JSON.stringify(seen)}, acknowledged as ${JSON.stringify(agent.fields)}` +
        (pending?.kind === 'patch' ? ` (or cut-off patch ${JSON.stringify(pending.fields)})` : ''),
    );
  }
  agent.fields = seen;

  if (agent.replies.length === 0) return;
  const turns = await history(client, agent.id, agent.replies[0]!.userId);
  if (typeof turns === 'string') {
    result.lost.push(turns);
    return;
  }
  const byId = new Map(turns.map((turn) => [turn.id, turn]));
  for (const reply of agent.replies) {
    result.checked += 1;
    const turn = byId.get(reply.replyId);
    if (turn === undefined || turn.role !== 'agent' || turn.text !== reply.replyText) {
      result.lost.push(
        `acknowledged reply ${reply.replyId} of ${agent.id}: ${turn ? JSON.stringify(turn) : 'missing'}`,
      );
      continue;
    }
    const question = turns.find(
      (candidate) =>
        candidate.role === 'user' && candidate.text === reply.userText && candidate.createdAt === reply.createdAt,
    );
    if (question === undefined) {
      result.lost.push(`acknowledged reply ${reply.replyId} of ${agent.id} without its user turn`);
      continue;
    }
    const attachments = question.attachments ?? [];
    if (reply.imageBytes === null) continue;
    const attachment = attachments[0];
    if (attachments.length !== 1 || attachment!.sizeBytes !== reply.imageBytes) {
      result.lost.push(`the image sent with ${reply.replyId} of ${agent.id}: ${JSON.stringify(attachments)}`);
      continue;
    }
    const file = await client.download(attachment!.url);
    if (file.status !== 200 || file.bytes !== reply.imageBytes) {
      result.lost.push(
        `the image sent with ${reply.replyId} of ${agent.id}: ${attachment!.url} answered ${file.status}, ` +
          `${file.bytes} of ${reply.imageBytes} bytes`,
      );
    }
  }
}
