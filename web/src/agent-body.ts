import type { Agent } from './api.js';

/**
 * The agent form's state and the request bodies built from it: a create body
 * (only what was filled in) or a JSON Merge Patch (RFC 7396: everything the
 * form shows, null for what was cleared). Secrets are write-only: the form
 * holds the masked value the server gave, and sending that back keeps the
 * stored secret (README, "A walk through the API").
 */

export interface SecretRow {
  name: string;
  /** A new value typed in; empty keeps the stored one. */
  value: string;
  /** The masked value the server gave, when the secret is stored. */
  masked: string | null;
}

export interface ExtensionRow {
  /** The plugin's name or the platform's type. */
  name: string;
  enabled: boolean;
  /** `config` of a plugin, `settings` of a platform: JSON text. */
  json: string;
  secrets: SecretRow[];
}

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
  knowledge: string;
  metadata: string;
  deletionProtection: boolean;
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
const json = (value: unknown) => JSON.stringify(value, null, 2);

function secretRows(secrets: Record<string, string>): SecretRow[] {
  return Object.entries(secrets).map(([name, masked]) => ({ name, value: '', masked }));
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
    knowledge: '[]',
    metadata: '{}',
    deletionProtection: false,
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

export function formOf(agent: Agent): AgentFormState {
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
    knowledge: json(agent.knowledge),
    metadata: json(agent.metadata),
    deletionProtection: agent.deletionProtection,
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
    plugins: agent.plugins.map((plugin) => ({
      name: plugin.name,
      enabled: plugin.enabled,
      json: json(plugin.config),
      secrets: secretRows(plugin.secrets),
    })),
    platforms: agent.platforms.map((platform) => ({
      name: platform.type,
      enabled: platform.enabled,
      json: json(platform.settings),
      secrets: secretRows(platform.secrets),
    })),
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

function parsedJson(text: string, path: string, errors: FieldError[], fallback: unknown): unknown {
  if (text.trim() === '') return fallback;
  try {
    return JSON.parse(text);
  } catch {
    errors.push({ path, message: 'is not valid JSON' });
    return fallback;
  }
}

function secretsOf(rows: SecretRow[]): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) continue;
    const value = row.value !== '' ? row.value : row.masked;
    if (value) secrets[name] = value;
  }
  return secrets;
}

function extensionsOf(rows: ExtensionRow[], kind: 'plugins' | 'platforms', errors: FieldError[]) {
  return rows.map((row, index) => {
    const settings = parsedJson(
      row.json,
      `/${kind}/${index}/${kind === 'plugins' ? 'config' : 'settings'}`,
      errors,
      {},
    );
    const secrets = secretsOf(row.secrets);
    return kind === 'plugins'
      ? { name: row.name.trim(), enabled: row.enabled, config: settings, secrets }
      : { type: row.name.trim(), enabled: row.enabled, settings, secrets };
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

export function createBody(form: AgentFormState): Record<string, unknown> {
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
  const knowledge = parsedJson(form.knowledge, '/knowledge', errors, []);
  if (!Array.isArray(knowledge) || knowledge.length) body.knowledge = knowledge;
  const metadata = parsedJson(form.metadata, '/metadata', errors, {});
  if (typeof metadata !== 'object' || metadata === null || Object.keys(metadata).length) body.metadata = metadata;
  if (form.deletionProtection) body.deletionProtection = true;
  if (form.model.provider.trim() || form.model.name.trim()) body.model = modelOf(form, errors, false);
  if (form.plugins.length) body.plugins = extensionsOf(form.plugins, 'plugins', errors);
  if (form.platforms.length) body.platforms = extensionsOf(form.platforms, 'platforms', errors);
  if (errors.length) throw new FormErrors(errors);
  return body;
}

export function patchBody(form: AgentFormState, agent: Agent): Record<string, unknown> {
  const errors: FieldError[] = [];
  const metadata = parsedJson(form.metadata, '/metadata', errors, {});
  // Keys that were removed are deleted with null (RFC 7396).
  const metadataPatch =
    typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
      ? {
          ...Object.fromEntries(Object.keys(agent.metadata).map((key) => [key, null])),
          ...(metadata as Record<string, unknown>),
        }
      : metadata;
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
    knowledge: parsedJson(form.knowledge, '/knowledge', errors, []),
    metadata: metadataPatch,
    deletionProtection: form.deletionProtection,
    model: form.model.provider.trim() || form.model.name.trim() ? modelOf(form, errors, true) : null,
    plugins: extensionsOf(form.plugins, 'plugins', errors),
    platforms: extensionsOf(form.platforms, 'platforms', errors),
  };
  // `error` is set by the service only: the status is sent when it was changed here.
  if (form.status !== agent.status) body.status = form.status;
  if (errors.length) throw new FormErrors(errors);
  return body;
}
