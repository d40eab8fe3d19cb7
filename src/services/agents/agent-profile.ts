import { AppError, describeFieldErrors, validationError, type FieldError } from '../../errors.js';
import type { Agent, CreateAgentInput, UpdateAgentInput } from '../../schemas/agents.js';
import { limits } from '../../schemas/agents.js';
import { maskSecret } from '../../security/secret-box.js';
import type { AgentProfile, AgentRecord, StoredKnowledgeItem } from '../../storage/repositories/agents.js';
import type { ServiceDeps } from '../context.js';
import { memorySettingsOf, memoryFromCreate, mergeMemory } from '../../schemas/memory-settings.js';
import { spendLimitsView, storedSpendLimits } from '../../schemas/spend-limits.js';
import { sealEntrySecrets, type EarlierEntry, type SecretProblem, type StoredSecrets } from './entry-secrets.js';

/**
 * Turning request bodies into stored agent profiles and stored agents into
 * API views: defaults, JSON Merge Patch (RFC 7396), secret sealing and masking.
 */

function maskSecrets(secrets: StoredSecrets): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, secret] of Object.entries(secrets)) masked[name] = secret.mask;
  return masked;
}

function bioList(bio: string | string[] | null | undefined): string[] {
  if (bio === null || bio === undefined) return [];
  if (typeof bio === 'string') return bio === '' ? [] : [bio];
  return bio;
}

type PlatformInput = NonNullable<CreateAgentInput['platforms']>[number];
type PluginInput = NonNullable<CreateAgentInput['plugins']>[number];

/**
 * Stored entries by identity (platform type, plugin name), each with where
 * its secrets went: masked secrets are kept from these (see entry-secrets.ts),
 * whatever the order the entries now come in.
 */
function earlierByIdentity<T extends { secrets: StoredSecrets }>(
  entries: readonly T[],
  identity: (entry: T) => string,
  destination: (entry: T) => unknown,
): Map<string, EarlierEntry[]> {
  const map = new Map<string, EarlierEntry[]>();
  for (const entry of entries) {
    const key = identity(entry);
    map.set(key, [...(map.get(key) ?? []), { destination: destination(entry), secrets: entry.secrets }]);
  }
  return map;
}

/** `problems` collects the masks refused for a changed destination, reported with the entries' other problems. */
function platforms(
  deps: ServiceDeps,
  agentId: string,
  input: PlatformInput[],
  previous: AgentProfile['platforms'] = [],
  problems: SecretProblem[] = [],
) {
  const { catalog } = deps.platforms;
  const earlier = earlierByIdentity(
    previous,
    (platform) => platform.type,
    (platform) => catalog.secretDestination(platform.type, platform.settings),
  );
  return input.map((platform, index) => ({
    type: platform.type,
    enabled: platform.enabled ?? true,
    settings: platform.settings ?? {},
    secrets: sealEntrySecrets(
      deps.secretBox,
      agentId,
      platform.secrets,
      {
        destination: () => catalog.secretDestination(platform.type, platform.settings ?? {}),
        earlier: earlier.get(platform.type) ?? [],
        pointer: `/body/platforms/${index}`,
      },
      problems,
    ),
  }));
}

/** `problems` collects the masks refused for a changed destination, reported with the entries' other problems. */
function plugins(
  deps: ServiceDeps,
  agentId: string,
  input: PluginInput[],
  previous: AgentProfile['plugins'] = [],
  problems: SecretProblem[] = [],
) {
  const { catalog } = deps.plugins;
  const earlier = earlierByIdentity(
    previous,
    (plugin) => plugin.name,
    (plugin) => catalog.secretDestination(plugin.name, plugin.config),
  );
  return input.map((plugin, index) => ({
    name: plugin.name,
    enabled: plugin.enabled ?? true,
    config: plugin.config ?? {},
    secrets: sealEntrySecrets(
      deps.secretBox,
      agentId,
      plugin.secrets,
      {
        destination: () => catalog.secretDestination(plugin.name, plugin.config ?? {}),
        earlier: earlier.get(plugin.name) ?? [],
        pointer: `/body/plugins/${index}`,
      },
      problems,
    ),
    ...(plugin.approval !== undefined ? { approval: plugin.approval } : {}),
  }));
}

