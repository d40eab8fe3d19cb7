import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isoTime } from '../../src/clock.js';
import { newId } from '../../src/ids.js';
import { newKnowledgeBase } from '../helpers/knowledge.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Ingestion jobs are claimed atomically: of many workers racing for waiting
 * documents (as several instances do), each document goes to exactly one,
 * and an expired lease lets another worker take it over.
 */
for (const backend of backends) {
  describe(`knowledge ingestion claims on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      // The app's own worker looks rarely, and is not woken: documents are stored below the service.
      t = await createTestApp({ backend: backend.name, env: { AGENTD_KNOWLEDGE_POLL_MS: '600000' } });
    });
    after(async () => t?.close());

    it('gives each waiting document to exactly one of many racing workers, and takes over expired leases', async () => {
      const repository = t.deps.services.repositories.knowledgeBases;
      const knowledgeBaseId = await newKnowledgeBase(t);
      const now = Date.now();
      const documents = 3;
      for (let index = 0; index < documents; index += 1) {
        const id = newId('document');
        await repository.insertDocument(
          {
            id,
            accountId: t.owner.accountId,
            knowledgeBaseId,
            title: `Job ${index}`,
            contentType: 'text/plain',
            source: { kind: 'text' },
            contentHash: id,
            sizeBytes: 5,
            status: 'processing',
            statusReason: null,
            chunkCount: 0,
            attempts: 0,
            createdAt: isoTime(now),
            updatedAt: isoTime(now),
          },
          Buffer.from('hello'),
        );
      }
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, worker) =>
          repository.claimJob(`worker-${worker}`, isoTime(now), isoTime(now + 60_000)),
        ),
      );
      const claimed = claims.filter((claim) => claim !== null).map((claim) => claim!.id);
      assert.equal(claimed.length, documents, 'each document claimed');
      assert.equal(new Set(claimed).size, documents, 'by one worker each');
      assert.equal(await repository.claimJob('late', isoTime(now), isoTime(now + 60_000)), null, 'none left');

      const later = now + 61_000;
      const takenOver = await repository.claimJob('rescuer', isoTime(later), isoTime(later + 60_000));
      assert.ok(takenOver, 'an expired lease is taken over');
      assert.equal(takenOver.attempts, 2);
      assert.equal(await repository.renewLease(takenOver.id, 'worker-0', isoTime(later + 60_000)), false);
    });
  });
}
