import type { Updateable } from 'kysely';
import type { Database, Executor } from '../schema.js';

/** Which item: the agent, the connector type and the platform's own id for the item. */
export interface PlatformItemKey {
  agentId: string;
  type: string;
  itemId: string;
}

/** A claim to write: the instance that answers the item, its token, and when the claim runs out (ISO 8601). */
export interface ItemClaim {
  owner: string;
  token: string;
  expiresAt: string;
}

/** An item this instance now holds the claim of. */
export interface ClaimedItem {
  /** The item as the connector stored it with its first take. */
  pending: string;
  /** Claims it had, this one included: 1 at the first take. */
  attempts: number;
  /** When it was first taken (ISO 8601). */
  takenAt: string;
}

/** An unanswered item whose claim ran out, as the takeover sweep reads it. */
export interface ExpiredItem extends PlatformItemKey {
  attempts: number;
  takenAt: string;
}

/**
 * Inbound platform items, one row each (migration 0030): written with its
 * claim before the item is answered, so that exactly one instance answers it
 * whichever instance the platform reached, and, once marked answered, never
 * again. Every change to a claim is a conditional write on what its writer
 * read or holds (the token), so two instances never both win.
 */
export class PlatformItemRepository {
  constructor(private readonly db: Executor) {}

  /**
   * Records the item with `claim`: the claim is the caller's when the item
   * is new, or when it is recorded but unanswered and its claim ran out
   * before `now` (its owner died). Null when it is answered already or
   * claimed by a live owner: a second delivery, not answered again.
   */
  async take(key: PlatformItemKey, pending: string, claim: ItemClaim, now: string): Promise<ClaimedItem | null> {
    const result = await this.db
      .insertInto('platform_items')
      .values({
        agent_id: key.agentId,
        type: key.type,
        item_id: key.itemId,
        claimed_at: now,
        pending,
        attempts: 1,
        owner: claim.owner,
        claim_token: claim.token,
        claim_expires_at: claim.expiresAt,
        answered_at: null,
      })
      .onConflict((conflict) => conflict.columns(['agent_id', 'type', 'item_id']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) > 0) return { pending, attempts: 1, takenAt: now };
    return this.takeOver(key, claim, now);
  }

  /**
   * Takes the claim of an unanswered item whose claim ran out before `now`,
   * counting one more attempt: for exactly one caller (the update matches
   * the claim that was read). Null when it is answered, its claim is live,
   * or another instance took it over first.
   */
  async takeOver(key: PlatformItemKey, claim: ItemClaim, now: string): Promise<ClaimedItem | null> {
    const row = await this.db
      .selectFrom('platform_items')
      .select(['pending', 'attempts', 'claimed_at', 'claim_token', 'claim_expires_at', 'answered_at'])
      .where('agent_id', '=', key.agentId)
      .where('type', '=', key.type)
      .where('item_id', '=', key.itemId)
      .executeTakeFirst();
    if (row === undefined || row.answered_at !== null || row.pending === null) return null;
    if (row.claim_expires_at !== null && row.claim_expires_at >= now) return null;
    const attempts = Number(row.attempts) + 1;
    const result = await this.db
      .updateTable('platform_items')
      .set({ owner: claim.owner, claim_token: claim.token, claim_expires_at: claim.expiresAt, attempts })
      .where('agent_id', '=', key.agentId)
      .where('type', '=', key.type)
      .where('item_id', '=', key.itemId)
      .where('answered_at', 'is', null)
      .where('attempts', '=', row.attempts)
      .where('claim_token', row.claim_token === null ? 'is' : '=', row.claim_token)
      .where('claim_expires_at', row.claim_expires_at === null ? 'is' : '=', row.claim_expires_at)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    return { pending: row.pending, attempts, takenAt: row.claimed_at };
  }

  /** Extends the caller's claim to `expiresAt`: false when it is not the caller's any more (taken over, answered). */
  async renew(key: PlatformItemKey, token: string, expiresAt: string): Promise<boolean> {
    return this.#underClaim(key, token, { claim_expires_at: expiresAt });
  }

  /**
   * Marks the item answered (or given up) under the caller's claim: the
   * item itself is no longer kept. False when the claim was not the caller's.
   */
  async markAnswered(key: PlatformItemKey, token: string, at: string): Promise<boolean> {
    return this.#underClaim(key, token, { answered_at: at, pending: null, claim_expires_at: null });
  }

  /** Gives the claim back unanswered, run out at `now`: the next sweep of a live instance takes it over. */
  async release(key: PlatformItemKey, token: string, now: string): Promise<void> {
    await this.#underClaim(key, token, { claim_expires_at: now });
  }

  /** Updates an unanswered item only while the claim is the caller's (its token); false when it is not. */
  async #underClaim(
    key: PlatformItemKey,
    token: string,
    fields: Updateable<Database['platform_items']>,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('platform_items')
      .set(fields)
      .where('agent_id', '=', key.agentId)
      .where('type', '=', key.type)
      .where('item_id', '=', key.itemId)
      .where('claim_token', '=', token)
      .where('answered_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Unanswered items whose claim ran out before `now`, the longest run out first (the partial index's order). */
  async expired(now: string, limit: number): Promise<ExpiredItem[]> {
    const rows = await this.db
      .selectFrom('platform_items')
      .select(['agent_id', 'type', 'item_id', 'attempts', 'claimed_at'])
      .where('answered_at', 'is', null)
      .where('claim_expires_at', '<', now)
      .orderBy('claim_expires_at')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      agentId: row.agent_id,
      type: row.type,
      itemId: row.item_id,
      attempts: Number(row.attempts),
      takenAt: row.claimed_at,
    }));
  }

  /**
   * Gives up the unanswered items first taken before `takenBefore` whose
   * claim ran out (their connector stopped for a day, or no instance runs
   * it): they are not news any more. Resolves with those given up.
   */
  async giveUpStale(takenBefore: string, now: string): Promise<PlatformItemKey[]> {
    const rows = await this.db
      .updateTable('platform_items')
      .set({ answered_at: now, pending: null, claim_expires_at: null })
      .where('answered_at', 'is', null)
      .where('claim_expires_at', '<', now)
      .where('claimed_at', '<', takenBefore)
      .returning(['agent_id', 'type', 'item_id'])
      .execute();
    return rows.map((row) => ({ agentId: row.agent_id, type: row.type, itemId: row.item_id }));
  }

  /** Forgets items first taken before `before`: no platform delivers an item again that late. */
  async forget(before: string): Promise<void> {
    await this.db.deleteFrom('platform_items').where('claimed_at', '<', before).execute();
  }

  /** The item's record, for tests and diagnostics. */
  async find(key: PlatformItemKey) {
    return this.db
      .selectFrom('platform_items')
      .selectAll()
      .where('agent_id', '=', key.agentId)
      .where('type', '=', key.type)
      .where('item_id', '=', key.itemId)
      .executeTakeFirst();
  }
}