function knowledgeBytes(items: StoredKnowledgeItem[]): number {
  let bytes = 0;
  for (const item of items) {
    if (typeof item === 'string') bytes += Buffer.byteLength(item, 'utf8');
    else bytes += Buffer.byteLength(item.content, 'utf8') + Buffer.byteLength(item.title ?? '', 'utf8');
  }
  return bytes;
}

/**
 * Plugin entries as given on create or PATCH: each must name a plugin this
 * server offers, with a config and secrets its schemas accept; a plugin may
 * appear once (mcp once per prefix, as its tools are named after it). Every
 * problem is reported, each at its JSON pointer.
 */
function checkPlugins(
  deps: ServiceDeps,
  input: PluginInput[],
  stored: AgentProfile['plugins'],
  secretProblems: SecretProblem[] = [],
): void {
  const problems: FieldError[] = [...secretProblems];
  const refused = new Set(secretProblems.map((problem) => problem.path));
  const seen = new Set<string>();
  for (const [index, entry] of input.entries()) {
    const secrets: Record<string, string> = {};
    for (const [name, secret] of Object.entries(stored[index]?.secrets ?? {})) secrets[name] = secret.mask;
    const config = entry.config ?? {};
    for (const problem of deps.plugins.catalog.check(entry.name, config, secrets)) {
      const path = `/body/plugins/${index}${problem.path}`;
      // A refused secret is left out of the entry: that it is missing is already said, and why.
      if (!refused.has(path)) problems.push({ path, code: problem.code, message: problem.message });
    }
    const identity =
      entry.name === 'mcp' || entry.name === 'openapi'
        ? `${entry.name}:${String(config.prefix ?? entry.name)}`
        : entry.name;
    if (seen.has(identity)) {
      problems.push({
        path: `/body/plugins/${index}/name`,
        message:
          entry.name === 'mcp' || entry.name === 'openapi'
            ? `repeats an ${entry.name} entry with the same prefix; give each server its own prefix`
            : 'is listed twice; a plugin can be attached once',
      });
    }
    seen.add(identity);
  }
  if (problems.length > 0) {
    throw new AppError('validation_failed', describeFieldErrors(problems), { errors: problems });
  }
}

/**
 * The plugins' own checks of the entries given on create or PATCH (a document
 * to fetch and read, secrets a config names), each entry's run side by side.
 * Run before the agent is written, and outside any transaction, since a check
 * may wait on another server. Entries the schemas refuse are reported by
 * `checkPlugins`.
 */
export async function checkPluginsFurther(deps: ServiceDeps, input: PluginInput[] | null | undefined): Promise<void> {
  if (!input || input.length === 0) return;
  const { catalog, fetch } = deps.plugins;
  const found = await Promise.all(
    input.map((entry) => catalog.checkFurther(entry.name, entry.config ?? {}, entry.secrets ?? {}, { fetch })),
  );
  const problems = found.flatMap((entryProblems, index) =>
    entryProblems.map((problem) => ({ ...problem, path: `/body/plugins/${index}${problem.path}` })),
  );
  if (problems.length > 0) {
    throw new AppError('validation_failed', describeFieldErrors(problems), { errors: problems });
  }
}

/**
 * Platform entries as given on create or PATCH: entries of a type this server
 * runs must have settings and secrets its schemas accept, and a type may
 * appear once (its inbound URL names the agent and the type). Unknown types
 * are stored and reported `unsupported` (see src/platforms/catalog.ts).
 */
