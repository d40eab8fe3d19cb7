/**
 * Long-term memory's cost, in two parts:
 *
 * 1. Prompt assembly (`buildPrompt`, the reads and the assembly of one
 *    message's prompt) for a private conversation of 10,000 turns and a user
 *    with 1,000 facts, with summary, facts and recall on, against the same
 *    with memory off; on SQLite, and on PostgreSQL when DATABASE_URL is set.
 *    Before each timed call one turn is written to another conversation of
 *    the agent, so SQLite's read cache is as cold for `messages` as after a
 *    real exchange.
 * 2. Reply latency with memory on and off: non-streamed messages through the
 *    HTTP app (in-process, app.inject) to a fake OpenAI-compatible provider
 *    answering in about 100 ms, alternating two agents that differ only in
 *    `memory`; the memory-on agent's background work (fact extraction and
 *    summaries, also answered by the fake) runs meanwhile in the same process.
 *
 *   npm run bench:memory [-- --iterations 300 --replies 60]
 *   PROFILE_PROMPT=1 npm run bench:memory   # also times each read of the prompt alone
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { buildPrompt } from '../../src/conversation/build-prompt.js';
import { searchTermsOf } from '../../src/conversation/knowledge-query.js';
import { fullTextRecall } from '../../src/conversation/memory/recall.js';
import { loadConfig } from '../../src/config.js';
import { createDependencies, type AppDeps } from '../../src/dependencies.js';
import { newId } from '../../src/ids.js';
import { createLogger } from '../../src/logger.js';
import { createAccount } from '../../src/services/accounts.js';
import { createAgent } from '../../src/services/agents/create-agent.js';
import { scopes, type ServiceContext } from '../../src/services/context.js';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { bootstrap } from '../../src/services/api-keys.js';
import type { MessageRow } from '../../src/storage/repositories/messages.js';
import { startFakeOpenAiServer } from '../../test/helpers/fake-openai-server.js';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '300' },
    replies: { type: 'string', default: '60' },
    turns: { type: 'string', default: '10000' },
    facts: { type: 'string', default: '1000' },
  },
});
const iterations = Number(values.iterations);
const replies = Number(values.replies);
const turnCount = Number(values.turns);
const factCount = Number(values.facts);

const vocabulary = (
  'forecast tide harbour sailing wind cloud river mountain garden recipe bread coffee tea train ticket museum ' +
  'budget invoice meeting project deadline holiday flight hotel dinner lunch music concert guitar piano novel ' +
  'poem painting camera lens football tennis running bicycle engine battery solar roof window kitchen'
).split(' ');
const pick = (index: number, salt: number) => vocabulary[(index * 7 + salt * 13) % vocabulary.length] as string;
const sentence = (index: number) =>
  `About the ${pick(index, 1)} and the ${pick(index, 2)}: what do you think of ${pick(index, 3)} ${index}?`;

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] as number;
}
const summarize = (samples: number[]) => {
  const sorted = [...samples].sort((left, right) => left - right);
  return {
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    p99: percentile(sorted, 0.99),
    mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
  };
};
const ms = (value: number) => value.toFixed(2);

interface Backend {
  name: string;
  env: Record<string, string>;
  searchPath?: string;
  drop(): Promise<void>;
}

async function backends(): Promise<Backend[]> {
  const list: Backend[] = [{ name: 'SQLite', env: {}, drop: async () => undefined }];
  const url = process.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    const schema = `bench_memory_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    list.push({
      name: 'PostgreSQL',
      env: { DATABASE_URL: url },
      searchPath: schema,
      async drop() {
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop schema if exists ${schema} cascade`);
        await cleanup.end();
      },
    });
  }
  return list;
}

async function open(backend: Backend, extraEnv: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-memory-'));
  const bootstrapKey = generateApiKey();
  const config = loadConfig({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    AGENTD_BOOTSTRAP_KEY: bootstrapKey,
    AGENTD_RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    ...backend.env,
    ...extraEnv,
  });
  const deps: AppDeps = await createDependencies(config, {
    logger: createLogger('warn'),
    ...(backend.searchPath ? { database: { searchPath: backend.searchPath } } : {}),
  });
  const first = await bootstrap({ deps: deps.services, bootstrapKey });
  const account = first ?? { accountId: (await createAccount({ deps: deps.services, input: { name: 'bench' } })).id };
  const ctx: ServiceContext = {
    deps: deps.services,
    actor: { accountId: account.accountId, keyId: 'key_bench', scopes: new Set(scopes) },
    requestId: 'req_bench',
  };
  return {
    deps,
    ctx,
    config,
    bootstrapKey,
    async close() {
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function promptAssembly(backend: Backend): Promise<void> {
  const opened = await open(backend);
  const { deps, ctx } = opened;
  const { repositories } = deps.services;
  const agent = await createAgent({ ctx, input: { name: 'Memo', bio: ['A bench agent.'] } });
  const agentId = agent.agent.id;
  const record = await repositories.agents.find(ctx.actor.accountId, agentId);
  if (record === null) throw new Error('agent missing');
  const conversation = 'user:bench-user';
  const seedStarted = performance.now();
  const rows: MessageRow[] = [];
  for (let index = 0; index < turnCount; index += 1) {
    const user = index % 2 === 0;
    rows.push({
      id: newId('message'),
      agent_id: agentId,
      conversation,
      user_id: 'bench-user',
      room_id: null,
      role: user ? ('user' as const) : ('agent' as const),
      text: index === 0 ? 'Hello, my name is Zephyrine and I live in Lisbon.' : sentence(index),
      finish_reason: user ? null : 'stop',
      usage: null,
      model: null,
      latency_ms: null,
      tool: null,
      created_at: new Date().toISOString(),
    });
    if (rows.length === 500) await repositories.messages.insert(rows.splice(0));
  }
  await repositories.messages.insert(rows.splice(0));
  const now = new Date().toISOString();
  const facts = Array.from({ length: factCount }, (_, index) => ({
    id: newId('fact'),
    agent_id: agentId,
    user_id: 'bench-user',
    subject: index === 0 ? 'name' : `preference:item${index}`,
    statement: index === 0 ? 'name is Zephyrine' : `prefers ${pick(index, 4)} with ${pick(index, 6)} (${index})`,
    source_message_id: null,
    created_at: now,
    updated_at: now,
  }));
  for (let start = 0; start < facts.length; start += 200) {
    await repositories.db
      .insertInto('memory_facts')
      .values(facts.slice(start, start + 200))
      .execute();
  }
  await repositories.memory.saveConversation(
    {
      agent_id: agentId,
      conversation,
      summary: Array.from({ length: 30 }, (_, index) => `- user: ${sentence(index)}`).join('\n'),
      summarized_through: null,
      facts_through: null,
      updated_at: now,
    },
    null,
  );
  console.log(
    `  seeded ${turnCount} turns and ${factCount} facts in ${ms((performance.now() - seedStarted) / 1000)} s`,
  );

  const off = {
    ...record,
    profile: { ...record.profile, memory: { ...record.profile.memory!, summary: false, facts: false, recall: false } },
  };
  const measure = async (agentRecord: typeof record, label: string) => {
    const samples: number[] = [];
    let carried = 0;
    for (let index = 0; index < iterations + 20; index += 1) {
      // A write to the agent's messages, as every exchange makes: SQLite's read cache starts cold for them.
      await repositories.messages.insert([otherTurn()]);
      const text = `What is my name, and what about the ${pick(index, 8)} and the ${pick(index, 9)}?`;
      const started = performance.now();
      const prompt = await buildPrompt(repositories, agentRecord, {
        text,
        userId: 'bench-user',
        conversation,
        shared: false,
        context: null,
      });
      const took = performance.now() - started;
      if (index >= 20) samples.push(took);
      if (index >= 20 && prompt.system.includes('Zephyrine')) carried += 1;
    }
    const result = summarize(samples);
    console.log(
      `  ${label}: p50 ${ms(result.p50)} ms, p90 ${ms(result.p90)} ms, p99 ${ms(result.p99)} ms, mean ${ms(result.mean)} ms ` +
        `(${iterations} prompts; the name from turn 1 in ${carried} of them)`,
    );
  };
  /** A turn of another conversation of the agent: the write every exchange makes to `messages`. */
  const otherTurn = (): MessageRow => ({
    id: newId('message'),
    agent_id: agentId,
    conversation: 'user:someone-else',
    user_id: 'someone-else',
    room_id: null,
    role: 'user',
    text: 'hello',
    finish_reason: null,
    usage: null,
    model: null,
    latency_ms: null,
    tool: null,
    created_at: now,
  });
  if (process.env.PROFILE_PROMPT) {
    const parts: Record<string, number[]> = { recent: [], summary: [], recall: [], facts: [] };
    const time = async (label: string, work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      parts[label]?.push(performance.now() - started);
    };
    for (let index = 0; index < 50; index += 1) {
      const text = `What is my name, and what about the ${pick(index, 8)} and the ${pick(index, 9)}?`;
      await repositories.messages.insert([otherTurn()]);
      await time('recent', () => repositories.messages.recent(agentId, conversation, 200));
      await time('summary', () => repositories.memory.conversation(agentId, conversation));
      await time('recall', () => fullTextRecall(repositories).recall(agentId, conversation, text, 12));
      await time('facts', () =>
        repositories.memory.promptFacts(agentId, ['bench-user'], {
          terms: searchTermsOf(text),
          limit: 75,
        }),
      );
    }
    for (const [label, samples] of Object.entries(parts))
      console.log(`    ${label}: p50 ${ms(summarize(samples).p50)} ms`);
  }
  await measure(record, 'memory on (summary, facts, recall)');
  await measure(off, 'memory off');
  await opened.close();
}

