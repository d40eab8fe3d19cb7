import { createHash } from 'node:crypto';
import type { AgentProfile, AgentRecord, StoredSecret } from './agents.js';
import type { Database, Executor } from '../schema.js';

/**
 * A secret as a version keeps it: its mask, and a reference to the stored
 * secret it was, never its value, sealed or clear. The reference is a hash of
 * the sealed form: it names one stored secret (a secret given again is sealed
 * afresh, so it is another one) and tells nothing of its value. A restore
 * takes the secret back from the agent as it is then, by reference; a secret
 * the agent no longer holds cannot come back from history.
 */
export interface VersionSecret {
  mask: string;
  ref: string;
}

type WithVersionSecrets<Entry> = Omit<Entry, 'secrets'> & { secrets: Record<string, VersionSecret> };

/** The profile as a version keeps it: every secret by reference. */
export type VersionProfile = Omit<AgentProfile, 'platforms' | 'plugins' | 'model'> & {
  platforms: Array<WithVersionSecrets<AgentProfile['platforms'][number]>>;
  plugins: Array<WithVersionSecrets<AgentProfile['plugins'][number]>>;
  model: Omit<AgentProfile['model'], 'apiKey'> & { apiKey?: VersionSecret };
};

/** An agent's configuration: everything its owner sets but its status, which is lifecycle, not configuration. */
export interface AgentConfiguration {
  name: string;
  deletionProtection: boolean;
  profile: VersionProfile;
}

/** What made a version: a create, a character import, a PATCH, a restore, a knowledge base's deletion, or the migration that began keeping versions. */
export type VersionSource = 'create' | 'import' | 'update' | 'restore' | 'detach' | 'existing';

export interface AgentVersionRecord {
  agentId: string;
  accountId: string;
  version: number;
  /** The API key that made the change; null for versions recorded by the migration. */
  keyId: string | null;
  source: VersionSource;
  restoredFrom: number | null;
  /** Top-level fields that differ from the version before. */
  fields: string[];
  configuration: AgentConfiguration;
  createdAt: string;
}

export type AgentVersionSummary = Omit<AgentVersionRecord, 'configuration'>;

/** The reference a version keeps of a stored secret (see VersionSecret). */
export function secretReference(secret: StoredSecret): string {
  return createHash('sha256').update(secret.sealed, 'utf8').digest('base64url').slice(0, 22);
}

function byReference(secrets: Record<string, StoredSecret>): Record<string, VersionSecret> {
  const kept: Record<string, VersionSecret> = {};
  for (const [name, secret] of Object.entries(secrets))
    kept[name] = { mask: secret.mask, ref: secretReference(secret) };
  return kept;
}

/** The configuration of an agent as a version keeps it. */
export function configurationOf(
  agent: Pick<AgentRecord, 'name' | 'deletionProtection' | 'profile'>,
): AgentConfiguration {
  const { apiKey, ...model } = agent.profile.model;
  return {
    name: agent.name,
    deletionProtection: agent.deletionProtection,
    profile: {
      ...agent.profile,
      platforms: agent.profile.platforms.map((platform) => ({ ...platform, secrets: byReference(platform.secrets) })),
      plugins: agent.profile.plugins.map((plugin) => ({ ...plugin, secrets: byReference(plugin.secrets) })),
      model: apiKey ? { ...model, apiKey: { mask: apiKey.mask, ref: secretReference(apiKey) } } : model,
    },
  };
}

type VersionRow = Database['agent_versions'];

const summaryColumns = [
  'agent_id',
  'account_id',
  'version',
  'key_id',
  'source',
  'restored_from',
  'fields',
  'created_at',
] as const;

function toSummary(row: Omit<VersionRow, 'configuration'>): AgentVersionSummary {
  return {
    agentId: row.agent_id,
    accountId: row.account_id,
    version: row.version,
    keyId: row.key_id,
    source: row.source as VersionSource,
    restoredFrom: row.restored_from,
    fields: JSON.parse(row.fields) as string[],
    createdAt: row.created_at,
  };
}

export class AgentVersionRepository {
  constructor(private readonly db: Executor) {}

  async insert(record: AgentVersionRecord, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('agent_versions')
      .values({
        agent_id: record.agentId,
        account_id: record.accountId,
        version: record.version,
        key_id: record.keyId,
        source: record.source,
        restored_from: record.restoredFrom,
        fields: JSON.stringify(record.fields),
        configuration: JSON.stringify(record.configuration),
        created_at: record.createdAt,
      })
      .execute();
  }

  async find(
    accountId: string,
    agentId: string,
    version: number,
    executor: Executor = this.db,
  ): Promise<AgentVersionRecord | null> {
    const row = await executor
      .selectFrom('agent_versions')
      .selectAll()
      .where('agent_id', '=', agentId)
      .where('version', '=', version)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (row === undefined) return null;
    return { ...toSummary(row), configuration: JSON.parse(row.configuration) as AgentConfiguration };
  }

  /** Newest first, the configuration left out (it may be large); `before`: versions below this number. */
  async page(
    query: { accountId: string; agentId: string; limit: number; before?: number },
    executor: Executor = this.db,
  ): Promise<AgentVersionSummary[]> {
    let builder = executor
      .selectFrom('agent_versions')
      .select(summaryColumns)
      .where('agent_id', '=', query.agentId)
      .where('account_id', '=', query.accountId);
    if (query.before !== undefined) builder = builder.where('version', '<', query.before);
    const rows = await builder.orderBy('version', 'desc').limit(query.limit).execute();
    return rows.map(toSummary);
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('agent_versions').where('agent_id', '=', agentId).execute();
  }
}
