import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  fakeEmbedding,
  startFakeEmbeddingsServer,
  type FakeEmbeddingsServer,
} from '../helpers/fake-embeddings-server.js';
import { newId } from '../../src/ids.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { textOf, type FakeProviderServer, type RecordedRequest } from '../helpers/fake-provider-server.js';
import { pgvectorSkip } from '../helpers/postgres.js';
import { embeddingsEnvironment, newKnowledgeBase, settledDocument } from '../helpers/knowledge.js';
import { backends, createTestApp, type BackendName, type TestApp } from '../helpers/test-app.js';

/**
 * Recall by vectors: with an embedding model, each user and agent turn gets a
 * vector in the background, and recall merges the nearest turns with the
 * full-text matches, so a turn saying the same thing in other words reaches
 * the prompt. On PostgreSQL this needs pgvector: where the server has none,
 * those tests are skipped saying so, except under CI, where they fail (as
 * test/integration/knowledge-pgvector.test.ts).
 */
const vectorSkip = await pgvectorSkip();
const skipOf = (backend: { name: BackendName; skip: string | false }) =>
  backend.skip || (backend.name === 'postgres' ? vectorSkip : false);

const systemOf = (request: RecordedRequest) =>
  textOf(request.body.messages.find((message) => message.role === 'system') ?? { role: 'system', content: '' });
const isTask = (request: RecordedRequest) => systemOf(request).startsWith('agentd-memory-task');

/**
 * The question shares no word with the remembered turn ("lighthousekeeper" is
 * one word to both full-text engines), but the fake model's vectors weigh
 * character trigrams, as a real model weighs meaning: the two are near.
 */
const remembered = 'Ask the lighthousekeeper about it.';
const question = 'Lighthouse whereabouts?';
/** Turns that share neither words nor many trigrams with the question. */
const filler = (index: number) => `Forecast ${index}: cloudy skies, mild breeze, calm sea.`;
/** Recall only, and a window small enough that the first turns leave it. */
const recallOnly = { summary: false, facts: false, recall: true, budgets: { historyTokens: 80, recallTokens: 60 } };

