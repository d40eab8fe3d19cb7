import { AppError, describeFieldErrors, validationError } from '../../errors.js';
import { CreateAgentBody, limits, type CreateAgentInput } from '../../schemas/agents.js';
import type { Character, ImportReportValue } from '../../schemas/character.js';
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../schemas/json-schema-validator.js';
import {
  agentdPluginOf,
  apiKeyVariableOf,
  builtInElizaPlugins,
  modelSettingOf,
  platformOfClient,
  platformSecretOf,
  providerOf,
} from './character-names.js';

/** What the mapping needs to know about this server. */
export interface ImportEnvironment {
  offeredPlugins: readonly string[];
  /** True when the plugin can be attached with its defaults alone (no required config or secrets). */
  pluginWorksWithoutConfig(name: string): boolean;
  providerEnabled(provider: string): boolean;
  defaultModel: { provider: string; name: string };
  allowAgentModelKeys: boolean;
  /** Whether a platform's connector takes a secret of that name (a type this server lacks takes any). */
  platformTakesSecret(type: string, secret: string): boolean;
}

export interface CharacterMapping {
  input: CreateAgentInput;
  report: ImportReportValue;
}

type Platform = NonNullable<CreateAgentInput['platforms']>[number];
type Plugin = NonNullable<CreateAgentInput['plugins']>[number];
type Model = NonNullable<CreateAgentInput['model']>;

const reportedFields: Record<string, string> = {
  id: 'agentd assigns its own ids',
  username: 'agentd agents have no username; platform handles belong to each platform',
  messageExamples: 'agentd has no example conversations; put the voice they show in style or system',
  postExamples: 'agentd does not post on its own',
  templates: "ElizaOS prompt templates do not apply to agentd's prompt",
};

const knownFields = new Set([
  'name',
  'system',
  'bio',
  'lore',
  'topics',
  'adjectives',
  'knowledge',
  'plugins',
  'clients',
  'modelProvider',
  'settings',
  'secrets',
  'style',
  ...Object.keys(reportedFields),
]);
const knownSettings = new Set(['secrets', 'model', 'modelConfig', 'agentd']);

