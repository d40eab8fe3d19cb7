import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseUrl, postgresSkip } from '../helpers/environment.js';
import { crashRun } from './crash-run.js';
import type { DatabaseKind } from './durability-database.js';

/**
 * kill -9 under a mixed load, three times per database: no acknowledged write
 * is lost and nothing half-written is left. The long run (20 kills and more)
 * is `node --import tsx test/durability/run.ts`; a failure here prints the
 * seed that replays it there with `--seed`.
 */
const databases: Array<{ kind: DatabaseKind; skip: string | false }> = [
  { kind: 'sqlite', skip: false },
  { kind: 'postgres', skip: postgresSkip },
];

for (const database of databases) {
  describe(`crash durability on ${database.kind}`, { skip: database.skip }, () => {
    it('loses no acknowledged write and leaves nothing half-written across 3 kills', async () => {
      const seed = Math.floor(Math.random() * 2 ** 31);
      const result = await crashRun({
        database: database.kind,
        kills: 3,
        seed,
        ...(databaseUrl ? { postgresUrl: databaseUrl } : {}),
      });
      const replay = `replay: node --import tsx test/durability/run.ts --kills 3 --database ${database.kind} --seed ${seed}`;
      assert.equal(result.kills, 3);
      assert.ok(result.checked > result.kills, `acknowledged writes were checked (${result.checked})`);
      assert.deepEqual(result.lost, [], `acknowledged writes lost; ${replay}`);
      assert.deepEqual(result.halfWritten, [], `half-written state; ${replay}`);
      assert.deepEqual(result.unexpected, [], `unexpected answers under load; ${replay}`);
    });
  });
}
