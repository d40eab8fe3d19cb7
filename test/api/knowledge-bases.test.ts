import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../helpers/fake-embeddings-server.js';
import { embeddingsEnvironment, multipartBody, newKnowledgeBase, settledDocument } from '../helpers/knowledge.js';
import { repositoryPath } from '../helpers/repository.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

const fixture = (name: string) => fs.readFileSync(repositoryPath('test', 'fixtures', 'knowledge', name));

const guide = [
  '# Harbor guide',
  '',
  'The harbor opens at dawn.',
  '',
  '## Moorings',
  '',
  'Visiting boats moor at the north pontoon; the fee is twelve euros a night.',
  '',
  '## Fuel',
  '',
  'The fuel dock sells diesel only and closes at six in the evening.',
].join('\n');

/**
 * Knowledge bases over the API on SQLite with a fake embedding model (hybrid
 * retrieval), and on PostgreSQL without one (full text: pgvector is not
 * installed here), as their deployments run them.
 */
for (const backend of backends) {
  describe(`knowledge bases on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let embeddings: FakeEmbeddingsServer;
    let other: TestAccount;
    const hybrid = backend.name === 'sqlite';

    before(async () => {
      embeddings = await startFakeEmbeddingsServer();
      t = await createTestApp({
        backend: backend.name,
        env: hybrid ? embeddingsEnvironment(embeddings.baseUrl) : { AGENTD_KNOWLEDGE_POLL_MS: '50' },
      });
      other = await t.newAccount();
    });
    after(async () => {
      await t?.close();
      await embeddings?.close();
    });

    it('creates, lists, renames and gets knowledge bases', async () => {
      const created = await t.inject({
        method: 'POST',
        url: '/v1/knowledge-bases',
        payload: { name: 'Harbor', description: 'Port rules' },
      });
      assert.equal(created.statusCode, 201);
      const base = created.json();
      assert.match(base.id, /^kb_/);
      assert.equal(created.headers.location, `/v1/knowledge-bases/${base.id}`);
      const renamed = await t.inject({
        method: 'PATCH',
        url: `/v1/knowledge-bases/${base.id}`,
        payload: { name: 'Harbor rules', description: null },
      });
      assert.equal(renamed.statusCode, 200);
      assert.equal(renamed.json().name, 'Harbor rules');
      assert.equal(renamed.json().description, null);
      const listed = await t.inject({ method: 'GET', url: '/v1/knowledge-bases?limit=1' });
      assert.equal(listed.statusCode, 200);
      assert.equal(listed.json().data.length, 1);
      assert.equal(listed.json().data[0].id, base.id, 'newest first');
      const next = listed.json().pagination.nextCursor;
      if (next !== null) {
        const second = await t.inject({ method: 'GET', url: `/v1/knowledge-bases?limit=1&cursor=${next}` });
        assert.notEqual(second.json().data[0]?.id, base.id);
      }
    });

    it('rejects bad input with problem details and JSON pointers, changing nothing', async () => {
      const unnamed = await t.inject({ method: 'POST', url: '/v1/knowledge-bases', payload: { name: '' } });
      assert.equal(unnamed.statusCode, 400);
      assert.equal(unnamed.json().errors[0].path, '/body/name');
      const id = await newKnowledgeBase(t);
      for (const [payload, path] of [
        [{}, '/body'],
        [{ content: 'text without a title' }, '/body/title'],
        [{ url: 'https://example.com/a', content: 'both' }, '/body/content'],
        [{ title: 'x', content: 'y', contentType: 'image/png' }, '/body/contentType'],
        [{ url: 'http://127.0.0.1:1/private' }, '/body/url'],
      ] as const) {
        const response = await t.inject({ method: 'POST', url: `/v1/knowledge-bases/${id}/documents`, payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.json().code, 'validation_failed');
        assert.equal(response.json().errors[0].path, path, JSON.stringify(payload));
      }
      const documents = await t.inject({ method: 'GET', url: `/v1/knowledge-bases/${id}/documents` });
      assert.deepEqual(documents.json().data, []);
      const badCursor = await t.inject({ method: 'GET', url: '/v1/knowledge-bases?cursor=nonsense' });
      assert.equal(badCursor.statusCode, 400);
    });

    it('turns a Markdown document into chunks by heading, and finds them', async () => {
      const id = await newKnowledgeBase(t);
      const added = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: { title: 'Harbor guide', content: guide, contentType: 'text/markdown' },
      });
      assert.equal(added.statusCode, 202);
      assert.equal(added.json().status, 'processing');
      const ready = await settledDocument(t, id, added.json().id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.equal(ready.chunkCount, 3, 'one chunk per section');
      const search = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/search`,
        payload: { query: 'how much is the mooring fee?', limit: 3 },
      });
      assert.equal(search.statusCode, 200);
      const best = search.json().data[0];
      assert.equal(best.title, 'Harbor guide');
      assert.equal(best.heading, 'Harbor guide > Moorings');
      assert.equal(best.position, 1, 'the second of the three sections');
      assert.match(best.content, /twelve euros/);
      assert.equal(search.json().mode, hybrid ? 'hybrid' : 'text');
    });

    it('reads an uploaded PDF into chunks', async () => {
      const id = await newKnowledgeBase(t);
      const upload = await multipartBody(
        { name: 'lighthouse.pdf', type: 'application/pdf', bytes: fixture('lighthouse.pdf') },
        'Lighthouse notes',
      );
      const added = await t.inject({ method: 'POST', url: `/v1/knowledge-bases/${id}/documents`, ...upload });
      assert.equal(added.statusCode, 202, added.body);
      assert.deepEqual(added.json().source, { kind: 'upload', filename: 'lighthouse.pdf' });
      assert.equal(added.json().title, 'Lighthouse notes');
      const ready = await settledDocument(t, id, added.json().id);
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.ok(ready.chunkCount >= 1);
      const search = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/search`,
        payload: { query: 'who installed the fresnel lens' },
      });
      assert.match(search.json().data[0].content, /installed in 1894 by the keeper Ada Marsh/);
    });

    it('reads HTML and JSON, and marks an unreadable document failed with a reason', async () => {
      const id = await newKnowledgeBase(t);
      const html = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: {
          title: 'Tides',
          contentType: 'text/html',
          content: '<html><body><h1>Tides</h1><p>High tide comes at <b>noon</b> on Sundays.</p></body></html>',
        },
      });
      const json = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: { title: 'Berths', contentType: 'application/json', content: '{"berth": "B7", "length": 14}' },
      });
      const broken = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: { title: 'Broken', contentType: 'application/json', content: '{"unterminated": ' },
      });
      assert.equal((await settledDocument(t, id, html.json().id)).status, 'ready');
      assert.equal((await settledDocument(t, id, json.json().id)).status, 'ready');
      const failed = await settledDocument(t, id, broken.json().id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.statusReason, 'the document is not valid JSON');
      const search = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/search`,
        payload: { query: 'when is high tide' },
      });
      assert.match(search.json().data[0].content, /High tide comes at noon on Sundays/);
      assert.doesNotMatch(search.json().data[0].content, /<b>/);
    });

    it('treats the same content uploaded again as the same document', async () => {
      const id = await newKnowledgeBase(t);
      const payload = { title: 'Rules', content: 'No swimming in the harbor basin.' };
      const first = await t.inject({ method: 'POST', url: `/v1/knowledge-bases/${id}/documents`, payload });
      const again = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: { ...payload, title: 'Rules, again' },
      });
      assert.equal(first.statusCode, 202);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().id, first.json().id);
      const listed = await t.inject({ method: 'GET', url: `/v1/knowledge-bases/${id}/documents` });
      assert.equal(listed.json().data.length, 1);
    });

    it('refuses a document over the size cap with 413', async () => {
      const id = await newKnowledgeBase(t);
      const cap = t.config.knowledge.maxDocumentBytes;
      const upload = await multipartBody({ name: 'big.txt', type: 'text/plain', bytes: Buffer.alloc(cap + 1, 97) });
      const response = await t.inject({ method: 'POST', url: `/v1/knowledge-bases/${id}/documents`, ...upload });
      assert.equal(response.statusCode, 413);
      assert.equal(response.json().code, 'payload_too_large');
    });

    it('gives agents their knowledge bases in the prompt, with citations in replies and streams', async () => {
      const id = await newKnowledgeBase(t);
      const added = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${id}/documents`,
        payload: { title: 'Fuel dock', content: 'The fuel dock sells diesel only and closes at six.' },
      });
      await settledDocument(t, id, added.json().id);
      const agent = await t.newAgent({ knowledgeBases: [id], knowledge: ['The harbor master is Ines.'] });
      assert.deepEqual(agent.knowledgeBases, [id]);
      const reply = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'When does the fuel dock close?' },
      });
      assert.equal(reply.statusCode, 200);
      const { citations, text } = reply.json();
      assert.equal(citations.length, 1);
      assert.equal(citations[0].knowledgeBaseId, id);
      assert.equal(citations[0].documentId, added.json().id);
      assert.equal(citations[0].title, 'Fuel dock');
      assert.match(citations[0].chunkId, /^chk_/);
      assert.equal(citations[0].excerpt, 'The fuel dock sells diesel only and closes at six.', 'the chunk it cites');
      assert.match(text, /closes at six/, 'the builtin model answers from the prompt it was given');
      const stream = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'When does the fuel dock close?', stream: true },
      });
      const completed = stream.body.split('\n\n').find((event) => event.startsWith('event: message.completed'));
      assert.ok(completed, stream.body);
      assert.deepEqual(JSON.parse(completed.split('\ndata: ')[1]!).citations, citations);
      const inline = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'Who is the harbor master?' },
      });
      assert.match(inline.json().text, /Ines/, 'inline knowledge keeps working');
    });

    it('detaches a deleted knowledge base from its agents', async () => {
      const id = await newKnowledgeBase(t);
      const agent = await t.newAgent({ knowledgeBases: [id] });
      const deleted = await t.inject({ method: 'DELETE', url: `/v1/knowledge-bases/${id}` });
      assert.equal(deleted.statusCode, 200);
      assert.deepEqual(deleted.json(), { id, deleted: true, detachedFrom: [agent.id] });
      const after = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
      assert.deepEqual(after.json().knowledgeBases, []);
      assert.equal((await t.inject({ method: 'GET', url: `/v1/knowledge-bases/${id}` })).statusCode, 404);
      const second = await t.inject({ method: 'DELETE', url: `/v1/knowledge-bases/${id}` });
      assert.equal(second.statusCode, 404);
    });

    it("keeps another account's knowledge base invisible: get, attach, search and citations", async () => {
      const theirs = await newKnowledgeBase(t, other, 'Secret plans');
      const document = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${theirs}/documents`,
        payload: { title: 'Secret', content: 'The treasure is buried under the fuel dock.' },
        as: other,
      });
      await settledDocument(t, theirs, document.json().id, other);
      const missing = 'kb_01ARZ3NDEKTSV4RRFFQ69G5FAV';

      const get = await t.inject({ method: 'GET', url: `/v1/knowledge-bases/${theirs}` });
      const getMissing = await t.inject({ method: 'GET', url: `/v1/knowledge-bases/${missing}` });
      assert.equal(get.statusCode, 404);
      assert.equal(get.json().detail, getMissing.json().detail);
      const search = await t.inject({
        method: 'POST',
        url: `/v1/knowledge-bases/${theirs}/search`,
        payload: { query: 'treasure' },
      });
      assert.equal(search.statusCode, 404);

      const attach = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        payload: { name: 'Spy', knowledgeBases: [theirs] },
      });
      const attachMissing = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        payload: { name: 'Spy', knowledgeBases: [missing] },
      });
      assert.equal(attach.statusCode, 400);
      assert.equal(attach.json().errors[0].path, '/body/knowledgeBases/0');
      assert.equal(
        attach.json().errors[0].message.replace(theirs, 'ID'),
        attachMissing.json().errors[0].message.replace(missing, 'ID'),
        'answered as if it did not exist',
      );
      const agent = await t.newAgent({});
      const patch = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { knowledgeBases: [theirs] },
      });
      assert.equal(patch.statusCode, 400);

      // Their own agent cites their base; ours, asking the same, cites nothing of theirs.
      const ownBase = await newKnowledgeBase(t);
      const ours = await t.newAgent({ knowledgeBases: [ownBase] });
      const reply = await t.inject({
        method: 'POST',
        url: `/v1/agents/${ours.id}/messages`,
        payload: { text: 'Where is the treasure buried?' },
      });
      assert.deepEqual(reply.json().citations, []);
      assert.doesNotMatch(reply.json().text, /fuel dock/);
    });
  });
}