function checkPlatforms(
  deps: ServiceDeps,
  input: PlatformInput[],
  stored: AgentProfile['platforms'],
  secretProblems: SecretProblem[] = [],
): void {
  const problems: FieldError[] = [...secretProblems];
  const refused = new Set(secretProblems.map((problem) => problem.path));
  const seen = new Set<string>();
  for (const [index, entry] of input.entries()) {
    const secrets: Record<string, string> = {};
    for (const [name, secret] of Object.entries(stored[index]?.secrets ?? {})) secrets[name] = secret.mask;
    for (const problem of deps.platforms.catalog.check(entry.type, entry.settings ?? {}, secrets)) {
      const path = `/body/platforms/${index}${problem.path}`;
      // A refused secret is left out of the entry: that it is missing is already said, and why.
      if (!refused.has(path)) problems.push({ path, code: problem.code, message: problem.message });
    }
    if (seen.has(entry.type) && deps.platforms.catalog.definitionOf(entry.type) !== undefined) {
      problems.push({
        path: `/body/platforms/${index}/type`,
        message: 'is listed twice; a platform can be attached once',
      });
    }
    seen.add(entry.type);
  }
  if (problems.length > 0) {
    throw new AppError('validation_failed', describeFieldErrors(problems), { errors: problems });
  }
}

/** Checks that span fields or depend on the deployment; the schema has checked each field alone. */
export function checkProfile(deps: ServiceDeps, profile: AgentProfile): void {
  const problem = deps.providers.problemWith(profile.model);
  if (problem) throw validationError(`/body/model/${problem.field}`, problem.message);
  if (profile.model.apiKey && !deps.allowAgentModelKeys) {
    throw validationError('/body/model/apiKey', 'is not accepted: per-agent model keys are disabled on this server');
  }
  if (knowledgeBytes(profile.knowledge) > limits.knowledgeBytes) {
    throw validationError('/body/knowledge', 'must hold at most 1 MiB of text in all');
  }
  if (Object.keys(profile.metadata).length > limits.metadataKeys) {
    throw validationError('/body/metadata', `must have at most ${limits.metadataKeys} keys`);
  }
}

export function profileFromCreate(deps: ServiceDeps, agentId: string, input: CreateAgentInput): AgentProfile {
  const box = deps.secretBox;
  const model = input.model
    ? {
        provider: input.model.provider,
        name: input.model.name,
        ...(input.model.temperature !== undefined ? { temperature: input.model.temperature } : {}),
        ...(input.model.maxOutputTokens !== undefined ? { maxOutputTokens: input.model.maxOutputTokens } : {}),
        ...(input.model.topP !== undefined ? { topP: input.model.topP } : {}),
        ...(input.model.maxSteps !== undefined ? { maxSteps: input.model.maxSteps } : {}),
        ...(input.model.apiKey !== undefined
          ? { apiKey: { sealed: box.seal(input.model.apiKey, agentId), mask: maskSecret(input.model.apiKey) } }
          : {}),
      }
    : { ...deps.providers.defaultModel };
  const profile: AgentProfile = {
    bio: bioList(input.bio),
    personality: {
      traits: input.personality?.traits ?? [],
      style: input.personality?.style ?? [],
      tone: input.personality?.tone ?? null,
    },
    system: input.system ?? null,
    expertise: input.expertise ?? [],
    knowledge: input.knowledge ?? [],
    ...(input.knowledgeBases?.length ? { knowledgeBases: input.knowledgeBases } : {}),
    goals: { objectives: input.goals?.objectives ?? [], motivations: input.goals?.motivations ?? [] },
    platforms: platforms(deps, agentId, input.platforms ?? []),
    plugins: plugins(deps, agentId, input.plugins ?? []),
    model,
    metadata: input.metadata ?? {},
    memory: memoryFromCreate(input.memory),
    ...mcpOf(input.mcp?.exposed ?? false),
    ...limitsOf(storedSpendLimits(input.limits?.spend ?? {})),
  };
  checkProfile(deps, profile);
  if (input.plugins !== undefined) checkPlugins(deps, input.plugins, profile.plugins);
  if (input.platforms !== undefined) checkPlatforms(deps, input.platforms, profile.platforms);
  return profile;
}

