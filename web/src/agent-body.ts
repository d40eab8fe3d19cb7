import type { Agent } from './api.js';
import { kindIn, type ExtensionCatalog, type ExtensionKind } from './extension-catalog.js';
import { draftOf, secretRowsOf, secretsOf, valueOf, type Draft, type SecretRow } from './ui/schema-form/index.js';

export type { SecretRow };

/**
 * The agent form's state and the request bodies built from it: a create body
 * (only what was filled in) or a JSON Merge Patch (RFC 7396: everything the
 * form shows, null for what was cleared). Secrets are write-only: the form
 * holds the masked value the server gave, and sending that back keeps the
 * stored secret (README, "A walk through the API").
 */

/** One plugin or platform entry: the kind chosen from the server's catalog and the drafts of its forms. */
export interface ExtensionRow {
  /** The plugin's name or the platform's type; empty until one is chosen. */
  name: string;
  enabled: boolean;
  /** `config` of a plugin, `settings` of a platform, as its schema's form edits it. */
  settings: Draft;
  secrets: SecretRow[];
  /** A plugin's approval setting, kept as it is (the form does not edit it). */
  approval?: unknown;
}

/** A knowledge item: a text, or a text with a title. */
export interface KnowledgeRow {
  title: string;
  content: string;
}

export interface MetadataRow {
  key: string;
  value: string;
}

/** Memory settings as typed: switches, and numbers as text (empty: the server's default). */
export interface MemoryForm {
  summary: boolean;
  facts: boolean;
  recall: boolean;
  historyTokens: string;
  summaryTokens: string;
  factsTokens: string;
  recallTokens: string;
  everyUserTurns: string;
  idleSeconds: string;
}

export const memoryBudgetNames = ['historyTokens', 'summaryTokens', 'factsTokens', 'recallTokens'] as const;
export const memoryScheduleNames = ['everyUserTurns', 'idleSeconds'] as const;
export const spendLimitNames = ['tokensPerDay', 'tokensPerMonth', 'costPerDay', 'costPerMonth'] as const;
export type SpendLimitName = (typeof spendLimitNames)[number];

export interface AgentFormState {
  name: string;
  status: string;
  bio: string;
  traits: string;
  style: string;
  tone: string;
  system: string;
  expertise: string;
  objectives: string;
  motivations: string;
  knowledge: KnowledgeRow[];
  metadata: MetadataRow[];
  deletionProtection: boolean;
  /** Ids of the account's knowledge bases the agent retrieves from. */
  knowledgeBases: string[];
  memory: MemoryForm;
  /** Offered as its own `ask_<name>` tool on the MCP server. */
  mcpExposed: boolean;
  /** The agent's own spend limits as typed (empty: none). */
  spend: Record<SpendLimitName, string>;
  model: {
    provider: string;
    name: string;
    temperature: string;
    maxOutputTokens: string;
    topP: string;
    maxSteps: string;
    apiKey: string;
    apiKeyMasked: string | null;
  };
  plugins: ExtensionRow[];
  platforms: ExtensionRow[];
}

const lines = (list: string[]) => list.join('\n');

/** A new entry of a kind: its settings at the schema's defaults, a field for each secret it names. */
export function newExtensionRow(kind: ExtensionKind | null): ExtensionRow {
  return kind
    ? {
        name: kind.name,
        enabled: true,
        settings: draftOf(kind.settingsSchema, undefined),
        secrets: secretRowsOf(kind.secretsSchema, {}),
      }
    : { name: '', enabled: true, settings: {}, secrets: [] };
}

function extensionRowOf(
  kinds: ExtensionKind[],
  entry: { name: string; enabled: boolean; settings: unknown; secrets: Record<string, string>; approval?: unknown },
): ExtensionRow {
  const kind = kindIn(kinds, entry.name);
  return {
    name: entry.name,
    enabled: entry.enabled,
    settings: draftOf(kind.settingsSchema, entry.settings),
    secrets: secretRowsOf(kind.secretsSchema, entry.secrets),
    ...(entry.approval === undefined ? {} : { approval: entry.approval }),
  };
}