async function replyLatency(backend: Backend): Promise<void> {
  const fake = await startFakeOpenAiServer();
  fake.setDefault({ tokenDelayMs: 5, reply: Array.from({ length: 20 }, (_, index) => `word${index}`).join(' ') });
  const trim = setInterval(() => fake.requests.splice(0), 1000);
  const opened = await open(backend, {
    AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model',
  });
  const app = await buildApp({ config: opened.config, deps: opened.deps });
  const headers = { authorization: `Bearer ${opened.bootstrapKey}` };
  const create = async (memory: Record<string, unknown>) =>
    (await app.inject({ method: 'POST', url: '/v1/agents', headers, payload: { name: 'Latency', memory } })).json();
  const on = await create({ budgets: { historyTokens: 300 } });
  const off = await create({ summary: false, facts: false, recall: false, budgets: { historyTokens: 300 } });
  const samples: Record<'on' | 'off', number[]> = { on: [], off: [] };
  for (let index = 0; index < replies + 5; index += 1) {
    for (const [label, agent] of index % 2 === 0
      ? ([
          ['on', on],
          ['off', off],
        ] as const)
      : ([
          ['off', off],
          ['on', on],
        ] as const)) {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        headers,
        payload: { text: index === 0 ? 'Hi, my name is Zephyrine.' : sentence(index), userId: 'latency-user' },
      });
      if (response.statusCode !== 200) throw new Error(`reply answered ${response.statusCode}: ${response.body}`);
      if (index >= 5) samples[label].push(performance.now() - started);
    }
  }
  await opened.deps.services.memory.whenIdle();
  const memory = (
    await app.inject({ method: 'GET', url: `/v1/agents/${on.id}/memory?userId=latency-user`, headers })
  ).json();
  const resultOn = summarize(samples.on);
  const resultOff = summarize(samples.off);
  console.log(
    `  memory on:  p50 ${ms(resultOn.p50)} ms, p90 ${ms(resultOn.p90)} ms, mean ${ms(resultOn.mean)} ms (${replies} replies)`,
  );
  console.log(
    `  memory off: p50 ${ms(resultOff.p50)} ms, p90 ${ms(resultOff.p90)} ms, mean ${ms(resultOff.mean)} ms (${replies} replies)`,
  );
  console.log(
    `  on/off: p50 ${((resultOn.p50 / resultOff.p50 - 1) * 100).toFixed(1)} %, mean ${((resultOn.mean / resultOff.mean - 1) * 100).toFixed(1)} %; ` +
      `summary written: ${memory.summary !== null}`,
  );
  clearInterval(trim);
  await app.close();
  await opened.close();
  await fake.close();
}

for (const backend of await backends()) {
  try {
    console.log(`${backend.name}: prompt assembly, ${turnCount} turns, ${factCount} facts`);
    await promptAssembly(backend);
    console.log(`${backend.name}: reply latency, memory on vs off`);
    await replyLatency(backend);
  } finally {
    await backend.drop();
  }
}