/** Stored only when exposed, so other agents keep their stored shape. */
function mcpOf(exposed: boolean): { mcp?: { exposed: boolean } } {
  return exposed ? { mcp: { exposed } } : {};
}

/** Stored only when a limit is set, so other agents keep their stored shape. */
function limitsOf(spend: NonNullable<AgentProfile['limits']>['spend']): Pick<AgentProfile, 'limits'> {
  return Object.keys(spend).length > 0 ? { limits: { spend } } : {};
}

/** RFC 7396 on the spend limits: each one merges, null removes it (or all of them). */
function mergedSpendLimits(
  before: AgentProfile['limits'],
  patch: UpdateAgentInput['limits'],
): NonNullable<AgentProfile['limits']>['spend'] {
  const current = before?.spend ?? {};
  if (patch === null || patch?.spend === null) return {};
  if (patch === undefined || patch.spend === undefined) return current;
  return storedSpendLimits({ ...current, ...patch.spend });
}

/** Stored only when there are some, so agents without knowledge bases keep their stored shape. */
function knowledgeBasesOf(ids: string[]): { knowledgeBases?: string[] } {
  return ids.length > 0 ? { knowledgeBases: ids } : {};
}

/** `null` means "back to the default", `undefined` means "leave as is". */
function merged<T>(patch: T | null | undefined, current: T, fallback: T): T {
  if (patch === undefined) return current;
  return patch === null ? fallback : patch;
}

