import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { estimateTokens } from '../../src/conversation/tokens.js';
import { chunkText } from '../../src/services/knowledge-bases/chunking.js';
import { formatOf } from '../../src/services/knowledge-bases/document-text.js';

describe('chunking by structure', () => {
  const sentences = (topic: string, count: number) =>
    Array.from({ length: count }, (_, index) => `${topic} sentence number ${index} carries a fact.`).join(' ');

  it('starts a section at each heading, with the path of headings', () => {
    const chunks = chunkText('Intro line.\n\n# Guide\n\nFirst.\n\n## Fuel\n\nDiesel only.\n\n# Other\n\nLast.');
    assert.deepEqual(
      chunks.map((chunk) => [chunk.heading, chunk.content]),
      [
        [null, 'Intro line.'],
        ['Guide', 'First.'],
        ['Guide > Fuel', 'Diesel only.'],
        ['Other', 'Last.'],
      ],
    );
  });

  it('keeps chunks within the token bound and repeats the end of one at the start of the next', () => {
    const text = [sentences('Alpha', 20), sentences('Beta', 20), sentences('Gamma', 20)].join('\n\n');
    const chunks = chunkText(text, { maxTokens: 120, overlapTokens: 30 });
    assert.ok(chunks.length >= 4, `${chunks.length} chunks`);
    for (const chunk of chunks) assert.ok(chunk.tokenCount <= 120, `${chunk.tokenCount} tokens`);
    for (let index = 1; index < chunks.length; index += 1) {
      const previousEnd = chunks[index - 1]!.content.split(/(?<=\.)\s+/).pop()!;
      assert.ok(chunks[index]!.content.includes(previousEnd), `chunk ${index} repeats "${previousEnd}"`);
    }
    const covered = chunks.map((chunk) => chunk.content).join(' ');
    for (const topic of ['Alpha', 'Beta', 'Gamma']) assert.match(covered, new RegExp(`${topic} sentence number 19`));
  });

  it('cuts a single overlong word rather than exceeding the bound', () => {
    const chunks = chunkText('x'.repeat(5000), { maxTokens: 100, overlapTokens: 0 });
    assert.ok(chunks.every((chunk) => estimateTokens(chunk.content) <= 100));
    assert.equal(chunks.map((chunk) => chunk.content).join(''), 'x'.repeat(5000));
  });
});

describe('document formats', () => {
  it('reads the content type first, then the file extension', () => {
    assert.equal(formatOf('application/pdf; name=a'), 'application/pdf');
    assert.equal(formatOf('application/octet-stream', 'notes.md'), 'text/markdown');
    assert.equal(formatOf(undefined, 'page.HTML'), 'text/html');
    assert.equal(formatOf('text/csv'), 'text/plain');
    assert.equal(formatOf('image/png', 'photo.png'), null);
  });
});

describe('embeddings configuration', () => {
  const base = { AGENTD_DATA_DIR: '/tmp/agentd-config-test' };

  it('is off without a provider, and complete with one', () => {
    assert.equal(loadConfig(base).embeddings, null);
    const config = loadConfig({
      ...base,
      AGENTD_EMBEDDINGS_PROVIDER: 'ollama',
      AGENTD_EMBEDDINGS_MODEL: 'nomic-embed-text',
      OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
      AGENTD_EMBEDDINGS_DIMENSIONS: '768',
    });
    assert.deepEqual(config.embeddings, {
      provider: 'ollama',
      model: 'nomic-embed-text',
      baseUrl: 'http://127.0.0.1:11434',
      apiKey: null,
      dimensions: 768,
      batchSize: 64,
      concurrency: 4,
    });
  });

  it('names the variable that is wrong, never a key', () => {
    assert.throws(() => loadConfig({ ...base, AGENTD_EMBEDDINGS_PROVIDER: 'cohere' }), /AGENTD_EMBEDDINGS_PROVIDER/);
    assert.throws(() => loadConfig({ ...base, AGENTD_EMBEDDINGS_PROVIDER: 'openai' }), /AGENTD_EMBEDDINGS_MODEL/);
    assert.throws(
      () =>
        loadConfig({
          ...base,
          AGENTD_EMBEDDINGS_PROVIDER: 'openai',
          AGENTD_EMBEDDINGS_MODEL: 'text-embedding-3-small',
        }),
      /AGENTD_EMBEDDINGS_API_KEY/,
    );
    assert.throws(
      () =>
        loadConfig({
          ...base,
          AGENTD_EMBEDDINGS_PROVIDER: 'openai-compatible',
          AGENTD_EMBEDDINGS_MODEL: 'm',
          AGENTD_EMBEDDINGS_API_KEY: 'sk-secret-value',
        }),
      (error: Error) => /AGENTD_EMBEDDINGS_BASE_URL/.test(error.message) && !error.message.includes('sk-secret'),
    );
  });
});
