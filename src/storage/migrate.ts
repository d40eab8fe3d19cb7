import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle } from './database.js';
import { initialMigration } from './migrations/0001-initial.js';
import { conversationsMigration } from './migrations/0002-conversations.js';
import { toolTurnsMigration } from './migrations/0003-tool-turns.js';
import { agentEventsMigration } from './migrations/0004-agent-events.js';
import { agentMetricsMigration } from './migrations/0005-agent-metrics.js';
import { webhooksMigration } from './migrations/0006-webhooks.js';
import { platformsMigration } from './migrations/0007-platforms.js';
import { knowledgeBasesMigration } from './migrations/0008-knowledge-bases.js';
import { memoryMigration } from './migrations/0009-memory.js';
import { memorySearchMigration } from './migrations/0010-memory-search.js';
import { runsMigration } from './migrations/0011-runs.js';
import { tasksMigration } from './migrations/0012-tasks.js';
import { approvalsMigration } from './migrations/0013-approvals.js';
import { evmTransfersMigration } from './migrations/0014-evm-transfers.js';
import { socialMigration } from './migrations/0016-social.js';
import { filesMigration } from './migrations/0015-files.js';
import { doorTriggersMigration } from './migrations/0017-door-triggers.js';
import { accountApprovalsMigration } from './migrations/0018-account-approvals.js';
import { accountEventIndexesMigration } from './migrations/0019-account-event-indexes.js';
import { apiKeyLastUsedMigration } from './migrations/0020-api-key-last-used.js';
import { platformPendingMigration } from './migrations/0021-platform-pending.js';
import { runCallKeysMigration } from './migrations/0022-run-call-keys.js';
import { platformPendingItemsMigration } from './migrations/0023-platform-pending-items.js';
import { runCancelRequestsMigration } from './migrations/0024-run-cancel-requests.js';
import { spendLimitsMigration } from './migrations/0025-spend-limits.js';
import { modelCostsMigration } from './migrations/0026-model-costs.js';
import { cachedInputTokensMigration } from './migrations/0027-cached-input-tokens.js';
import { runStepsMigration } from './migrations/0028-run-steps.js';
import { agentVersionsMigration } from './migrations/0029-agent-versions.js';
import { platformItemClaimsMigration } from './migrations/0030-platform-item-claims.js';
import { evalsMigration } from './migrations/0031-evals.js';
import { runsAccountIndexMigration } from './migrations/0032-runs-account-index.js';
import type { Dialect } from './schema.js';

/** Every migration, by name, in the order they apply. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(dialect),
    '0002-conversations': conversationsMigration(dialect),
    '0003-tool-turns': toolTurnsMigration(),
    '0004-agent-events': agentEventsMigration(dialect),
    '0005-agent-metrics': agentMetricsMigration(dialect),
    '0006-webhooks': webhooksMigration(dialect),
    '0007-platforms': platformsMigration(dialect),
    '0008-knowledge-bases': knowledgeBasesMigration(dialect),
    '0009-memory': memoryMigration(dialect),
    '0010-memory-search': memorySearchMigration(dialect),
    '0011-runs': runsMigration(dialect),
    '0012-tasks': tasksMigration(dialect),
    '0013-approvals': approvalsMigration(dialect),
    '0014-evm-transfers': evmTransfersMigration(),
    '0015-files': filesMigration(dialect),
    '0016-social': socialMigration(dialect),
    '0017-door-triggers': doorTriggersMigration(),
    '0018-account-approvals': accountApprovalsMigration(),
    '0019-account-event-indexes': accountEventIndexesMigration(),
    '0020-api-key-last-used': apiKeyLastUsedMigration(),
    '0021-platform-pending': platformPendingMigration(),
    '0022-run-call-keys': runCallKeysMigration(),
    '0023-platform-pending-items': platformPendingItemsMigration(),
    '0024-run-cancel-requests': runCancelRequestsMigration(),
    '0025-spend-limits': spendLimitsMigration(),
    '0026-model-costs': modelCostsMigration(),
    '0027-cached-input-tokens': cachedInputTokensMigration(),
    '0028-run-steps': runStepsMigration(),
    '0029-agent-versions': agentVersionsMigration(dialect),
    '0030-platform-item-claims': platformItemClaimsMigration(),
    '0031-evals': evalsMigration(dialect),
    '0032-runs-account-index': runsAccountIndexMigration(),
  };
}

/**
 * Brings the schema up to date. Kysely's migrator takes a database lock
 * (an advisory lock on PostgreSQL), so instances starting together run each
 * migration once.
 */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle.dialect) };
  const migrator = new Migrator({
    db: handle.db,
    provider,
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
