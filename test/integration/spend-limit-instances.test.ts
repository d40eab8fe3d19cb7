import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDependencies, type AppDeps } from '../../src/dependencies.js';
import type { App } from '../../src/http/app-instance.js';
import { createLogger } from '../../src/logger.js';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { bootstrap } from '../../src/services/api-keys.js';
import { postgresSkip } from '../helpers/environment.js';
import { generousRateLimits } from '../helpers/test-app.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';

/**
 * Two instances (two apps, each with its own pool, limiters and caches) on one
 * fresh PostgreSQL database, sending messages to one agent at once: the spend
 * totals they reserve against are the only thing they share.
 */
describe('a spend limit on two instances at once', { skip: postgresSkip }, () => {
  const key = generateApiKey();
  const headers = { authorization: `Bearer ${key}` };
  let database: FreshDatabase;
  const instances: Array<{ app: App; deps: AppDeps; dataDir: string }> = [];

  before(async () => {
    database = await createFreshDatabase();
    const secretKey = randomBytes(32).toString('hex');
    for (let index = 0; index < 2; index += 1) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-spend-'));
      const config = loadConfig({
        DATABASE_URL: database.url,
        AGENTD_DATABASE_POOL_SIZE: '4',
        AGENTD_DATA_DIR: dataDir,
        AGENTD_SECRET_KEY: secretKey,
        AGENTD_BOOTSTRAP_KEY: key,
        AGENTD_RATE_LIMITS: generousRateLimits,
        AGENTD_BUILTIN_WORD_DELAY_MS: '0',
        LOG_LEVEL: 'silent',
      });
      const deps = await createDependencies(config, { logger: createLogger('silent') });
      if (index === 0) await bootstrap({ deps: deps.services, bootstrapKey: key });
      instances.push({ app: await buildApp({ config, deps }), deps, dataDir });
    }
  });

  after(async () => {
    for (const { app, deps, dataDir } of instances) {
      await app.close();
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await database?.drop();
  });

  it("no more than one message's worth passes a daily token limit when two instances send at once", async () => {
    const [first, second] = instances.map(({ app }) => app);
    const created = await first!.inject({ method: 'POST', url: '/v1/agents', headers, payload: { name: 'Shared' } });
    assert.equal(created.statusCode, 201, created.body);
    const agentId = created.json().id;
    const send = (app: App) =>
      app.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, headers, payload: { text: 'Count me' } });
    // One message's worth, measured before any limit is set (a message with no limit is not counted).
    const sample = await send(first!);
    assert.equal(sample.statusCode, 200, sample.body);
    const perMessage: number = sample.json().usage.totalTokens;
    const limit = perMessage * 3;
    const patched = await second!.inject({
      method: 'PATCH',
      url: `/v1/agents/${agentId}`,
      headers,
      payload: { limits: { spend: { tokensPerDay: limit } } },
    });
    assert.equal(patched.statusCode, 200, patched.body);

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => send(index % 2 === 0 ? first! : second!)),
    );
    const answered = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    assert.equal(answered.length + refused.length, answers.length, answers.map((answer) => answer.body).join('\n'));
    assert.ok(answered.length >= 1, 'the limit is not reached before the first message');
    for (const answer of refused) assert.equal(answer.json().code, 'budget_exceeded');
    const spentByAnswers = answered.reduce((sum, answer) => sum + answer.json().usage.totalTokens, 0);
    assert.ok(
      spentByAnswers <= limit + perMessage,
      `${spentByAnswers} tokens answered against a limit of ${limit}: more than one message (${perMessage}) past it`,
    );
    const total = await instances[0]!.deps.services.repositories.spendTotals.total({
      accountId: created.json().accountId ?? (await accountOf(agentId)),
      subject: agentId,
      period: `day:${new Date().toISOString().slice(0, 10)}`,
    });
    assert.equal(total.spent.tokens, spentByAnswers, 'every answered message is counted, and only those');
    assert.equal(total.reserved.tokens, 0, 'every reservation was settled');

    // Reservations count each message's most (its prompt and max output), so fewer may have passed at once:
    // one instance after the other, messages pass until the limit is reached, then both instances refuse.
    let spent = spentByAnswers;
    for (let turn = 0; ; turn += 1) {
      const answer = await send(turn % 2 === 0 ? first! : second!);
      if (answer.statusCode === 429) break;
      assert.equal(answer.statusCode, 200, answer.body);
      assert.ok(spent < limit, 'a message was admitted after the limit was reached');
      spent += answer.json().usage.totalTokens;
    }
    assert.ok(spent >= limit && spent <= limit + perMessage, `${spent} tokens against a limit of ${limit}`);
    assert.equal((await send(first!)).statusCode, 429);
    assert.equal((await send(second!)).statusCode, 429);
  });

  async function accountOf(agentId: string): Promise<string> {
    const row = await instances[0]!.deps.services.repositories.db
      .selectFrom('agents')
      .select('account_id')
      .where('id', '=', agentId)
      .executeTakeFirstOrThrow();
    return row.account_id;
  }
});
