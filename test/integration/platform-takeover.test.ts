import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';
import { startFakeTelegram, type FakeTelegram } from '../helpers/fake-telegram-server.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';
import { randomRedisPrefix, removeRedisKeys } from '../helpers/redis.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/wait.js';

/**
 * Two `agentd serve` processes on one PostgreSQL database, with their
 * polling leases in Redis or (without Redis) in PostgreSQL advisory locks,
 * and one Telegram bot on a fake Bot API: exactly one instance polls it, a
 * PATCH on either instance stops it, and when the polling instance is killed
 * (while it answers an update) the other takes over within 30 s, answers the
 * update the killed one had taken, and answers no update twice.
 */
const token = '424246:telegram-takeover-secret-i9j0';
const leaseMs = 3000;

const variants = [
  { label: 'leases in Redis', redis: true, skip: postgresSkip || redisSkip },
  { label: 'PostgreSQL advisory locks', redis: false, skip: postgresSkip },
];

for (const variant of variants) {
  describe(`a Telegram bot on two instances (${variant.label})`, { skip: variant.skip }, () => {
    const bootstrapKey = generateApiKey();
    const redisPrefix = randomRedisPrefix();
    const dataDirs: string[] = [];
    let database: FreshDatabase;
    let telegram: FakeTelegram;
    const servers = new Map<string, ServerProcess>();

    const call = (server: ServerProcess, method: string, url: string, body?: unknown) =>
      callJson(server.url, bootstrapKey, method, url, body, [token]);

    before(async () => {
      database = await createFreshDatabase();
      telegram = await startFakeTelegram();
      telegram.addBot(token);
      const environment = {
        DATABASE_URL: database.url,
        AGENTD_DATABASE_POOL_SIZE: '4',
        ...(variant.redis ? { REDIS_URL: redisUrl as string, AGENTD_REDIS_PREFIX: redisPrefix } : {}),
        AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
        AGENTD_BOOTSTRAP_KEY: bootstrapKey,
        AGENTD_TELEGRAM_API_URL: telegram.apiRoot,
        AGENTD_PLATFORM_LEASE_MS: String(leaseMs),
        AGENTD_PLATFORM_CHANGE_POLL_MS: '100',
        AGENTD_BUILTIN_WORD_DELAY_MS: '0',
        AGENTD_SHUTDOWN_TIMEOUT_MS: '2000',
      };
      const start = (name: string) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-platform-'));
        dataDirs.push(dataDir);
        return startServer({ ...environment, AGENTD_DATA_DIR: dataDir, AGENTD_INSTANCE_ID: name });
      };
      // One first, so that it migrates and bootstraps alone; then the other.
      servers.set('first', await start('first'));
      servers.set('second', await start('second'));
    });

    after(async () => {
      await Promise.all([...servers.values()].map((server) => server.stop('SIGKILL')));
      await telegram?.close();
      await database?.drop();
      if (variant.redis) await removeRedisKeys(redisPrefix);
      for (const directory of dataDirs) fs.rmSync(directory, { recursive: true, force: true });
    });

    /** The instance the report names as running the bot, as any live instance answers it. */
    async function holderOf(agentId: string): Promise<string | null> {
      const [server] = [...servers.values()];
      const report = await call(server!, 'GET', `/v1/agents/${agentId}/platforms`);
      const entry = report.body.data[0];
      return entry.state === 'running' ? entry.instance : null;
    }

    it('polls on one instance, stops on a PATCH to the other, and is taken over after a SIGKILL', async () => {
      const first = servers.get('first')!;
      const created = await call(first, 'POST', '/v1/agents', {
        name: 'Polled once',
        platforms: [{ type: 'telegram', secrets: { botToken: token } }],
      });
      assert.equal(created.status, 201);
      const agentId = created.body.id as string;

      const holder = await eventually(() => holderOf(agentId), 'a holder', 15_000);
      assert.ok(holder === 'first' || holder === 'second');
      const other = holder === 'first' ? 'second' : 'first';
      await eventually(async () => (telegram.isPolling(token) ? true : null), 'a long poll', 10_000);

      telegram.injectMessage(token, { chatId: 6001, fromId: 6001, text: 'update one' });
      await eventually(async () => telegram.sentTo(token, 6001)[0] ?? null, 'the first reply', 10_000);

      // A PATCH sent to the instance that does not poll stops the one that does, within a second.
      const pausedAt = Date.now();
      const paused = await call(servers.get(other)!, 'PATCH', `/v1/agents/${agentId}`, { status: 'inactive' });
      assert.equal(paused.status, 200);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // absence is observed over a window
      const late = telegram.callsOf('getUpdates', token).filter((call) => call.at > pausedAt + 1000);
      assert.deepEqual(late, [], 'no getUpdates later than a second after the PATCH');
      assert.equal(telegram.isPolling(token), false, 'no long poll left waiting');
      const resumed = await call(servers.get(other)!, 'PATCH', `/v1/agents/${agentId}`, { status: 'active' });
      assert.equal(resumed.status, 200);
      const holderAgain = await eventually(() => holderOf(agentId), 'a holder after resuming', 15_000);
      await eventually(async () => (telegram.isPolling(token) ? true : null), 'a long poll again', 10_000);
      assert.equal(telegram.conflicts, 0, 'never two pollers at once');

      const survivor = holderAgain === 'first' ? 'second' : 'first';
      // The holder takes "update two" and is killed while it answers (its typing call hangs): the update was taken
      // but never answered, and the instance that takes the bot over answers it.
      telegram.holdNext('sendChatAction', 1);
      const injectedAt = Date.now();
      telegram.injectMessage(token, { chatId: 6001, fromId: 6001, text: 'update two' });
      await eventually(
        async () =>
          telegram.callsOf('sendChatAction', token).some((call) => call.at >= injectedAt && call.body.chat_id === 6001)
            ? true
            : null,
        'the holder answering update two',
        10_000,
      );
      const killedAt = Date.now();
      await servers.get(holderAgain)!.stop('SIGKILL');
      servers.delete(holderAgain);
      telegram.injectMessage(token, { chatId: 6001, fromId: 6001, text: 'update three' });
      await eventually(
        async () => {
          const replies = telegram.sentTo(token, 6001);
          return ['update two', 'update three'].every((text) => replies.some((reply) => reply.includes(text)))
            ? true
            : null;
        },
        'the replies after the takeover',
        30_000,
      );
      const tookOverInMs = Date.now() - killedAt;
      console.log(`# ${variant.label}: taken over and answered ${tookOverInMs} ms after the SIGKILL`);
      assert.ok(tookOverInMs < 30_000, `taken over in ${tookOverInMs} ms`);
      assert.equal(await holderOf(agentId), survivor);

      const replies = telegram.sentTo(token, 6001);
      for (const text of ['update one', 'update two', 'update three']) {
        assert.equal(
          replies.filter((reply) => reply.includes(`You said: “${text}”`)).length,
          1,
          `${text} answered once`,
        );
      }
      assert.equal(telegram.conflicts, 0, 'never two pollers at once');
    });
  });
}
