import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../src/errors.js';
import { decodeCursor, encodeCursor, type AgentCursor } from '../../src/services/agents/cursor.js';

describe('list cursors', () => {
  it('decode to what was encoded', () => {
    fc.assert(
      fc.property(
        fc.record({
          sortBy: fc.constantFrom('createdAt', 'name', 'status'),
          order: fc.constantFrom('asc', 'desc'),
          status: fc.constantFrom(null, 'active', 'inactive', 'error'),
          key: fc.string(),
          id: fc.string(),
          page: fc.integer({ min: 1, max: 1_000_000 }),
        }),
        (cursor) => {
          assert.deepEqual(decodeCursor(encodeCursor(cursor as AgentCursor)), { ...cursor });
        },
      ),
    );
  });

  it('reject anything else as a validation error on /query/cursor', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          decodeCursor(text);
        } catch (error) {
          assert.ok(error instanceof AppError);
          assert.equal(error.code, 'validation_failed');
          assert.equal(error.errors?.[0]?.path, '/query/cursor');
        }
      }),
    );
  });
});