for (const backend of backends) {
  describe(`vector recall on ${backend.label}`, { skip: skipOf(backend) }, () => {
    let fake: FakeProviderServer;
    let embeddings: FakeEmbeddingsServer;
    let t: TestApp;
    let plain: TestApp;
    const providerEnvironment = () => ({
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      AGENTD_OPENAI_COMPATIBLE_API_KEY: 'server-key-123456',
      AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
      AGENTD_PROVIDER_RETRY_DELAY_MS: '0',
    });

    before(async () => {
      fake = await startFakeOpenAiServer();
      embeddings = await startFakeEmbeddingsServer();
      t = await createTestApp({
        backend: backend.name,
        captureLogs: true,
        env: { ...providerEnvironment(), ...embeddingsEnvironment(embeddings.baseUrl) },
      });
      plain = await createTestApp({ backend: backend.name, env: providerEnvironment() });
    });
    after(async () => {
      await t?.close();
      await plain?.close();
      await embeddings?.close();
      await fake?.close();
    });
    beforeEach(() => {
      fake.reset();
      embeddings.failWith(null);
    });

    async function send(app: TestApp, agentId: string, payload: Record<string, unknown>) {
      const response = await app.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }
    /** The remembered turn, then enough filler to push it out of the window, each turn embedded. */
    async function conversation(app: TestApp, agentId: string, userId: string) {
      await send(app, agentId, { text: remembered, userId });
      for (let index = 0; index < 8; index += 1) await send(app, agentId, { text: filler(index), userId });
      await app.deps.services.memory.whenIdle();
    }
    /** The whole last prompt of a reply: recalled turns and knowledge are notes of its last message. */
    const lastPromptOf = (name: string) =>
      (
        fake.requests
          .filter((request) => !isTask(request) && systemOf(request).startsWith(`You are ${name}.`))
          .at(-1) as RecordedRequest
      ).body.messages
        .map((message) => textOf(message))
        .join('\n');
    /** Vectors stored for one agent's turns, read straight from the index table. */
    async function vectorCount(agentId: string): Promise<number> {
      const vectors = t.deps.services.repositories.memoryVectors!;
      const { rows } = await sql<{ count: number | string }>`
        select count(*) as count from ${sql.table(vectors.index.table)}
        where scope like ${`${agentId} %`}`.execute(t.deps.services.repositories.db);
      return Number(rows[0]?.count ?? 0);
    }

    it('recalls a turn that shares no word with the message but is near it in vector space, and not without embeddings', async () => {
      const agent = await t.newAgent({ name: 'Keeper', memory: recallOnly });
      await conversation(t, agent.id, 'ana');
      // Every user and agent turn has its vector: 9 exchanges.
      assert.equal(await vectorCount(agent.id), 18);
      await send(t, agent.id, { text: question, userId: 'ana' });
      assert.match(lastPromptOf('Keeper'), /Earlier in this conversation[^]*lighthousekeeper/);

      const without = await plain.newAgent({ name: 'Plain', memory: recallOnly });
      await conversation(plain, without.id, 'ana');
      await send(plain, without.id, { text: question, userId: 'ana' });
      const system = lastPromptOf('Plain');
      assert.ok(!system.includes('lighthousekeeper'), 'full text alone cannot find it');
    });

    it("never recalls another user's conversation", async () => {
      const agent = await t.newAgent({ name: 'Private', memory: recallOnly });
      await conversation(t, agent.id, 'bo');
      for (let index = 0; index < 9; index += 1) await send(t, agent.id, { text: filler(index), userId: 'ana' });
      await t.deps.services.memory.whenIdle();
      await send(t, agent.id, { text: question, userId: 'ana' });
      assert.ok(!lastPromptOf('Private').includes('lighthousekeeper'), "bo's turn never reaches ana's prompt");
      await t.deps.services.memory.whenIdle();
      // Nearest turns of ana's conversation, whatever the vector: ana's own turns only.
      const near = await t.deps.services.repositories.memoryVectors!.nearest(
        agent.id,
        'user:ana',
        fakeEmbedding(remembered),
        50,
      );
      assert.equal(near.length, 20, 'the 10 exchanges of ana');
      assert.ok(near.every((turn) => !turn.text.includes('lighthousekeeper')));
    });

    it('embeds the message once for knowledge-base retrieval and recall together', async () => {
      const base = await newKnowledgeBase(t);
      const added = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${base}/documents`,
        payload: { title: 'Coast', content: 'The lighthouse stands on the northern cape.' },
      });
      assert.equal((await settledDocument(t, base, added.json().id)).status, 'ready');
      const agent = await t.newAgent({ name: 'Once', memory: recallOnly, knowledgeBases: [base] });
      await conversation(t, agent.id, 'ana');
      const before = embeddings.requests.length;
      await send(t, agent.id, { text: question, userId: 'ana' });
      await t.deps.services.memory.whenIdle();
      // The message alone, for the prompt; the background batch embeds the stored turns (message and reply) after.
      const asked = embeddings.requests.slice(before).filter((texts) => texts.length === 1 && texts[0] === question);
      assert.equal(asked.length, 1, JSON.stringify(embeddings.requests.slice(before)));
      const system = lastPromptOf('Once');
      assert.match(system, /northern cape/);
      assert.match(system, /Earlier in this conversation[^]*lighthousekeeper/);
    });

    it('forgets the vectors of a forgotten conversation and of a deleted agent', async () => {
      const agent = await t.newAgent({ name: 'Forgetful', memory: recallOnly });
      await conversation(t, agent.id, 'ana');
      await conversation(t, agent.id, 'bo');
      assert.equal(await vectorCount(agent.id), 36);
      const forgotten = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}/conversations?userId=ana` });
      assert.equal(forgotten.statusCode, 200, forgotten.body);
      assert.equal(await vectorCount(agent.id), 18, "only bo's vectors are left");
      await send(t, agent.id, { text: question, userId: 'ana' });
      assert.ok(!lastPromptOf('Forgetful').includes('Earlier in this conversation'));

      const deleted = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` });
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(await vectorCount(agent.id), 0);
    });

    it('stores the vectors of turns being deleted at that moment without either failing', async () => {
      // The background stores a conversation's vectors (newest turn first) while the conversation is forgotten or
      // its agent deleted: on PostgreSQL both lock the turns in one order, so neither is aborted as a deadlock.
      const agent = await t.newAgent({ name: 'Racer', memory: recallOnly });
      const { repositories } = t.deps.services;
      const vectors = repositories.memoryVectors!;
      const failures: string[] = [];
      for (let round = 0; round < 150; round += 1) {
        const conversation = `user:racer-${round}`;
        const createdAt = new Date().toISOString();
        await repositories.messages.insert(
          Array.from({ length: 20 }, (_, index) => ({
            id: newId('message'),
            agent_id: agent.id,
            conversation,
            user_id: `racer-${round}`,
            room_id: null,
            role: index % 2 === 0 ? ('user' as const) : ('agent' as const),
            text: filler(index),
            finish_reason: null,
            usage: null,
            model: null,
            latency_ms: null,
            tool: null,
            created_at: createdAt,
          })),
        );
        const turns = await vectors.unembedded(agent.id, conversation, 64);
        assert.equal(turns.length, 20);
        const outcomes = await Promise.allSettled([
          vectors.store(
            agent.id,
            conversation,
            turns.map((turn) => ({ key: turn.key, vector: fakeEmbedding(turn.text) })),
          ),
          // As forgetting a conversation does: on SQLite the vectors go first, on PostgreSQL by their foreign key.
          repositories.db.transaction().execute(async (transaction) => {
            await vectors.deleteTurns(agent.id, { conversation }, transaction);
            return repositories.messages.deleteTurns(agent.id, { conversation }, transaction);
          }),
        ]);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') failures.push(`round ${round}: ${(outcome.reason as Error).message}`);
        }
      }
      assert.deepEqual(failures, []);
      assert.equal(await vectorCount(agent.id), 0, 'no vector outlived its turn');
    });

    it('forgets the vectors of one user’s turns in a room, keeping the others’', async () => {
      const agent = await t.newAgent({ name: 'Room', memory: recallOnly });
      await send(t, agent.id, { text: remembered, userId: 'ana', roomId: 'deck' });
      await send(t, agent.id, { text: filler(1), userId: 'bo', roomId: 'deck' });
      await t.deps.services.memory.whenIdle();
      assert.equal(await vectorCount(agent.id), 4);
      const forgotten = await t.inject({
        method: 'DELETE',
        url: `/v1/agents/${agent.id}/conversations?userId=ana&roomId=deck`,
      });
      assert.equal(forgotten.statusCode, 200, forgotten.body);
      // Ana's exchange goes (her message and the reply to it), bo's stays.
      assert.equal(forgotten.json().deleted, 2);
      assert.equal(await vectorCount(agent.id), 2);
    });

    it('answers while the embedding provider fails, and embeds the turns once it recovers', async () => {
      const agent = await t.newAgent({ name: 'Patient', memory: recallOnly });
      embeddings.failWith(400);
      await send(t, agent.id, { text: remembered, userId: 'ana' });
      for (let index = 0; index < 8; index += 1) await send(t, agent.id, { text: filler(index), userId: 'ana' });
      await send(t, agent.id, { text: question, userId: 'ana' });
      await t.deps.services.memory.whenIdle();
      assert.equal(await vectorCount(agent.id), 0);
      assert.ok(
        (t.logs?.entries() ?? []).some(
          (entry) => entry.msg === 'memory recall fell back to full text: the message could not be embedded',
        ),
      );

      embeddings.failWith(null);
      await send(t, agent.id, { text: 'Good morning.', userId: 'ana' });
      await t.deps.services.memory.whenIdle();
      assert.equal(await vectorCount(agent.id), 22, 'every turn, those stored while it failed too');
      await send(t, agent.id, { text: question, userId: 'ana' });
      assert.match(lastPromptOf('Patient'), /Earlier in this conversation[^]*lighthousekeeper/);
    });
  });
}
