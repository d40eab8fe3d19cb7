import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { memoizingSerializerFactory } from '../../src/http/memoized-serializer.js';

const Item = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    tags: Type.Array(Type.String()),
    secrets: Type.Record(Type.String(), Type.String()),
  },
  { $id: 'Item' },
);
const Page = Type.Object({
  data: Type.Array(Type.Ref(Item)),
  pagination: Type.Object({ total: Type.Integer(), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
});

/** One app with Fastify's own serializer, one with ours, both answering whatever `answer` holds. */
async function servers(answer: { current: unknown }) {
  const apps = [
    Fastify(),
    Fastify({ schemaController: { compilersFactory: { buildSerializer: memoizingSerializerFactory() } } }),
  ];
  for (const app of apps) {
    app.addSchema(Item);
    app.get('/page', { schema: { response: { 200: Page } } }, async () => answer.current);
    await app.ready();
  }
  return apps;
}

const item = (index: number) => ({
  id: `item_${index}`,
  name: `Name "${index}" \u2028 ünïcode`,
  tags: ['a', 'b'],
  secrets: { token: '••••1234' },
  // Not in the schema: must never be written.
  sealed: 'v1:secret',
});

describe('page responses', () => {
  it('are written byte for byte as the whole schema writes them, fields outside it dropped', async () => {
    const answer: { current: unknown } = { current: null };
    const [plain, memoizing] = await servers(answer);
    const shared = [Object.freeze(item(1)), Object.freeze(item(2))];
    const pages = [
      { data: [], pagination: { total: 0, nextCursor: null } },
      { data: [item(0)], pagination: { total: 1, nextCursor: 'abc' } },
      { data: [...shared, item(3)], pagination: { total: 3, nextCursor: null } },
      { data: shared, pagination: { total: 2, nextCursor: 'next' } },
      Object.freeze({ data: shared, pagination: Object.freeze({ total: 2, nextCursor: null }) }),
    ];
    for (const page of pages) {
      answer.current = page;
      const expected = (await plain!.inject({ method: 'GET', url: '/page' })).body;
      // Twice: the second time shared items come from what was written the first time.
      for (let round = 0; round < 2; round += 1) {
        const actual = (await memoizing!.inject({ method: 'GET', url: '/page' })).body;
        assert.equal(actual, expected);
        assert.doesNotMatch(actual, /sealed|v1:secret/);
      }
    }
    await Promise.all([plain!.close(), memoizing!.close()]);
  });

  it('still fail as the whole schema does when a required field is missing', async () => {
    const answer: { current: unknown } = { current: { data: [item(1)] } };
    const [plain, memoizing] = await servers(answer);
    const expected = await plain!.inject({ method: 'GET', url: '/page' });
    const actual = await memoizing!.inject({ method: 'GET', url: '/page' });
    assert.equal(expected.statusCode, 500);
    assert.equal(actual.statusCode, 500);
    await Promise.all([plain!.close(), memoizing!.close()]);
  });
});
