import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { loadConfig, type Config } from '../../src/config.js';
import { createDependencies } from '../../src/dependencies.js';
import { newId } from '../../src/ids.js';
import { createLogger } from '../../src/logger.js';
import { orphanDetail } from '../../src/services/runs/run-runtime.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { eventually } from '../helpers/wait.js';

/**
 * `agentd serve` works in the background: its runs' heartbeat, the sweep that
 * ends the runs of stopped instances, the expiry of approvals. The
 * administration commands (`agentd migrate`, `accounts create`, `keys create`)
 * open the same database for a moment, beside a serving instance, and do none
 * of it: they end no runs, and a command given the serving instance's
 * AGENTD_INSTANCE_ID leaves that instance's heartbeat as it was.
 */
describe('background work of a process on SQLite', () => {
  const dataDirectories: string[] = [];
  afterEach(() => {
    for (const directory of dataDirectories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
  });

  const servingInstance = 'ins_serving';
  const servingSeenAt = '2026-06-01T00:00:00.000Z';
  const oldBucket = '2020-01-01T00:00:00.000Z';

  function newConfig(env: Record<string, string> = {}): Config {
    const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-background-'));
    dataDirectories.push(dataDirectory);
    const secretKey = randomBytes(32).toString('hex');
    recordSecrets(secretKey);
    return loadConfig({ AGENTD_DATA_DIR: dataDirectory, AGENTD_SECRET_KEY: secretKey, LOG_LEVEL: 'silent', ...env });
  }

  /** What is in the database beside the process: a serving instance's heartbeat, and a run whose instance stopped. */
  async function seed(config: Config): Promise<string> {
    const handle = openDatabase(config.database);
    const runId = newId('run');
    try {
      await migrateToLatest(handle);
      await handle.db
        .insertInto('run_instances')
        .values({ instance_id: servingInstance, seen_at: servingSeenAt })
        .execute();
      // An agent's counts from long before any retention: only a serving process's metrics flush removes them.
      await handle.db
        .insertInto('agent_metrics')
        .values({ account_id: newId('account'), period: 'minute', agent_id: newId('agent'), bucket_start: oldBucket })
        .execute();
      await handle.db
        .insertInto('runs')
        .values({
          id: runId,
          account_id: newId('account'),
          agent_id: newId('agent'),
          trigger: 'message',
          status: 'running',
          background: 0,
          input: 'hello',
          instance_id: 'ins_stopped',
          event_count: 0,
          created_at: '2026-05-31T23:00:00.000Z',
          started_at: '2026-05-31T23:00:00.000Z',
        })
        .execute();
    } finally {
      await handle.close();
    }
    return runId;
  }

  async function stored(config: Config, runId: string) {
    const handle = openDatabase(config.database);
    try {
      const instances = await handle.db.selectFrom('run_instances').selectAll().orderBy('instance_id').execute();
      const run = await handle.db
        .selectFrom('runs')
        .select(['status', 'error'])
        .where('id', '=', runId)
        .executeTakeFirstOrThrow();
      const metrics = await handle.db.selectFrom('agent_metrics').select('bucket_start').execute();
      return { instances, run, metrics };
    } finally {
      await handle.close();
    }
  }

  it('an administration command beats no heartbeat, ends no runs, removes no metrics, and closes without starting them', async () => {
    // The serving instance's id, as a deployment that sets AGENTD_INSTANCE_ID for every command gives it.
    const config = newConfig({ AGENTD_INSTANCE_ID: servingInstance });
    const runId = await seed(config);
    const deps = await createDependencies(config, {
      logger: createLogger('silent'),
      dispatchWebhooks: false,
      backgroundWork: false,
    });
    await deps.close();

    assert.deepEqual(await stored(config, runId), {
      instances: [{ instance_id: servingInstance, seen_at: servingSeenAt }],
      run: { status: 'running', error: null },
      metrics: [{ bucket_start: oldBucket }],
    });
  });

  it('a serving process beats, sweeps the runs of stopped instances, and forgets its heartbeat as it closes', async () => {
    const config = newConfig();
    const runId = await seed(config);
    const deps = await createDependencies(config, { logger: createLogger('silent') });
    const ownInstance = deps.services.runs.instanceId;
    try {
      await eventually(
        async () =>
          (await deps.database.db
            .selectFrom('run_instances')
            .select('seen_at')
            .where('instance_id', '=', ownInstance)
            .executeTakeFirst()) ?? null,
        'the heartbeat of the serving process',
      );
    } finally {
      // Closing waits for the heartbeat in progress, and with it the sweep.
      await deps.close();
    }

    const { instances, run, metrics } = await stored(config, runId);
    assert.deepEqual(metrics, [], 'its metrics flush removes the counts past their retention');
    assert.equal(
      instances.find((instance) => instance.instance_id === ownInstance),
      undefined,
    );
    assert.equal(run.status, 'failed');
    assert.equal(JSON.parse(run.error ?? '{}').detail, orphanDetail);
  });
});
