import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import type { Agent } from '../../src/schemas/agents.js';
import type { Character } from '../../src/schemas/character.js';
import { agentToCharacter } from '../../src/services/agents/character-export.js';
import {
  characterToAgent,
  splitKnowledgeText,
  type ImportEnvironment,
} from '../../src/services/agents/character-import.js';
import { platformSecretOf, variableOfPlatformSecret } from '../../src/services/agents/character-names.js';
import { repositoryPath } from '../helpers/repository.js';

function fixture(name: string): Character {
  return JSON.parse(fs.readFileSync(repositoryPath('test', 'fixtures', 'characters', name), 'utf8')) as Character;
}

function environment(overrides: Partial<ImportEnvironment> = {}): ImportEnvironment {
  const enabled = ['openai', 'builtin'];
  return {
    offeredPlugins: ['http', 'knowledge', 'clock', 'math', 'mcp'],
    pluginWorksWithoutConfig: (name) => name !== 'mcp',
    providerEnabled: (provider) => enabled.includes(provider),
    defaultModel: { provider: 'openai', name: 'gpt-4o-mini' },
    allowAgentModelKeys: true,
    // As this server's X connector: API credentials only.
    platformTakesSecret: (type, secret) =>
      type !== 'x' || ['appKey', 'appSecret', 'accessToken', 'accessSecret', 'userAccessToken'].includes(secret),
    ...overrides,
  };
}

function reasonFor(report: { unmapped: Array<{ field: string; reason: string }> }, field: string): string | undefined {
  return report.unmapped.find((entry) => entry.field === field)?.reason;
}