function mergeModel(
  deps: ServiceDeps,
  agentId: string,
  current: AgentProfile['model'],
  patch: NonNullable<UpdateAgentInput['model']>,
) {
  const next: AgentProfile['model'] = { ...current };
  if (patch.provider !== undefined) next.provider = patch.provider;
  if (patch.name !== undefined) next.name = patch.name;
  for (const field of ['temperature', 'maxOutputTokens', 'topP', 'maxSteps'] as const) {
    const value = patch[field];
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  if (patch.apiKey === null) delete next.apiKey;
  else if (patch.apiKey !== undefined && patch.apiKey !== current.apiKey?.mask) {
    next.apiKey = { sealed: deps.secretBox.seal(patch.apiKey, agentId), mask: maskSecret(patch.apiKey) };
  } else if (current.apiKey !== undefined && next.provider !== current.provider) {
    // The provider decides where the key is sent: as with plugin secrets (entry-secrets.ts), a key kept by its
    // mask or by leaving it out never follows a change of destination.
    throw validationError(
      '/body/model/apiKey',
      "must be given again (or null): the model's provider changed, and a kept key is not sent to another provider",
    );
  }
  return next;
}

export interface PatchedAgent {
  name: string;
  status: AgentRecord['status'];
  statusReason: string | null;
  deletionProtection: boolean;
  profile: AgentProfile;
}

/** Applies a JSON Merge Patch to an agent, with the status rules of the contract (§7). */
export function applyAgentPatch(deps: ServiceDeps, current: AgentRecord, patch: UpdateAgentInput): PatchedAgent {
  const before = current.profile;
  const personalityPatch = patch.personality;
  const goalsPatch = patch.goals;
  const pluginSecretProblems: SecretProblem[] = [];
  const platformSecretProblems: SecretProblem[] = [];

  let metadata = before.metadata;
  if (patch.metadata === null) metadata = {};
  else if (patch.metadata !== undefined) {
    metadata = { ...before.metadata };
    for (const [key, value] of Object.entries(patch.metadata)) {
      if (value === null) delete metadata[key];
      else metadata[key] = value;
    }
  }

  const profile: AgentProfile = {
    bio: patch.bio === undefined ? before.bio : bioList(patch.bio),
    personality:
      personalityPatch === null
        ? { traits: [], style: [], tone: null }
        : personalityPatch === undefined
          ? before.personality
          : {
              traits: merged(personalityPatch.traits, before.personality.traits, []),
              style: merged(personalityPatch.style, before.personality.style, []),
              tone: merged(personalityPatch.tone, before.personality.tone, null),
            },
    system: merged(patch.system, before.system, null),
    expertise: merged(patch.expertise, before.expertise, []),
    knowledge: merged(patch.knowledge, before.knowledge, []),
    ...knowledgeBasesOf(merged(patch.knowledgeBases, before.knowledgeBases ?? [], [])),
    goals:
      goalsPatch === null
        ? { objectives: [], motivations: [] }
        : goalsPatch === undefined
          ? before.goals
          : {
              objectives: merged(goalsPatch.objectives, before.goals.objectives, []),
              motivations: merged(goalsPatch.motivations, before.goals.motivations, []),
            },
    platforms:
      patch.platforms === undefined
        ? before.platforms
        : platforms(deps, current.id, patch.platforms ?? [], before.platforms, platformSecretProblems),
    plugins:
      patch.plugins === undefined
        ? before.plugins
        : plugins(deps, current.id, patch.plugins ?? [], before.plugins, pluginSecretProblems),
    model:
      patch.model === undefined
        ? before.model
        : patch.model === null
          ? { ...deps.providers.defaultModel }
          : mergeModel(deps, current.id, before.model, patch.model),
    metadata,
    memory: patch.memory === undefined ? memorySettingsOf(before) : mergeMemory(memorySettingsOf(before), patch.memory),
    ...mcpOf(patch.mcp === undefined ? (before.mcp?.exposed ?? false) : (patch.mcp?.exposed ?? false)),
    ...limitsOf(mergedSpendLimits(before.limits, patch.limits)),
  };
  checkProfile(deps, profile);
  // Only entries sent now are checked: an agent stored before a plugin was withdrawn can still be patched.
  if (patch.plugins) checkPlugins(deps, patch.plugins, profile.plugins, pluginSecretProblems);
  if (patch.platforms) checkPlatforms(deps, patch.platforms, profile.platforms, platformSecretProblems);

  let status = current.status;
  let statusReason = current.statusReason;
  if (patch.status !== undefined) {
    status = patch.status ?? 'active';
    statusReason = null;
  } else if (patch.model !== undefined && current.status === 'error') {
    // A new model is the owner's answer to a model fault: try again.
    status = 'active';
    statusReason = null;
  }

  return {
    name: patch.name ?? current.name,
    status,
    statusReason,
    deletionProtection: merged(patch.deletionProtection, current.deletionProtection, false),
    profile,
  };
}

/**
 * Views of records shared between requests (frozen ones, from the read cache),
 * built once per record and frozen themselves, which also lets the response
 * serializer write each of them once.
 */
const sharedViews = new WeakMap<AgentRecord, Agent>();

export function toAgentView(record: AgentRecord): Agent {
  if (!Object.isFrozen(record)) return buildAgentView(record);
  let view = sharedViews.get(record);
  if (view === undefined) {
    view = Object.freeze(buildAgentView(record));
    sharedViews.set(record, view);
  }
  return view;
}

function buildAgentView(record: AgentRecord): Agent {
  const { profile } = record;
  const { apiKey, ...model } = profile.model;
  return {
    id: record.id,
    name: record.name,
    status: record.status,
    statusReason: record.statusReason,
    bio: profile.bio,
    personality: profile.personality,
    system: profile.system,
    expertise: profile.expertise,
    knowledge: profile.knowledge,
    knowledgeBases: profile.knowledgeBases ?? [],
    goals: profile.goals,
    platforms: profile.platforms.map((platform) => ({ ...platform, secrets: maskSecrets(platform.secrets) })),
    plugins: profile.plugins.map((plugin) => ({ ...plugin, secrets: maskSecrets(plugin.secrets) })),
    model: apiKey ? { ...model, apiKey: apiKey.mask } : model,
    deletionProtection: record.deletionProtection,
    metadata: profile.metadata,
    memory: memorySettingsOf(profile),
    mcp: { exposed: profile.mcp?.exposed === true },
    limits: { spend: spendLimitsView(profile.limits?.spend) },
    version: record.version,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