export function emptyForm(): AgentFormState {
  return {
    name: '',
    status: 'active',
    bio: '',
    traits: '',
    style: '',
    tone: '',
    system: '',
    expertise: '',
    objectives: '',
    motivations: '',
    knowledge: [],
    metadata: [],
    deletionProtection: false,
    knowledgeBases: [],
    memory: {
      summary: true,
      facts: true,
      recall: true,
      historyTokens: '',
      summaryTokens: '',
      factsTokens: '',
      recallTokens: '',
      everyUserTurns: '',
      idleSeconds: '',
    },
    mcpExposed: false,
    spend: { tokensPerDay: '', tokensPerMonth: '', costPerDay: '', costPerMonth: '' },
    model: {
      provider: '',
      name: '',
      temperature: '',
      maxOutputTokens: '',
      topP: '',
      maxSteps: '',
      apiKey: '',
      apiKeyMasked: null,
    },
    plugins: [],
    platforms: [],
  };
}

const nullableNumber = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export function formOf(agent: Agent, catalog: ExtensionCatalog): AgentFormState {
  const number = (value: number | undefined) => (value === undefined ? '' : String(value));
  return {
    name: agent.name,
    status: agent.status,
    bio: lines(agent.bio),
    traits: lines(agent.personality.traits),
    style: lines(agent.personality.style),
    tone: agent.personality.tone ?? '',
    system: agent.system ?? '',
    expertise: lines(agent.expertise),
    objectives: lines(agent.goals.objectives),
    motivations: lines(agent.goals.motivations),
    knowledge: agent.knowledge.map((item) =>
      typeof item === 'string' ? { title: '', content: item } : { title: item.title ?? '', content: item.content },
    ),
    metadata: Object.entries(agent.metadata).map(([key, value]) => ({ key, value: String(value) })),
    deletionProtection: agent.deletionProtection,
    knowledgeBases: [...agent.knowledgeBases],
    memory: {
      summary: agent.memory.summary,
      facts: agent.memory.facts,
      recall: agent.memory.recall,
      historyTokens: nullableNumber(agent.memory.budgets.historyTokens),
      summaryTokens: String(agent.memory.budgets.summaryTokens),
      factsTokens: String(agent.memory.budgets.factsTokens),
      recallTokens: String(agent.memory.budgets.recallTokens),
      everyUserTurns: String(agent.memory.schedule.everyUserTurns),
      idleSeconds: String(agent.memory.schedule.idleSeconds),
    },
    mcpExposed: agent.mcp.exposed,
    spend: {
      tokensPerDay: nullableNumber(agent.limits.spend.tokensPerDay),
      tokensPerMonth: nullableNumber(agent.limits.spend.tokensPerMonth),
      costPerDay: nullableNumber(agent.limits.spend.costPerDay),
      costPerMonth: nullableNumber(agent.limits.spend.costPerMonth),
    },
    model: {
      provider: agent.model.provider,
      name: agent.model.name,
      temperature: number(agent.model.temperature),
      maxOutputTokens: number(agent.model.maxOutputTokens),
      topP: number(agent.model.topP),
      maxSteps: number(agent.model.maxSteps),
      apiKey: '',
      apiKeyMasked: agent.model.apiKey ?? null,
    },
    plugins: agent.plugins.map((plugin) => extensionRowOf(catalog.plugins, { ...plugin, settings: plugin.config })),
    platforms: agent.platforms.map((platform) =>
      extensionRowOf(catalog.platforms, { ...platform, name: platform.type }),
    ),
  };
}

export interface FieldError {
  /** JSON pointer into the body, as the server's problems give it without `/body`. */
  path: string;
  message: string;
}

/** Thrown while building a body from text the form could not read (JSON, numbers). */
export class FormErrors extends Error {
  constructor(readonly errors: FieldError[]) {
    super('The form has errors.');
  }
}

function listOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Numbers are passed on as typed: a value the server refuses comes back as a problem at its field. */
function numberOf(text: string, path: string, errors: FieldError[]): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) {
    errors.push({ path, message: 'must be a number' });
    return null;
  }
  return value;
}

/** Items with no content are left out; an item without a title is sent as its text alone. */
function knowledgeOf(rows: KnowledgeRow[]): unknown[] {
  return rows
    .filter((row) => row.title.trim() !== '' || row.content.trim() !== '')
    .map((row) => (row.title.trim() ? { title: row.title.trim(), content: row.content } : row.content));
}

/** Rows without a key are left out (an entry being typed); values are sent as typed. */
function metadataOf(rows: MetadataRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => row.key.trim() !== '').map((row) => [row.key.trim(), row.value]));
}

function extensionsOf(
  rows: ExtensionRow[],
  kind: 'plugins' | 'platforms',
  catalog: ExtensionCatalog,
  errors: FieldError[],
) {
  return rows.map((row, index) => {
    const settingsField = kind === 'plugins' ? 'config' : 'settings';
    const schema = kindIn(catalog[kind], row.name).settingsSchema;
    const settings = valueOf(schema, row.settings, `/${kind}/${index}/${settingsField}`, errors) ?? {};
    const secrets = secretsOf(row.secrets);
    return kind === 'plugins'
      ? {
          name: row.name,
          enabled: row.enabled,
          config: settings,
          secrets,
          ...(row.approval === undefined ? {} : { approval: row.approval }),
        }
      : { type: row.name, enabled: row.enabled, settings, secrets };
  });
}

function modelOf(form: AgentFormState, errors: FieldError[], patch: boolean) {
  const model = form.model;
  const numbers = {
    temperature: numberOf(model.temperature, '/model/temperature', errors),
    maxOutputTokens: numberOf(model.maxOutputTokens, '/model/maxOutputTokens', errors),
    topP: numberOf(model.topP, '/model/topP', errors),
    maxSteps: numberOf(model.maxSteps, '/model/maxSteps', errors),
  };
  const body: Record<string, unknown> = { provider: model.provider.trim(), name: model.name.trim() };
  for (const [name, value] of Object.entries(numbers)) {
    // In a merge patch null resets the setting; in a create body it is left out.
    if (value !== null || patch) body[name] = value;
  }
  if (model.apiKey !== '') body.apiKey = model.apiKey;
  return body;
}

/**
 * What of the memory settings changed from `stored` (the agent's as loaded,
 * or the empty form's defaults for a new agent): only that is sent, so saving
 * the form for another field does not pin the defaults the form shows as the
 * agent's own values. An emptied number is null: back to the default.
 */
function memoryOf(memory: MemoryForm, stored: MemoryForm, errors: FieldError[]): Record<string, unknown> | null {
  const body: Record<string, unknown> = {};
  for (const name of ['summary', 'facts', 'recall'] as const) {
    if (memory[name] !== stored[name]) body[name] = memory[name];
  }
  const changed = (names: readonly (keyof MemoryForm)[], group: string) => {
    const values: Record<string, unknown> = {};
    for (const name of names) {
      if (String(memory[name]).trim() === String(stored[name]).trim()) continue;
      values[name] = numberOf(String(memory[name]), `/memory/${group}/${name}`, errors);
    }
    if (Object.keys(values).length) body[group] = values;
  };
  changed(memoryBudgetNames, 'budgets');
  changed(memoryScheduleNames, 'schedule');
  return Object.keys(body).length ? body : null;
}

/** The spend limits that changed from `stored`, the same way: an emptied one is null (no limit). */
function spendOf(spend: AgentFormState['spend'], stored: AgentFormState['spend'], errors: FieldError[]) {
  const limits: Record<string, unknown> = {};
  for (const name of spendLimitNames) {
    if (spend[name].trim() === stored[name].trim()) continue;
    limits[name] = numberOf(spend[name], `/limits/spend/${name}`, errors);
  }
  return Object.keys(limits).length ? limits : null;
}