describe('character import mapping', () => {
  it('maps a 1.x character with connectors, a provider plugin and secrets', () => {
    const character = fixture('v1-community-manager.json');
    const { input, report } = characterToAgent(character, environment());

    assert.equal(input.name, 'Nova');
    assert.deepEqual(input.bio, character.bio);
    assert.equal(input.system, character.system);
    assert.deepEqual(input.personality, {
      traits: ['warm', 'patient', 'concise', 'upbeat'],
      style: ['keep answers under four sentences', 'link the docs when you can', 'greet newcomers by name'],
    });
    assert.deepEqual(input.expertise, character.topics);
    assert.deepEqual(input.knowledge, (character.knowledge ?? []).slice(0, 2));
    assert.deepEqual(input.platforms, [
      {
        type: 'discord',
        enabled: true,
        secrets: { applicationId: '112233445566778899', botToken: 'MTEyMjMzNDQ1NTY2Nzc4ODk5.discord-secret-9f3c' },
      },
      { type: 'telegram', enabled: true, secrets: { botToken: '7012345678:AAH-telegram-secret-77ab' } },
    ]);
    assert.deepEqual(input.plugins, [{ name: 'knowledge', enabled: true }]);
    assert.deepEqual(input.model, { provider: 'openai', name: 'gpt-4o', apiKey: 'sk-proj-nova-openai-secret-5d1e' });

    for (const field of ['name', 'bio', 'system', 'style.all', 'style.chat', 'adjectives', 'topics', 'knowledge']) {
      assert.ok(report.mapped.includes(field), `${field} is mapped`);
    }
    assert.ok(report.mapped.includes('settings.secrets.DISCORD_API_TOKEN'));
    assert.ok(report.mapped.includes('settings.OPENAI_LARGE_MODEL'));
    assert.match(reasonFor(report, 'knowledge[2]') ?? '', /file on the ElizaOS host/);
    assert.match(reasonFor(report, 'knowledge[3]') ?? '', /directory/);
    assert.match(reasonFor(report, 'plugins[0]') ?? '', /storage/);
    assert.match(reasonFor(report, 'plugins[1]') ?? '', /conversation loop/);
    assert.match(reasonFor(report, 'plugins[6]') ?? '', /no plugin like @elizaos\/plugin-solana/);
    assert.match(reasonFor(report, 'settings.secrets.SOLANA_PRIVATE_KEY') ?? '', /no platform or model/);
    for (const field of ['username', 'messageExamples', 'postExamples', 'style.post', 'settings.avatar']) {
      assert.ok(reasonFor(report, field), `${field} is reported`);
    }
  });

  it('never puts a secret value in the report', () => {
    for (const name of ['v1-community-manager.json', 'v0-trader.json']) {
      const character = fixture(name);
      const secrets = Object.values(character.settings?.secrets ?? {}).filter((value) => value !== '');
      const noModelKeys = characterToAgent(character, environment({ allowAgentModelKeys: false })).report;
      const text = JSON.stringify([characterToAgent(character, environment()).report, noModelKeys]);
      for (const secret of secrets) assert.ok(!text.includes(String(secret)), `${name}: a secret value leaked`);
    }
  });

  it('reports a provider key when per-agent model keys are off, and keeps the provider', () => {
    const { input, report } = characterToAgent(
      fixture('v1-community-manager.json'),
      environment({ allowAgentModelKeys: false }),
    );
    assert.deepEqual(input.model, { provider: 'openai', name: 'gpt-4o' });
    assert.match(reasonFor(report, 'settings.secrets.OPENAI_API_KEY') ?? '', /per-agent model keys are disabled/);
  });

  it('maps an older character with clients, lore and a provider this server lacks', () => {
    const character = fixture('v0-trader.json');
    const { input, report } = characterToAgent(character, environment());

    assert.deepEqual(input.bio, [character.bio, ...(character.lore ?? [])]);
    assert.deepEqual(input.platforms, [
      { type: 'discord', enabled: true },
      { type: 'x', enabled: true },
    ]);
    // ElizaOS 0.x signed in to X with a password; agentd's connector takes API credentials, so they stay behind.
    assert.match(reasonFor(report, 'settings.secrets.TWITTER_USERNAME') ?? '', /x connector has no secret username/);
    assert.match(reasonFor(report, 'settings.secrets.TWITTER_PASSWORD') ?? '', /x connector has no secret password/);
    assert.equal(input.model, undefined, 'the server default model is used');
    assert.match(reasonFor(report, 'modelProvider') ?? '', /anthropic is not enabled/);
    assert.match(reasonFor(report, 'settings.model') ?? '', /default model/);
    assert.match(reasonFor(report, 'clients[1]') ?? '', /direct client/);
    assert.match(reasonFor(report, 'clients[3]') ?? '', /no "auto" platform/);
    assert.match(reasonFor(report, 'settings.secrets.ANTHROPIC_API_KEY') ?? '', /has no value/);
    for (const field of ['people', 'settings.voice', 'templates', 'messageExamples', 'style.post']) {
      assert.ok(reasonFor(report, field), `${field} is reported`);
    }
    assert.ok(report.mapped.includes('lore'));
    assert.ok(report.mapped.includes('clients[2]'));
  });

  it("maps ElizaOS's X API keys to the x connector's secrets, and back", () => {
    assert.deepEqual(platformSecretOf('TWITTER_API_KEY'), { platform: 'x', secret: 'appKey' });
    assert.deepEqual(platformSecretOf('TWITTER_API_SECRET_KEY'), { platform: 'x', secret: 'appSecret' });
    assert.deepEqual(platformSecretOf('TWITTER_ACCESS_TOKEN'), { platform: 'x', secret: 'accessToken' });
    assert.deepEqual(platformSecretOf('TWITTER_ACCESS_TOKEN_SECRET'), { platform: 'x', secret: 'accessSecret' });
    for (const secret of ['appKey', 'appSecret', 'accessToken', 'accessSecret']) {
      const variable = variableOfPlatformSecret('x', secret) as string;
      assert.deepEqual(platformSecretOf(variable), { platform: 'x', secret });
    }
  });

  it('takes the model of an older character when its provider is enabled', () => {
    const { input, report } = characterToAgent(
      fixture('v0-trader.json'),
      environment({ providerEnabled: (provider) => provider === 'anthropic' }),
    );
    assert.deepEqual(input.model, { provider: 'anthropic', name: 'claude-3-5-sonnet-20241022' });
    assert.ok(report.mapped.includes('modelProvider'));
    assert.ok(report.mapped.includes('settings.model'));
  });

  it('maps a minimal character with nothing left over', () => {
    const { input, report } = characterToAgent(fixture('minimal.json'), environment());
    assert.deepEqual(input, { name: 'Echo', bio: ['Repeats what it hears, politely.'] });
    assert.deepEqual(report, { mapped: ['name', 'bio'], unmapped: [] });
  });

  it('keeps a long bio and splits long knowledge texts into items an agent accepts', () => {
    const character = fixture('long-archivist.json');
    const { input } = characterToAgent(character, environment());
    assert.equal(input.bio?.length, 20);
    const [longText, shortText] = character.knowledge as string[];
    const knowledge = input.knowledge as string[];
    assert.ok(knowledge.length > 2);
    assert.ok(knowledge.every((item) => item.length > 0 && item.length <= 10_000));
    assert.equal(knowledge.at(-1), shortText);
    const squeeze = (text: string) => text.replace(/\s+/g, '');
    assert.equal(squeeze(knowledge.slice(0, -1).join('')), squeeze(longText as string), 'no text is lost');
    assert.deepEqual(input.plugins, [
      { name: 'clock', enabled: true },
      { name: 'math', enabled: true },
    ]);
  });

  it('splits at whitespace, never inside a word when it can', () => {
    assert.deepEqual(splitKnowledgeText('aaaa bbbb cccc', 9), ['aaaa bbbb', 'cccc']);
    assert.deepEqual(splitKnowledgeText('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    assert.deepEqual(splitKnowledgeText('short', 9), ['short']);
  });

  it('refuses a bio and lore that together exceed an agent bio, naming lore', () => {
    const character = { name: 'Many', bio: Array(60).fill('b'), lore: Array(60).fill('l') } as Character;
    assert.throws(
      () => characterToAgent(character, environment()),
      (error: unknown) =>
        error instanceof AppError && error.code === 'validation_failed' && error.errors?.[0]?.path === '/body/lore',
    );
  });

  it('leaves a plugin that needs a config to the report', () => {
    const { input, report } = characterToAgent({ name: 'Tools', plugins: ['@elizaos/plugin-mcp'] }, environment());
    assert.equal(input.plugins, undefined);
    assert.match(reasonFor(report, 'plugins[0]') ?? '', /needs a config/);
  });

  it('reads platform secret names back as the variables they came from', () => {
    for (const variable of [
      'DISCORD_API_TOKEN',
      'TELEGRAM_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'TWITTER_API_SECRET_KEY',
    ]) {
      const target = platformSecretOf(variable);
      assert.ok(target, variable);
      assert.equal(variableOfPlatformSecret(target.platform, target.secret), variable);
    }
    assert.equal(platformSecretOf('TELEGRAM_2FA'), undefined, 'no agentd secret name starts with a digit');
  });
});

describe('character export mapping', () => {
  const agent: Agent = {
    id: 'agt_01JAAAAAAAAAAAAAAAAAAAAAAA',
    name: 'Ava',
    status: 'inactive',
    statusReason: null,
    bio: ['Ava is a DeFi research assistant.'],
    personality: { traits: ['curious'], style: ['short sentences'], tone: 'friendly' },
    system: 'Never give financial advice.',
    expertise: ['defi'],
    knowledge: ['Gas is paid in ETH.', { title: 'Fees', content: 'Fees rise with demand.' }],
    knowledgeBases: [],
    goals: { objectives: ['explain risks'], motivations: [] },
    platforms: [
      { type: 'discord', enabled: true, settings: { guild: 'g1' }, secrets: { botToken: '••••9f3c' } },
      { type: 'matrix', enabled: true, settings: {}, secrets: { accessToken: '••••' } },
    ],
    plugins: [
      { name: 'clock', enabled: true, config: { defaultTimeZone: 'Europe/Lisbon' }, secrets: {} },
      { name: 'knowledge', enabled: false, config: {}, secrets: {} },
    ],
    model: { provider: 'openai', name: 'gpt-4o', temperature: 0.3, apiKey: '••••5d1e' },
    deletionProtection: true,
    metadata: { team: 'research' },
    memory: {
      summary: false,
      facts: true,
      recall: true,
      budgets: { historyTokens: 500, summaryTokens: 400, factsTokens: 300, recallTokens: 400 },
      schedule: { everyUserTurns: 8, idleSeconds: 600 },
    },
    mcp: { exposed: false },
    limits: { spend: { tokensPerDay: null, tokensPerMonth: null, costPerDay: null, costPerMonth: null } },
    version: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };

  it('writes a character with secret names and no secret values', () => {
    const character = agentToCharacter(agent);
    assert.deepEqual(character.plugins, ['@elizaos/plugin-openai', '@elizaos/plugin-discord', 'clock']);
    assert.deepEqual(character.clients, ['discord']);
    assert.deepEqual(character.knowledge, ['Gas is paid in ETH.']);
    assert.deepEqual(character.settings.secrets, { DISCORD_API_TOKEN: '', OPENAI_API_KEY: '' });
    assert.ok(!JSON.stringify(character).includes('••••'), 'not even masks are exported');
  });

  it('gives the same agent back when imported, but for secrets', () => {
    const character = JSON.parse(JSON.stringify(agentToCharacter(agent))) as Character;
    const { input, report } = characterToAgent(character, environment());
    assert.deepEqual(input, {
      name: agent.name,
      status: agent.status,
      bio: agent.bio,
      system: agent.system,
      personality: agent.personality,
      expertise: agent.expertise,
      knowledge: agent.knowledge,
      goals: agent.goals,
      platforms: agent.platforms.map(({ secrets: _secrets, ...platform }) => platform),
      plugins: agent.plugins.map(({ secrets: _secrets, ...plugin }) => plugin),
      model: { provider: 'openai', name: 'gpt-4o', temperature: 0.3 },
      deletionProtection: true,
      metadata: agent.metadata,
    });
    assert.deepEqual(
      report.unmapped.map((entry) => entry.field),
      ['settings.secrets.DISCORD_API_TOKEN', 'settings.secrets.OPENAI_API_KEY'],
    );
  });
});
