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

/** An item a connector took and has not answered yet, as `retakePendingItems` hands it over. */
export interface PendingItem {
  itemId: string;
  /** The item as the connector stored it with its take. */
  pending: string;
  /** Pollers that took it, this one included. */
  attempts: number;
  /** When it was first taken (ISO 8601). */
  takenAt: string;
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
   * true for exactly one caller, so two instances that both saw the same
   * update (a lease lost while a poll was in flight) never both handle it.
   * `pending` is the item taken there, kept until `settlePosition` (or
   * replaced by the next claim): whoever takes the connector over after a
   * crash finds it with `retakePending`.
   */
  async claimPosition(agentId: string, type: string, position: number | string, pending?: string): Promise<boolean> {
    if (typeof position === 'string' && !/^[0-9]{1,20}$/.test(position)) {
      throw new Error('a position is a decimal integer of up to 20 digits');
    }
    const encoded = encodePosition(position);
    const result = await this.db
      .updateTable('platform_states')
      .set({ position: encoded, pending_item: pending === undefined ? null : JSON.stringify({ attempts: 1, pending }) })
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where((where) => where.or([where('position', 'is', null), where('position', '<', encoded)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The item left pending at the position by an earlier holder (taken, never
   * answered), counted as one more attempt: for exactly one caller. Null when
   * there is none.
   */
  async retakePending(agentId: string, type: string): Promise<{ pending: string; attempts: number } | null> {
    const row = await this.db
      .selectFrom('platform_states')
      .select(['position', 'pending_item'])
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .executeTakeFirst();
    if (row?.pending_item == null || row.position === null) return null;
    const taken = JSON.parse(row.pending_item) as { attempts: number; pending: string };
    const retaken = { attempts: taken.attempts + 1, pending: taken.pending };
    const result = await this.db
      .updateTable('platform_states')
      .set({ pending_item: JSON.stringify(retaken) })
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where('position', '=', row.position)
      .where('pending_item', '=', row.pending_item)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? retaken : null;
  }

  /** The item taken at `position` is answered (or given up): nothing is pending there any more. */
  async settlePosition(agentId: string, type: string, position: number | string): Promise<void> {
    await this.db
      .updateTable('platform_states')
      .set({ pending_item: null })
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where('position', '=', encodePosition(position))
      .execute();
  }

  async deleteForAgent(agentId: string): Promise<void> {
    await this.db.deleteFrom('platform_states').where('agent_id', '=', agentId).execute();
    await this.db.deleteFrom('platform_items').where('agent_id', '=', agentId).execute();
    await this.db.deleteFrom('platform_daily_posts').where('agent_id', '=', agentId).execute();
  }

  /**
   * Takes one platform item (a notification, a mention) for handling: true
   * for exactly one caller per item, whichever instance asks, so an item is
   * answered once. `pending` is the item itself, kept with the take (the same
   * insert) until `settleItem`: whoever takes the connector over after a
   * crash finds it with `retakePendingItems`.
   */
  async claimItem(agentId: string, type: string, itemId: string, at: string, pending?: string): Promise<boolean> {
    const result = await this.db
      .insertInto('platform_items')
      .values({
        agent_id: agentId,
        type,
        item_id: itemId,
        claimed_at: at,
        pending: pending ?? null,
        attempts: pending === undefined ? 0 : 1,
      })
      .onConflict((conflict) => conflict.columns(['agent_id', 'type', 'item_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /**
   * The items taken and never settled (their poller died, or stopped, while
   * answering them), oldest take first, each counted as one more attempt, and
   * each attempt handed to exactly one caller: a conditional update on the
   * attempts read, so two instances looking at once never take the same
   * attempt (one that reads an item after the other retook it takes the next).
   */
  async retakePendingItems(agentId: string, type: string): Promise<PendingItem[]> {
    const rows = await this.db
      .selectFrom('platform_items')
      .select(['item_id', 'pending', 'attempts', 'claimed_at'])
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where('pending', 'is not', null)
      .orderBy('claimed_at')
      .orderBy('item_id')
      .execute();
    const retaken: PendingItem[] = [];
    for (const row of rows) {
      const attempts = Number(row.attempts) + 1;
      const result = await this.db
        .updateTable('platform_items')
        .set({ attempts })
        .where('agent_id', '=', agentId)
        .where('type', '=', type)
        .where('item_id', '=', row.item_id)
        .where('attempts', '=', row.attempts)
        .where('pending', 'is not', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) > 0) {
        retaken.push({ itemId: row.item_id, pending: row.pending!, attempts, takenAt: row.claimed_at });
      }
    }
    return retaken;
  }

  /** The item is answered (or given up): it stays taken, and nothing of it is pending any more. */
  async settleItem(agentId: string, type: string, itemId: string): Promise<void> {
    await this.db
      .updateTable('platform_items')
      .set({ pending: null })
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where('item_id', '=', itemId)
      .execute();
  }

  /** Forgets claims older than `before`: the connectors never look that far back again. */
  async sweepItems(agentId: string, type: string, before: string): Promise<void> {
    await this.db
      .deleteFrom('platform_items')
      .where('agent_id', '=', agentId)
      .where('type', '=', type)
      .where('claimed_at', '<', before)
      .execute();
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
