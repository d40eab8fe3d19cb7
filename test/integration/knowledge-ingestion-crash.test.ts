import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { startFakeEmbeddingsServer } from '../helpers/fake-embeddings-server.js';
import { embeddingsEnvironment } from '../helpers/knowledge.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually, waitFor } from '../helpers/wait.js';

/**
 * An instance killed (SIGKILL: no shutdown code runs) while it ingests a
 * document, then started again: the stored job is taken up once its lease
 * expires, and the document ends `ready` exactly once, its chunks and
 * vectors stored once.
 */
describe('knowledge ingestion across a crash', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-knowledge-crash-'));
  const servers: ServerProcess[] = [];
  after(async () => {
    for (const server of servers) await server.stop('SIGKILL').catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the document after kill -9 and a restart, with its chunks stored once', async () => {
    const embeddings = await startFakeEmbeddingsServer();
    try {
      const key = generateApiKey();
      const env = {
        AGENTD_DATA_DIR: dataDir,
        AGENTD_BOOTSTRAP_KEY: key,
        ...embeddingsEnvironment(embeddings.baseUrl),
        // Short, so the restarted instance does not wait long for the dead one's claim to lapse.
        AGENTD_KNOWLEDGE_LEASE_MS: '1500',
      };
      const call = async (server: ServerProcess, method: string, url: string, body?: unknown) => {
        const response = await fetch(`${server.url}${url}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: response.status, body: (await response.json()) as any };
      };

      const first = await startServer(env);
      servers.push(first);
      const base = await call(first, 'POST', '/v1/knowledge-bases', { name: 'Crash' });
      assert.equal(base.status, 201);
      const content = Array.from(
        { length: 8 },
        (_, index) => `## Dock ${index}\n\n${`Dock ${index} handles containers and grain. `.repeat(25)}`,
      ).join('\n\n');
      embeddings.hold();
      const added = await call(first, 'POST', `/v1/knowledge-bases/${base.body.id}/documents`, {
        title: 'Docks',
        content,
        contentType: 'text/markdown',
      });
      assert.equal(added.status, 202);
      assert.notEqual(await waitFor(() => embeddings.held > 0, 15_000), null, 'the first instance began embedding');
      await first.stop('SIGKILL');
      embeddings.release();

      const second = await startServer(env);
      servers.push(second);
      const documentUrl = `/v1/knowledge-bases/${base.body.id}/documents/${added.body.id}`;
      const ready = await eventually(
        async () => {
          const document = await call(second, 'GET', documentUrl);
          return document.body.status === 'processing' ? null : document.body;
        },
        'the document to be ingested after the restart',
        20_000,
      );
      assert.equal(ready.status, 'ready', ready.statusReason);
      assert.ok(ready.chunkCount >= 8);
      const listed = await call(second, 'GET', `/v1/knowledge-bases/${base.body.id}/documents`);
      assert.equal(listed.body.data.length, 1, 'one document');
      await second.stop('SIGTERM');

      const database = new SqliteDatabase(path.join(dataDir, 'agentd.sqlite'), { readonly: true });
      sqliteVec.load(database);
      try {
        const chunks = database
          .prepare(
            'select count(*) as rows, count(distinct position) as positions from knowledge_chunks where document_id = ?',
          )
          .get(added.body.id) as { rows: number; positions: number };
        assert.deepEqual(chunks, { rows: ready.chunkCount, positions: ready.chunkCount }, 'each chunk stored once');
        const vectors = database.prepare('select count(*) as rows from knowledge_vectors_384').get() as {
          rows: number;
        };
        assert.equal(vectors.rows, ready.chunkCount, 'each vector stored once');
        const attempts = database
          .prepare('select attempts from knowledge_documents where id = ?')
          .get(added.body.id) as {
          attempts: number;
        };
        assert.equal(attempts.attempts, 2, 'claimed by the killed instance, then once more');
      } finally {
        database.close();
      }
    } finally {
      await embeddings.close();
    }
  });
});
