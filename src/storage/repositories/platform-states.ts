import type { Executor } from '../schema.js';

export type PlatformState = 'running' | 'stopped' | 'error' | 'unsupported';

export interface PlatformStateRecord {
  agentId: string;
  type: string;
  state: PlatformState;
  reason: string | null;
  lastEventAt: string | null;
  holder: string | null;
}

/** Positions are stored as fixed-width decimal text, so that text order is number order on both dialects. */
const positionWidth = 20;
const encodePosition = (position: number) => String(position).padStart(positionWidth, '0');

/**
 * The reported state of each agent's connectors and their durable positions,
 * plus the two reads the supervisor needs from the agents and their trail:
 * which agents have platforms at all, and which agents changed lately.
 */
export class PlatformStateRepository {
  constructor(private readonly db: Executor) {}

  async list(agentId: string): Promise<PlatformStateRecord[]> {
    const rows = await this.db.selectFrom('platform_states').selectAll().where('agent_id', '=', agentId).execute();
    return rows.map((row) => ({
      agentId: row.agent_id,
      type: row.type,
      state: row.state as PlatformState,
      reason: row.reason,
      lastEventAt: row.last_event_at,
      holder: row.holder,
    }));
  }

  /** Writes the state; resolves with the state it replaced (null when there was none). */
  async setState(record: Omit<PlatformStateRecord, 'lastEventAt'>, updatedAt: string): Promise<PlatformState | null> {
    return this.db.transaction().execute(async (transaction) => {
      const previous = await transaction
        .selectFrom('platform_states')
        .select('state')
        .where('agent_id', '=', record.agentId)
        .where('type', '=', record.type)
        .executeTakeFirst();
      await transaction
        .insertInto('platform_states')
        .values({
          agent_id: record.agentId,
          type: record.type,
          state: record.state,
          reason: record.reason,
          holder: record.holder,
          last_event_at: null,
          position: null,
          updated_at: updatedAt,
        })
        .onConflict((conflict) =>
          conflict.columns(['agent_id', 'type']).doUpdateSet({
            state: record.state,
            reason: record.reason,
            holder: record.holder,
            updated_at: updatedAt,
          }),
        )
        .execute();
      return (previous?.state as PlatformState | undefined) ?? null;
    });
  }

  /** Creates the connector's row (state `stopped`) unless it exists. */
  async ensure(agentId: string, type: string, updatedAt: string): Promise<void> {
    await this.db
      .insertInto('platform_states')
      .values({
        agent_id: agentId,
        type,
        state: 'stopped',
        reason: null,
        holder: null,
        last_event_at: null,
        position: null,
        updated_at: updatedAt,
      })
      .onConflict((conflict) => conflict.columns(['agent_id', 'type']).doNothing())
      .execute();
  }

  async markEvent(agentId: string, type: string, at: string): Promise<void> {
    await this.db
      .updateTable('platform_states')
      .set({ last_event_at: at })
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .execute();
  }

  /** The last position taken, or null when none was. */
  async position(agentId: string, type: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('platform_states')
      .select('position')
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .executeTakeFirst();
    return row?.position ? Number(row.position) : null;
  }

  /**
   * Moves the position forward to `position` unless it is there already: true
   * for exactly one caller, so two instances that both saw the same update
   * (a lease lost while a poll was in flight) never both handle it.
   */
  async claimPosition(agentId: string, type: string, position: number): Promise<boolean> {
    const encoded = encodePosition(position);
    const result = await this.db
      .updateTable('platform_states')
      .set({ position: encoded })
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where((where) => where.or([where('position', 'is', null), where('position', '<', encoded)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteForAgent(agentId: string): Promise<void> {
    await this.db.deleteFrom('platform_states').where('agent_id', '=', agentId).execute();
  }

  /**
   * Agents whose profile lists at least one platform. A scan of the agents
   * table, run only by the supervisor's periodic reconcile (not per request).
   */
  async agentsWithPlatforms(): Promise<Array<{ agentId: string; accountId: string }>> {
    const rows = await this.db
      .selectFrom('agents')
      .select(['id', 'account_id'])
      .where('profile', 'like', '%"platforms":[{%')
      .execute();
    return rows.map((row) => ({ agentId: row.id, accountId: row.account_id }));
  }

  async accountOf(agentId: string): Promise<string | null> {
    const row = await this.db.selectFrom('agents').select('account_id').where('id', '=', agentId).executeTakeFirst();
    return row?.account_id ?? null;
  }

  /**
   * Trail entries (every create, update, status change and delete writes one in
   * its own transaction) with ids after `afterId`: how a change made on any
   * instance reaches this one's supervisor.
   */
  async changesAfter(afterId: string, limit = 500): Promise<Array<{ id: string; agentId: string; accountId: string }>> {
    const rows = await this.db
      .selectFrom('agent_events')
      .select(['id', 'agent_id', 'account_id'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, agentId: row.agent_id, accountId: row.account_id }));
  }
}