/** Splits a text longer than an agent's knowledge item at the last whitespace before the limit. */
export function splitKnowledgeText(text: string, maxLength: number = limits.text): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > maxLength) {
    const window = rest.slice(0, maxLength);
    const breakAt = Math.max(window.lastIndexOf('\n'), window.lastIndexOf(' '));
    const cut = breakAt > maxLength / 2 ? breakAt : maxLength;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

class Report {
  readonly mapped: string[] = [];
  readonly unmapped: Array<{ field: string; reason: string }> = [];
  map(field: string): void {
    if (!this.mapped.includes(field)) this.mapped.push(field);
  }
  skip(field: string, reason: string): void {
    this.unmapped.push({ field, reason });
  }
}

function bioOf(character: Character, report: Report): string[] {
  const bio = typeof character.bio === 'string' ? (character.bio === '' ? [] : [character.bio]) : (character.bio ?? []);
  if (character.bio !== undefined) report.map('bio');
  if (character.lore !== undefined) report.map('lore');
  const all = [...bio, ...(character.lore ?? [])];
  if (all.length > limits.arrayItems) {
    throw validationError('/body/lore', `together with bio must hold at most ${limits.arrayItems} items`);
  }
  return all;
}

function styleOf(character: Character, report: Report): string[] | undefined {
  const style = character.style;
  if (style === undefined) return undefined;
  if (style.all !== undefined) report.map('style.all');
  if (style.chat !== undefined) report.map('style.chat');
  if (style.post !== undefined && style.post.length > 0) report.skip('style.post', 'agentd does not post on its own');
  for (const key of Object.keys(style)) {
    if (!['all', 'chat', 'post'].includes(key)) report.skip(`style.${key}`, 'not an ElizaOS style agentd knows');
  }
  const lines = [...(style.all ?? []), ...(style.chat ?? [])];
  if (lines.length > limits.arrayItems) {
    throw validationError('/body/style/chat', `together with style.all must hold at most ${limits.arrayItems} items`);
  }
  return lines;
}

function knowledgeOf(character: Character, report: Report): CreateAgentInput['knowledge'] {
  if (character.knowledge === undefined) return undefined;
  const items: string[] = [];
  for (const [index, item] of character.knowledge.entries()) {
    if (typeof item === 'string') {
      items.push(...splitKnowledgeText(item));
      report.map('knowledge');
    } else {
      const where = 'path' in item ? 'a file' : 'a directory';
      report.skip(
        `knowledge[${index}]`,
        `${where} on the ElizaOS host, which agentd cannot read; send its text as a knowledge item instead`,
      );
    }
  }
  if (items.length > limits.arrayItems) {
    throw validationError(
      '/body/knowledge',
      `maps to ${items.length} items (texts are split every ${limits.text} characters); an agent holds at most ${limits.arrayItems}`,
    );
  }
  return items;
}

interface Connections {
  platforms: Platform[];
  plugins: Plugin[];
  /** Providers the character asks for, in order, with the field that named each. */
  providers: Array<{ provider: string; field: string }>;
}

function connectionsOf(character: Character, environment: ImportEnvironment, report: Report): Connections {
  const platforms: Platform[] = [];
  const plugins: Plugin[] = [];
  const providers: Connections['providers'] = [];
  const addPlatform = (type: string, field: string) => {
    if (!platforms.some((platform) => platform.type === type)) platforms.push({ type, enabled: true });
    report.map(field);
  };

  if (character.modelProvider !== undefined) {
    const provider = providerOf(character.modelProvider);
    if (provider) providers.push({ provider, field: 'modelProvider' });
    else report.skip('modelProvider', `agentd has no "${character.modelProvider}" provider; the default model is used`);
  }
  for (const [index, client] of (character.clients ?? []).entries()) {
    const field = `clients[${index}]`;
    const type = platformOfClient(client);
    if (type) addPlatform(type, field);
    else if (client.toLowerCase() === 'direct') report.skip(field, "agentd's HTTP API is its direct client already");
    else report.skip(field, `agentd has no "${client}" platform`);
  }
  for (const [index, name] of (character.plugins ?? []).entries()) {
    const field = `plugins[${index}]`;
    const platform = platformOfClient(name);
    const provider = providerOf(name);
    const agentdPlugin = agentdPluginOf(name, environment.offeredPlugins);
    if (name.startsWith('@elizaos/plugin-') && platform) addPlatform(platform, field);
    else if (name.startsWith('@elizaos/plugin-') && provider) providers.push({ provider, field });
    else if (agentdPlugin && environment.pluginWorksWithoutConfig(agentdPlugin)) {
      if (!plugins.some((plugin) => plugin.name === agentdPlugin)) plugins.push({ name: agentdPlugin, enabled: true });
      report.map(field);
    } else if (agentdPlugin) {
      report.skip(field, `agentd's ${agentdPlugin} plugin needs a config; add it with PATCH after the import`);
    } else report.skip(field, builtInElizaPlugins[name] ?? `agentd has no plugin like ${name}`);
  }
  return { platforms, plugins, providers };
}

function modelOf(
  character: Character,
  providers: Connections['providers'],
  environment: ImportEnvironment,
  report: Report,
): Model | undefined {
  const settings = character.settings ?? {};
  let model: Model | undefined;
  for (const { provider, field } of providers) {
    if (model !== undefined) {
      report.skip(field, `the agent's model is already from ${model.provider}`);
      continue;
    }
    if (!environment.providerEnabled(provider)) {
      report.skip(field, `provider ${provider} is not enabled on this server; the default model is used`);
      continue;
    }
    const modelSetting = modelSettingOf(provider);
    const namedBySetting = modelSetting !== undefined ? (settings as Record<string, unknown>)[modelSetting] : undefined;
    if (typeof settings.model === 'string' && settings.model.length > 0) {
      model = { provider, name: settings.model };
      report.map('settings.model');
    } else if (typeof namedBySetting === 'string' && namedBySetting.length > 0 && namedBySetting.length <= 200) {
      model = { provider, name: namedBySetting };
      report.map(`settings.${modelSetting}`);
    } else if (environment.defaultModel.provider === provider) {
      model = { ...environment.defaultModel };
    } else {
      report.skip(field, `names no ${provider} model; the default model is used`);
      continue;
    }
    report.map(field);
  }
  if (model === undefined && settings.model !== undefined) {
    report.skip('settings.model', 'names no provider agentd offers; the default model is used');
  }
  const config = settings.modelConfig;
  if (config?.temperature !== undefined || config?.maxOutputTokens !== undefined) {
    model ??= { ...environment.defaultModel };
    if (config.temperature !== undefined) model.temperature = config.temperature;
    if (config.maxOutputTokens !== undefined) model.maxOutputTokens = config.maxOutputTokens;
    report.map('settings.modelConfig');
  }
  return model;
}

/**
 * Applies the `settings.agentd` extension: its fields win over what the
 * character's own fields mapped to; platforms and plugins it lists come
 * first, followed by those the character names that it does not.
 */
function withExtension(input: CreateAgentInput, character: Character, environment: ImportEnvironment, report: Report) {
  const extension = character.settings?.agentd;
  if (extension === undefined) return input;
  report.map('settings.agentd');
  const { personality, platforms, plugins, model, ...rest } = extension;
  const merged: CreateAgentInput = { ...input, ...rest };
  if (personality !== undefined) merged.personality = { ...input.personality, ...personality };
  if (platforms !== undefined) {
    const listed = new Set(platforms.map((platform) => platform.type));
    // Copies: secrets are attached to these entries next, and the character itself stays as sent.
    merged.platforms = [
      ...platforms.map((platform) => ({ ...platform })),
      ...(input.platforms ?? []).filter((platform) => !listed.has(platform.type)),
    ];
  }
  if (plugins !== undefined) {
    const listed = new Set(plugins.map((plugin) => plugin.name));
    merged.plugins = [...plugins, ...(input.plugins ?? []).filter((plugin) => !listed.has(plugin.name))];
  }
  if (model !== undefined) {
    if (environment.providerEnabled(model.provider)) merged.model = model;
    else {
      report.skip(
        'settings.agentd.model',
        `provider ${model.provider} is not enabled on this server; the default model is used`,
      );
    }
  }
  return merged;
}

function secretsOf(character: Character): Array<{ field: string; variable: string; value: string }> {
  const found: Array<{ field: string; variable: string; value: string }> = [];
  for (const [source, secrets] of [
    ['settings.secrets', character.settings?.secrets],
    ['secrets', character.secrets],
  ] as const) {
    for (const [variable, value] of Object.entries(secrets ?? {})) {
      found.push({ field: `${source}.${variable}`, variable, value: String(value) });
    }
  }
  return found;
}

/** Puts each secret where agentd keeps it; reasons name the secret, never its value. */
function attachSecrets(input: CreateAgentInput, character: Character, environment: ImportEnvironment, report: Report) {
  for (const { field, variable, value } of secretsOf(character)) {
    if (value === '') {
      report.skip(field, 'has no value; set it on the agent after the import');
      continue;
    }
    const target = platformSecretOf(variable);
    const modelProvider = input.model?.provider ?? environment.defaultModel.provider;
    if (target) {
      const platform = input.platforms?.find((entry) => entry.type === target.platform);
      if (!platform) report.skip(field, `the character connects no ${target.platform} platform to use it`);
      else if (!environment.platformTakesSecret(target.platform, target.secret)) {
        report.skip(field, `agentd's ${target.platform} connector has no secret ${target.secret}`);
      } else {
        platform.secrets = { ...platform.secrets, [target.secret]: value };
        report.map(field);
      }
    } else if (apiKeyVariableOf(modelProvider) === variable) {
      if (environment.allowAgentModelKeys) {
        input.model = { ...(input.model ?? environment.defaultModel), apiKey: value };
        report.map(field);
      } else report.skip(field, 'per-agent model keys are disabled on this server; the server key is used');
    } else report.skip(field, 'no platform or model of the agent uses it');
  }
}

function reportOthers(character: Character, report: Report): void {
  for (const [field, reason] of Object.entries(reportedFields)) {
    if ((character as Record<string, unknown>)[field] !== undefined) report.skip(field, reason);
  }
  for (const field of Object.keys(character)) {
    if (!knownFields.has(field)) report.skip(field, 'not a character field agentd maps');
  }
  const settings = character.settings ?? {};
  const providerSettings = new Set(
    ['openai', 'anthropic', 'ollama'].map((provider) => modelSettingOf(provider) as string),
  );
  for (const key of Object.keys(settings)) {
    if (knownSettings.has(key) || (providerSettings.has(key) && report.mapped.includes(`settings.${key}`))) continue;
    report.skip(`settings.${key}`, 'an ElizaOS runtime setting agentd has no counterpart for');
  }
}

// Ajv, as for request bodies: the agent schemas hold `Unsafe` enums TypeBox's own compiler does not know.
// Compiled on the first import (80 ms), not when the server loads this module.
let createBodyCheck: ValidateFunction<CreateAgentInput> | undefined;

/**
 * The character's own schema bounds each field as the agent field it becomes;
 * what is left (a combination that breaks a rule of the agent body) is a 400
 * naming the agent field, as no single character field is at fault.
 */
function checkMapped(input: CreateAgentInput): void {
  createBodyCheck ??= newAjv({ allErrors: true, strict: false }).compile<CreateAgentInput>(CreateAgentBody);
  if (createBodyCheck(input)) return;
  const problems = (createBodyCheck.errors ?? []).slice(0, 20).map((error) => ({
    path: '/body',
    message: `maps to an agent whose ${error.instancePath.slice(1).replaceAll('/', '.') || 'body'} ${error.message ?? 'is invalid'}`,
  }));
  if (problems.length > 0) {
    throw new AppError('validation_failed', describeFieldErrors(problems), { errors: problems });
  }
}

/**
 * An ElizaOS character as the body of an agent create, and what of it could
 * not be carried over. The body still goes through createAgent, which applies
 * every rule of a create; this only decides where each field goes.
 */
export function characterToAgent(character: Character, environment: ImportEnvironment): CharacterMapping {
  const report = new Report();
  report.map('name');
  const input: CreateAgentInput = { name: character.name };
  const bio = bioOf(character, report);
  if (bio.length > 0) input.bio = bio;
  if (character.system !== undefined) {
    input.system = character.system;
    report.map('system');
  }
  const style = styleOf(character, report);
  if (character.adjectives !== undefined || style !== undefined) {
    input.personality = {
      ...(character.adjectives !== undefined ? { traits: character.adjectives } : {}),
      ...(style !== undefined ? { style } : {}),
    };
    if (character.adjectives !== undefined) report.map('adjectives');
  }
  if (character.topics !== undefined) {
    input.expertise = character.topics;
    report.map('topics');
  }
  const knowledge = knowledgeOf(character, report);
  if (knowledge !== undefined) input.knowledge = knowledge;

  const connections = connectionsOf(character, environment, report);
  if (connections.platforms.length > 0) input.platforms = connections.platforms;
  if (connections.plugins.length > 0) input.plugins = connections.plugins;
  const model = modelOf(character, connections.providers, environment, report);
  if (model !== undefined) input.model = model;

  const complete = withExtension(input, character, environment, report);
  attachSecrets(complete, character, environment, report);
  reportOthers(character, report);
  checkMapped(complete);
  return { input: complete, report: { mapped: report.mapped, unmapped: report.unmapped } };
}
