import type { AcknowledgedLedger } from '../durability/acknowledged-ledger.js';
import type { AgentdClient, Answer } from '../durability/agentd-client.js';
import type { FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { waitFor } from '../helpers/wait.js';

export interface DeliveryCheck {
  /** Events the acknowledged writes must have produced. */
  expected: number;
  /** Distinct events (webhook-ids) received. */
  received: number;
  /** Requests that repeated an event already received (at least once delivery allows them). */
  repeats: number;
  problems: string[];
}

interface ReceivedEvent {
  id: string;
  type: string;
  data: Record<string, any>;
}

/**
 * The webhook side of the fleet run, once the load has ended: every delivery
 * finishes within its bound; every event is delivered with one payload under
 * one webhook-id, however often; every acknowledged create, patch, delete and
 * reply has its event; and every event received names a change that is there
 * (an agent that exists or whose deletion was delivered too, a reply in its
 * conversation), so no event of a change that rolled back went out.
 */
export async function checkDeliveries(options: {
  client: AgentdClient;
  steady: (method: string, path: string, body?: unknown) => Promise<Answer>;
  query: (text: string, values?: unknown[]) => Promise<any[]>;
  receiver: FakeWebhookReceiver;
  secret: string;
  ledger: AcknowledgedLedger;
  boundMs: number;
}): Promise<DeliveryCheck> {
  const { receiver, ledger, steady } = options;
  const problems: string[] = [];
  const unfinished = () =>
    options.query("select id, event_id, state from webhook_deliveries where state <> 'succeeded'");
  await waitFor(async () => (await unfinished()).length === 0, options.boundMs, 200);
  for (const row of await unfinished()) problems.push(`delivery ${row.id} of ${row.event_id} is ${row.state}`);

  const events = new Map<string, ReceivedEvent>();
  const bodies = new Map<string, string>();
  let repeats = 0;
  for (const request of receiver.received) {
    const id = String(request.headers['webhook-id']);
    let payload: { type: string; data: Record<string, any> };
    try {
      payload = receiver.verify(request, options.secret);
    } catch (error) {
      problems.push(`event ${id}: signature does not verify (${(error as Error).message})`);
      continue;
    }
    const earlier = bodies.get(id);
    if (earlier !== undefined) {
      repeats += 1;
      if (earlier !== request.body) problems.push(`event ${id} was repeated with another payload`);
      continue;
    }
    bodies.set(id, request.body);
    events.set(id, { id, type: payload.type, data: payload.data });
  }
  for (const row of await options.query('select distinct event_id from webhook_deliveries')) {
    if (!events.has(row.event_id)) problems.push(`event ${row.event_id} is in the outbox but was never received`);
  }

  const byType = (type: string) => [...events.values()].filter((event) => event.type === type);
  const created = new Set(byType('agent.created').map((event) => event.data.agentId as string));
  const deleted = new Set(byType('agent.deleted').map((event) => event.data.agentId as string));
  const replies = new Set(byType('message.completed').map((event) => event.data.messageId as string));
  let expected = 0;
  for (const agent of ledger.agents.values()) {
    expected += 1;
    if (!created.has(agent.id)) problems.push(`agent.created of ${agent.id} was never delivered`);
    if (agent.deleted) {
      expected += 1;
      if (!deleted.has(agent.id)) problems.push(`agent.deleted of ${agent.id} was never delivered`);
    }
    for (const reply of agent.replies) {
      expected += 1;
      if (!replies.has(reply.replyId)) problems.push(`message.completed of reply ${reply.replyId} was never delivered`);
    }
  }
  const updates = byType('agent.updated').filter((event) => ledger.agents.has(event.data.agentId)).length;
  expected += ledger.acknowledged.patches;
  if (updates < ledger.acknowledged.patches) {
    problems.push(`${ledger.acknowledged.patches} acknowledged patches, only ${updates} agent.updated events`);
  }

  // Nothing of what did not commit: each created agent is there, or its deletion was delivered too.
  for (const agentId of created) {
    if (deleted.has(agentId)) continue;
    const answer = await steady('GET', `/v1/agents/${agentId}`);
    if (answer.status !== 200) problems.push(`agent.created of ${agentId}, which does not exist (${answer.status})`);
  }
  // …and each delivered reply is in its conversation, unless its agent was deleted since.
  const acknowledgedReplies = new Set(
    [...ledger.agents.values()].flatMap((agent) => agent.replies.map((reply) => reply.replyId)),
  );
  const conversations = new Map<string, Set<string> | null>();
  for (const event of byType('message.completed')) {
    const { agentId, messageId, userId, roomId } = event.data;
    if (acknowledgedReplies.has(messageId) || deleted.has(agentId)) continue;
    const scope = userId ? `userId=${encodeURIComponent(userId)}` : `roomId=${encodeURIComponent(roomId)}`;
    const conversationKey = `${agentId}?${scope}`;
    if (!conversations.has(conversationKey)) conversations.set(conversationKey, await history(steady, agentId, scope));
    const turns = conversations.get(conversationKey);
    if (turns === null) continue; // the agent was deleted without an acknowledged answer
    if (!turns!.has(messageId)) problems.push(`message.completed of ${messageId}, which is not in its conversation`);
  }
  return { expected, received: events.size, repeats, problems };
}

async function history(
  steady: (method: string, path: string) => Promise<Answer>,
  agentId: string,
  scope: string,
): Promise<Set<string> | null> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const answer = await steady(
      'GET',
      `/v1/agents/${agentId}/messages?${scope}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (answer.status === 404) return null;
    if (answer.status !== 200)
      throw new Error(`history of ${agentId}: ${answer.status} ${JSON.stringify(answer.body)}`);
    for (const turn of answer.body.data as Array<{ id: string }>) ids.add(turn.id);
    cursor = answer.body.pagination.nextCursor;
  } while (cursor !== null);
  return ids;
}
