import type { agentEventTypes } from '../../schemas/events.js';
import type { Database, Executor } from '../schema.js';

/** The trail's event types: the list the API publishes (schemas/events.ts), not a second copy of it. */
export type AgentEventType = (typeof agentEventTypes)[number];

export interface AgentEventRecord {
  id: string;
  accountId: string;
  agentId: string;
  type: AgentEventType;
  data: Record<string, unknown>;
  actor: string;
  requestId: string | null;
  createdAt: string;
}

type AgentEventRow = Database['agent_events'];

function toRecord(row: AgentEventRow): AgentEventRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    agentId: row.agent_id,
    type: row.type as AgentEventType,
    data: JSON.parse(row.data) as Record<string, unknown>,
    actor: row.actor,
    requestId: row.request_id,
    createdAt: row.created_at,
  };
}

export interface AgentEventPageQuery {
  accountId: string;
  /** One agent's trail; absent: every agent of the account. */
  agentId?: string;
  type?: AgentEventType;
  limit: number;
  /** Keyset position: events strictly older than this id. */
  beforeId?: string;
}

/**
 * The trail of each agent. Ids are ULIDs, so id order is the order the
 * changes were made and "newest first" is a descending scan of
 * (account, agent, id), or of (account, id) and (account, type, id) for the
 * whole account (0018). Callers pass their transaction to `insert`: an event
 * exists exactly when its change committed.
 */
export class AgentEventRepository {
  constructor(private readonly db: Executor) {}

  async insert(event: AgentEventRecord, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('agent_events')
      .values({
        id: event.id,
        account_id: event.accountId,
        agent_id: event.agentId,
        type: event.type,
        data: JSON.stringify(event.data),
        actor: event.actor,
        request_id: event.requestId,
        created_at: event.createdAt,
      })
      .execute();
  }

  async page(query: AgentEventPageQuery, executor: Executor = this.db): Promise<AgentEventRecord[]> {
    let builder = executor.selectFrom('agent_events').selectAll().where('account_id', '=', query.accountId);
    if (query.agentId !== undefined) builder = builder.where('agent_id', '=', query.agentId);
    if (query.type !== undefined) builder = builder.where('type', '=', query.type);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    const rows = await builder.orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(toRecord);
  }

  /** When the account's agent was deleted, or null when its trail holds no deletion. */
  async deletedAt(accountId: string, agentId: string, executor: Executor = this.db): Promise<string | null> {
    const row = await executor
      .selectFrom('agent_events')
      .select('created_at')
      .where('account_id', '=', accountId)
      .where('agent_id', '=', agentId)
      .where('type', '=', 'agent.deleted')
      .executeTakeFirst();
    return row?.created_at ?? null;
  }

  /** Removes the whole trail of every agent deleted before `cutoff`; the number of events removed. */
  async pruneDeletedBefore(cutoff: string, executor: Executor = this.db): Promise<number> {
    const result = await executor
      .deleteFrom('agent_events')
      .where(
        'agent_id',
        'in',
        executor
          .selectFrom('agent_events')
          .select('agent_id')
          .where('type', '=', 'agent.deleted')
          .where('created_at', '<', cutoff),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
