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
const encodePosition = (position: number | string) => String(position).padStart(positionWidth, '0');

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
   * The last position taken as decimal text without its padding: ids past
   * 2^53 (X's post ids) keep every digit.
   */
  async positionText(agentId: string, type: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('platform_states')
      .select('position')
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .executeTakeFirst();
    return row?.position ? row.position.replace(/^0+(?=[0-9])/, '') : null;
  }

  /**
   * Moves the position forward to `position` (a number, or a non-negative
   * decimal integer of up to 20 digits as text) unless it is there already:
   * true when it moved. The position only says where the next read starts;
   * what was answered is recorded per item (platform-items.ts).
   */
  async claimPosition(agentId: string, type: string, position: number | string): Promise<boolean> {
    if (typeof position === 'string' && !/^[0-9]{1,20}$/.test(position)) {
      throw new Error('a position is a decimal integer of up to 20 digits');
    }
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
    await this.db.deleteFrom('platform_items').where('agent_id', '=', agentId).execute();
    await this.db.deleteFrom('platform_daily_posts').where('agent_id', '=', agentId).execute();
  }

  /**
   * Counts one post of the connector on `day` unless `cap` were passed: true
   * when the post may be made. One conditional update after an insert that
   * does nothing when the day's row exists, so instances never exceed the cap together.
   */
  async takeDailyPost(agentId: string, type: string, day: string, cap: number): Promise<boolean> {
    const started = await this.db
      .insertInto('platform_daily_posts')
      .values({ agent_id: agentId, type, day, posts: 0 })
      .onConflict((conflict) => conflict.columns(['agent_id', 'type', 'day']).doNothing())
      .executeTakeFirst();
    if (Number(started.numInsertedOrUpdatedRows ?? 0n) > 0) {
      // A new day began: earlier days are of no use any more.
      await this.db
        .deleteFrom('platform_daily_posts')
        .where('agent_id', '=', agentId)
        .where('type', '=', type)
        .where('day', '<', day)
        .execute();
    }
    const result = await this.db
      .updateTable('platform_daily_posts')
      .set((eb) => ({ posts: eb('posts', '+', 1) }))
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where('day', '=', day)
      .where('posts', '<', cap)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
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
