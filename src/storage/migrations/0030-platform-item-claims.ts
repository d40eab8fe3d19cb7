import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One record per inbound platform item, whatever the connector (Telegram in
 * both modes, Slack, Discord, the generic webhook, X, Bluesky): the row in
 * `platform_items` is written before the item is answered and carries its
 * claim, the instance answering it (`owner`), a token only that instance
 * knows (`claim_token`) and when the claim runs out unless renewed
 * (`claim_expires_at`); `answered_at` is set once it is answered or given up.
 * An unanswered item whose claim ran out is taken over by a live instance.
 *
 * What was recorded otherwise moves here: the Telegram update kept in
 * `platform_states.pending_item` (0021) becomes an item with an expired
 * claim, as do the X and Bluesky items still pending (0023); items no longer
 * pending were answered. The partial index holds only unanswered items, by
 * expiry: what the takeover sweep reads.
 */
export function platformItemClaimsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('platform_items').addColumn('owner', 'text').execute();
      await db.schema.alterTable('platform_items').addColumn('claim_token', 'text').execute();
      await db.schema.alterTable('platform_items').addColumn('claim_expires_at', 'text').execute();
      await db.schema.alterTable('platform_items').addColumn('answered_at', 'text').execute();
      await db
        .updateTable('platform_items')
        .set({ answered_at: sql.ref('claimed_at') })
        .where('pending', 'is', null)
        .execute();
      await db
        .updateTable('platform_items')
        .set({ claim_expires_at: sql.ref('claimed_at') })
        .where('pending', 'is not', null)
        .execute();

      const leftovers = await db
        .selectFrom('platform_states')
        .select(['agent_id', 'type', 'position', 'pending_item', 'updated_at'])
        .where('pending_item', 'is not', null)
        .where('position', 'is not', null)
        .execute();
      for (const row of leftovers as Array<Record<string, string>>) {
        const taken = JSON.parse(row.pending_item!) as { attempts: number; pending: string };
        await db
          .insertInto('platform_items')
          .values({
            agent_id: row.agent_id,
            type: row.type,
            item_id: row.position!.replace(/^0+(?=[0-9])/, ''),
            claimed_at: row.updated_at,
            pending: taken.pending,
            attempts: taken.attempts,
            claim_expires_at: row.updated_at,
          })
          .onConflict((conflict) => conflict.columns(['agent_id', 'type', 'item_id']).doNothing())
          .execute();
      }
      await db.schema.alterTable('platform_states').dropColumn('pending_item').execute();

      await db.schema.dropIndex('platform_items_pending_idx').execute();
      await db.schema
        .createIndex('platform_items_unanswered_idx')
        .on('platform_items')
        .column('claim_expires_at')
        .where(sql.ref('answered_at'), 'is', null)
        .execute();
    },
  };
}
