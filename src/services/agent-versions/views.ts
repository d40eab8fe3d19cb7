import type {
  AgentConfigurationView,
  AgentVersionSummaryView,
  AgentVersionView,
} from '../../schemas/agent-versions.js';
import type {
  AgentConfiguration,
  AgentVersionRecord,
  AgentVersionSummary,
} from '../../storage/repositories/agent-versions.js';
import type { AgentProfile, AgentRecord } from '../../storage/repositories/agents.js';
import { toAgentView } from '../agents/agent-profile.js';

/**
 * A configuration as clients see it: the agent's own view (defaults filled
 * in, secrets masked) without the fields that are not configuration.
 */
export function configurationView(configuration: AgentConfiguration): AgentConfigurationView {
  // The agent view reads a secret's mask only, which a version keeps; the reference stays inside.
  const record = {
    id: '',
    accountId: '',
    status: 'active',
    statusReason: null,
    version: 0,
    createdAt: '',
    updatedAt: '',
    name: configuration.name,
    deletionProtection: configuration.deletionProtection,
    profile: configuration.profile as unknown as AgentProfile,
  } satisfies AgentRecord;
  const { id, status, statusReason, version, createdAt, updatedAt, ...view } = toAgentView(record);
  return view;
}

/** The references of the secrets of a configuration, by field: what masks alone would not tell apart. */
function secretReferences(configuration: AgentConfiguration): Record<string, unknown> {
  const { profile } = configuration;
  return {
    platforms: profile.platforms.map((platform) => platform.secrets),
    plugins: profile.plugins.map((plugin) => plugin.secrets),
    model: profile.model.apiKey ?? null,
  };
}

/** Top-level fields of the configuration that differ, a secret given anew included. */
export function changedFields(before: AgentConfiguration, after: AgentConfiguration): string[] {
  const beforeView = configurationView(before) as Record<string, unknown>;
  const afterView = configurationView(after) as Record<string, unknown>;
  const beforeSecrets = secretReferences(before);
  const afterSecrets = secretReferences(after);
  return Object.keys(afterView).filter(
    (field) =>
      JSON.stringify(beforeView[field]) !== JSON.stringify(afterView[field]) ||
      JSON.stringify(beforeSecrets[field]) !== JSON.stringify(afterSecrets[field]),
  );
}

export function toVersionSummaryView(record: AgentVersionSummary): AgentVersionSummaryView {
  return {
    agentId: record.agentId,
    version: record.version,
    createdAt: record.createdAt,
    keyId: record.keyId,
    source: record.source,
    restoredFrom: record.restoredFrom,
    fields: record.fields,
  };
}

export function toVersionView(record: AgentVersionRecord): AgentVersionView {
  return { ...toVersionSummaryView(record), configuration: configurationView(record.configuration) };
}
