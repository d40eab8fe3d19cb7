import { memorySettingsOf } from '../schemas/memory-settings.js';
import type { AgentProfile, AgentRecord, StoredSecret } from '../storage/repositories/agents.js';

/**
 * What an update changed, as the `data` of an `agent.updated` event: the
 * top-level fields of the API view that differ, and for the lists of entries
 * (plugins, platforms) and the model which parts changed. Secrets appear by
 * name only ("which secrets changed"), never with a value, sealed or masked.
 */
export interface EntryChange {
  /** The plugin's name (`mcp:<prefix>` for MCP servers) or the platform's type. */
  entry: string;
  change: 'added' | 'removed' | 'changed';
  /** Names of secrets set, replaced or removed, when any were. */
  secretsChanged?: string[];
}

export interface AgentChanges {
  fields: string[];
  plugins?: EntryChange[];
  platforms?: EntryChange[];
  model?: { fields: string[] };
}

type Secrets = Record<string, StoredSecret>;
type Entry = { enabled: boolean; secrets: Secrets; [key: string]: unknown };

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

function changedSecretNames(before: Secrets, after: Secrets): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  // A secret sent again unchanged keeps its sealed form (see agent-profile.ts); a new value is sealed afresh.
  return [...names].filter((name) => before[name]?.sealed !== after[name]?.sealed).sort();
}

function entryChanges<T extends Entry>(before: T[], after: T[], identity: (entry: T) => string): EntryChange[] {
  const earlier = new Map(before.map((entry) => [identity(entry), entry]));
  const later = new Map(after.map((entry) => [identity(entry), entry]));
  const changes: EntryChange[] = [];
  for (const [name, entry] of later) {
    const previous = earlier.get(name);
    const secrets = changedSecretNames(previous?.secrets ?? {}, entry.secrets);
    const withSecrets = secrets.length > 0 ? { secretsChanged: secrets } : {};
    if (previous === undefined) {
      changes.push({ entry: name, change: 'added', ...withSecrets });
      continue;
    }
    const { secrets: _before, ...previousRest } = previous;
    const { secrets: _after, ...rest } = entry;
    if (secrets.length > 0 || !same(previousRest, rest))
      changes.push({ entry: name, change: 'changed', ...withSecrets });
  }
  for (const [name, entry] of earlier) {
    if (!later.has(name)) {
      const secrets = Object.keys(entry.secrets).sort();
      changes.push({ entry: name, change: 'removed', ...(secrets.length > 0 ? { secretsChanged: secrets } : {}) });
    }
  }
  return changes;
}

function pluginIdentity(plugin: AgentProfile['plugins'][number]): string {
  return plugin.name === 'mcp' ? `mcp:${String(plugin.config.prefix ?? 'mcp')}` : plugin.name;
}

function modelFields(before: AgentProfile['model'], after: AgentProfile['model']): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof AgentProfile['model']>;
  return [...names]
    .filter((name) =>
      name === 'apiKey' ? before.apiKey?.sealed !== after.apiKey?.sealed : !same(before[name], after[name]),
    )
    .sort();
}

const profileFields = [
  'bio',
  'personality',
  'system',
  'expertise',
  'knowledge',
  'knowledgeBases',
  'goals',
  'platforms',
  'plugins',
  'model',
  'metadata',
] as const;

export function agentChanges(before: AgentRecord, after: AgentRecord): AgentChanges {
  const fields: string[] = [];
  if (before.name !== after.name) fields.push('name');
  if (before.status !== after.status || before.statusReason !== after.statusReason) fields.push('status');
  if (before.deletionProtection !== after.deletionProtection) fields.push('deletionProtection');
  const changes: AgentChanges = { fields };
  for (const field of profileFields) {
    if (field === 'plugins' || field === 'platforms' || field === 'model') continue;
    if (!same(before.profile[field], after.profile[field])) fields.push(field);
  }
  // Compared with defaults filled in: an agent stored before memory existed has none.
  if (!same(memorySettingsOf(before.profile), memorySettingsOf(after.profile))) fields.push('memory');
  const plugins = entryChanges(before.profile.plugins, after.profile.plugins, pluginIdentity);
  if (
    plugins.length > 0 ||
    !same(before.profile.plugins.map(pluginIdentity), after.profile.plugins.map(pluginIdentity))
  ) {
    fields.push('plugins');
    changes.plugins = plugins;
  }
  const platforms = entryChanges(before.profile.platforms, after.profile.platforms, (platform) => platform.type);
  if (
    platforms.length > 0 ||
    !same(
      before.profile.platforms.map((platform) => platform.type),
      after.profile.platforms.map((platform) => platform.type),
    )
  ) {
    fields.push('platforms');
    changes.platforms = platforms;
  }
  const model = modelFields(before.profile.model, after.profile.model);
  if (model.length > 0) {
    fields.push('model');
    changes.model = { fields: model };
  }
  return changes;
}
