/**
 * What the clients saw acknowledged (a 2xx received in full), and the one
 * write per agent whose answer a kill cut off. Each agent is written by one
 * client at a time, so its acknowledged writes are ordered and the last one
 * is what must be visible.
 */

/** The fields the load writes and the checks compare. */
export interface AgentFields {
  name: string;
  bio: string[];
  knowledge: string[];
  metadata: Record<string, string>;
  status: string;
}

export interface CreateBody {
  name: string;
  bio: string[];
  knowledge: string[];
  metadata: Record<string, string>;
}

export interface AcknowledgedReply {
  replyId: string;
  userId: string;
  userText: string;
  replyText: string;
  createdAt: string;
  /** The size of the image sent with the message, when one was. */
  imageBytes: number | null;
}

/** A write sent without an answer received: it may or may not have happened, but must be whole. */
export type PendingWrite =
  { kind: 'patch'; fields: AgentFields } | { kind: 'delete' } | { kind: 'message'; userId: string; userText: string };

export interface AgentExpectation {
  id: string;
  /** The last acknowledged state (from the create's or the last PATCH's answer, or seen after a restart). */
  fields: AgentFields;
  deleted: boolean;
  pending: PendingWrite | null;
  idempotency: { key: string; body: CreateBody } | null;
  replies: AcknowledgedReply[];
}

/** A create with an Idempotency-Key whose answer a kill cut off: replayed after the restart. */
export interface UnansweredIdempotentCreate {
  key: string;
  body: CreateBody;
}

export class AcknowledgedLedger {
  readonly agents = new Map<string, AgentExpectation>();
  readonly unansweredCreates: UnansweredIdempotentCreate[] = [];
  /** Acknowledged writes by kind, over the whole run. */
  readonly acknowledged = { creates: 0, patches: 0, messages: 0, deletes: 0, replays: 0 };

  created(agentId: string, fields: AgentFields, idempotency: AgentExpectation['idempotency']): AgentExpectation {
    const expectation: AgentExpectation = {
      id: agentId,
      fields,
      deleted: false,
      pending: null,
      idempotency,
      replies: [],
    };
    this.agents.set(agentId, expectation);
    this.acknowledged.creates += 1;
    return expectation;
  }

  get total(): number {
    const { creates, patches, messages, deletes, replays } = this.acknowledged;
    return creates + patches + messages + deletes + replays;
  }
}

export function fieldsOf(agent: {
  name: string;
  bio: string[];
  knowledge: unknown[];
  metadata: Record<string, string>;
  status: string;
}): AgentFields {
  return {
    name: agent.name,
    bio: agent.bio,
    knowledge: agent.knowledge as string[],
    metadata: agent.metadata,
    status: agent.status,
  };
}

export function sameFields(left: AgentFields, right: AgentFields): boolean {
  return canonical(left) === canonical(right);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
