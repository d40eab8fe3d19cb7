import { sql, type Kysely, type Migration } from 'kysely';
import { configurationOf } from '../repositories/agent-versions.js';
import type { AgentProfile } from '../repositories/agents.js';
import type { Dialect } from '../schema.js';

/**
 * Agent versions: every change to an agent's configuration is kept as an
 * immutable row, numbered per agent from 1, with secrets by reference only
 * (src/storage/repositories/agent-versions.ts). `agents.version` (0001) now
 * counts configuration versions, so the latest row of an agent is its current
 * configuration. Each agent stored before this migration gets its present
 * configuration recorded as its current version (`source` `existing`): what
 * it was before that was never kept.
 */
export function agentVersionsMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('agent_versions')
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('version', 'integer', (column) => column.notNull())
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('key_id', 'text')
        .addColumn('source', 'text', (column) => column.notNull())
        .addColumn('restored_from', 'integer')
        .addColumn('fields', 'text', (column) => column.notNull())
        .addColumn('configuration', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        // The list order (newest first) and the one row a version number names.
        .addPrimaryKeyConstraint('agent_versions_pk', ['agent_id', 'version'])
        .execute();

      const batch = 500;
      let after = '';
      for (;;) {
        const agents: Array<{
          id: string;
          account_id: string;
          name: string;
          deletion_protection: number;
          profile: string;
          version: number;
          updated_at: string;
        }> = await db
          .selectFrom('agents')
          .select(['id', 'account_id', 'name', 'deletion_protection', 'profile', 'version', 'updated_at'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(batch)
          .execute();
        if (agents.length === 0) break;
        await db
          .insertInto('agent_versions')
          .values(
            agents.map((agent) => ({
              agent_id: agent.id,
              version: agent.version,
              account_id: agent.account_id,
              key_id: null,
              source: 'existing',
              restored_from: null,
              fields: '[]',
              configuration: JSON.stringify(
                configurationOf({
                  name: agent.name,
                  deletionProtection: agent.deletion_protection === 1,
                  profile: JSON.parse(agent.profile) as AgentProfile,
                }),
              ),
              created_at: agent.updated_at,
            })),
          )
          .execute();
        after = agents.at(-1)!.id;
      }
    },
  };
}
