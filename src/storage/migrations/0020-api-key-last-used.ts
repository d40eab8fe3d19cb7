import type { Kysely, Migration } from 'kysely';

/**
 * When each API key was last used, so owners can tell which keys are idle
 * before revoking them. Written at most once a minute per key and instance
 * (src/services/api-key-use.ts), not on every request.
 */
export function apiKeyLastUsedMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
    },
  };
}
