import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toAppError } from '../../src/http/problem.js';

/** Errors shaped as `pg`, Node's sockets and better-sqlite3 raise them. */
function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('database errors in problem responses', () => {
  const outages: Array<[string, Error]> = [
    ['a terminated backend (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    [
      'a crashed server (57P02)',
      withCode('terminating connection because of crash of another server process', '57P02'),
    ],
    ['a server starting or stopping (57P03)', withCode('the database system is shutting down', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    ['a connection that ended mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not get a connection in time', new Error('timeout exceeded when trying to connect')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    [
      'refused on every address of a name',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'connect failed'),
    ],
    ['a SQLite lock held past the busy time-out', withCode('database is locked', 'SQLITE_BUSY')],
    ['a locked SQLite table', withCode('database table is locked', 'SQLITE_LOCKED_SHAREDCACHE')],
  ];

  for (const [what, error] of outages) {
    it(`answers ${what} with 503 service_unavailable and Retry-After`, () => {
      const appError = toAppError(error);
      assert.equal(appError.status, 503);
      assert.equal(appError.code, 'service_unavailable');
      assert.ok(Number(appError.headers['retry-after']) >= 1);
      assert.doesNotMatch(appError.detail, /ECONN|57P|administrator|127\.0\.0\.1/, 'no internals in the body');
    });
  }

  const bugs: Array<[string, Error]> = [
    ['a unique violation (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error (42601)', withCode('syntax error at or near "selec"', '42601')],
    ['a constraint failure in SQLite', withCode('UNIQUE constraint failed: agents.id', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain exception', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ];

  for (const [what, error] of bugs) {
    it(`still answers ${what} with 500 internal`, () => {
      const appError = toAppError(error);
      assert.equal(appError.status, 500);
      assert.equal(appError.code, 'internal');
    });
  }
});