export function createBody(form: AgentFormState, catalog: ExtensionCatalog): Record<string, unknown> {
  const errors: FieldError[] = [];
  const body: Record<string, unknown> = { name: form.name, status: form.status };
  const optionalList = (name: string, text: string) => {
    const list = listOf(text);
    if (list.length) body[name] = list;
  };
  optionalList('bio', form.bio);
  const personality: Record<string, unknown> = {};
  if (listOf(form.traits).length) personality.traits = listOf(form.traits);
  if (listOf(form.style).length) personality.style = listOf(form.style);
  if (form.tone.trim()) personality.tone = form.tone.trim();
  if (Object.keys(personality).length) body.personality = personality;
  if (form.system.trim()) body.system = form.system;
  optionalList('expertise', form.expertise);
  const goals: Record<string, unknown> = {};
  if (listOf(form.objectives).length) goals.objectives = listOf(form.objectives);
  if (listOf(form.motivations).length) goals.motivations = listOf(form.motivations);
  if (Object.keys(goals).length) body.goals = goals;
  const knowledge = knowledgeOf(form.knowledge);
  if (knowledge.length) body.knowledge = knowledge;
  const metadata = metadataOf(form.metadata);
  if (Object.keys(metadata).length) body.metadata = metadata;
  if (form.deletionProtection) body.deletionProtection = true;
  if (form.knowledgeBases.length) body.knowledgeBases = form.knowledgeBases;
  const fresh = emptyForm();
  const memory = memoryOf(form.memory, fresh.memory, errors);
  if (memory) body.memory = memory;
  if (form.mcpExposed) body.mcp = { exposed: true };
  const spend = spendOf(form.spend, fresh.spend, errors);
  if (spend) body.limits = { spend };
  if (form.model.provider.trim() || form.model.name.trim()) body.model = modelOf(form, errors, false);
  if (form.plugins.length) body.plugins = extensionsOf(form.plugins, 'plugins', catalog, errors);
  if (form.platforms.length) body.platforms = extensionsOf(form.platforms, 'platforms', catalog, errors);
  if (errors.length) throw new FormErrors(errors);
  return body;
}

export function patchBody(form: AgentFormState, agent: Agent, catalog: ExtensionCatalog): Record<string, unknown> {
  const errors: FieldError[] = [];
  // Keys that were removed are deleted with null (RFC 7396).
  const metadataPatch = {
    ...Object.fromEntries(Object.keys(agent.metadata).map((key) => [key, null])),
    ...metadataOf(form.metadata),
  };
  const body: Record<string, unknown> = {
    name: form.name,
    bio: listOf(form.bio),
    personality: {
      traits: listOf(form.traits),
      style: listOf(form.style),
      tone: form.tone.trim() || null,
    },
    system: form.system.trim() ? form.system : null,
    expertise: listOf(form.expertise),
    goals: { objectives: listOf(form.objectives), motivations: listOf(form.motivations) },
    knowledge: knowledgeOf(form.knowledge),
    metadata: metadataPatch,
    deletionProtection: form.deletionProtection,
    knowledgeBases: form.knowledgeBases,
    mcp: { exposed: form.mcpExposed },
    model: form.model.provider.trim() || form.model.name.trim() ? modelOf(form, errors, true) : null,
    plugins: extensionsOf(form.plugins, 'plugins', catalog, errors),
    platforms: extensionsOf(form.platforms, 'platforms', catalog, errors),
  };
  const stored = formOf(agent, catalog);
  const memory = memoryOf(form.memory, stored.memory, errors);
  if (memory) body.memory = memory;
  const spend = spendOf(form.spend, stored.spend, errors);
  if (spend) body.limits = { spend };
  // `error` is set by the service only: the status is sent when it was changed here.
  if (form.status !== agent.status) body.status = form.status;
  if (errors.length) throw new FormErrors(errors);
  return body;
}
