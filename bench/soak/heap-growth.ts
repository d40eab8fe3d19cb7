/**
 * Which kind of request leaves memory behind: each operation of the soak's
 * traffic alone, a few thousand times against an in-process app
 * (`app.inject`, SQLite), with the heap measured after full collections
 * before and after. Growth that stays after collection, divided by the
 * operations, is what each one keeps.
 *
 *   node --expose-gc --import tsx bench/soak/heap-growth.ts [--rounds 3000] [--only create-delete,get]
 */
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { createTestApp } from '../../test/helpers/test-app.js';

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3000' },
    only: { type: 'string' },
    snapshots: { type: 'boolean', default: false },
  },
});
const rounds = Number(options.rounds);
const collect = globalThis.gc;
if (collect === undefined) throw new Error('run with node --expose-gc');

/** After the work queued by the last requests (immediates, timers due now) ran: only what stays is measured. */
async function heapAfterCollection(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (let pass = 0; pass < 3; pass += 1) collect!();
  return process.memoryUsage().heapUsed;
}

const testApp = await createTestApp();
const users = ['reader-a', 'reader-b', 'reader-c'];
let counter = 0;

async function createAgent(tools: boolean): Promise<string> {
  counter += 1;
  const response = await testApp.inject({
    method: 'POST',
    url: '/v1/agents',
    payload: {
      name: `heap-${counter}`,
      bio: [`heap-${counter} is an agent.`],
      knowledge: [`The code of heap-${counter} is ${counter}.`],
      model: { provider: 'builtin', name: 'echo' },
      ...(tools ? { plugins: [{ name: 'math', enabled: true, config: {}, secrets: {} }] } : {}),
    },
  });
  if (response.statusCode !== 201) throw new Error(`create: ${response.statusCode} ${response.body}`);
  return response.json().id;
}

async function expect(method: string, url: string, payload?: unknown): Promise<void> {
  const response = await testApp.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
}

// A steady pool the operations on existing agents work on.
const pool = [await createAgent(false), await createAgent(false), await createAgent(true), await createAgent(true)];
const plain = pool[0]!;
const tool = pool[2]!;
const pick = <T>(items: readonly T[]): T => items[counter++ % items.length] as T;

const operations: Record<string, () => Promise<void>> = {
  'create-delete': async () => expect('DELETE', `/v1/agents/${await createAgent(false)}`),
  'create-delete-tools': async () => expect('DELETE', `/v1/agents/${await createAgent(true)}`),
  'message-new-agent-tools': async () => {
    const id = await createAgent(true);
    await expect('POST', `/v1/agents/${id}/messages`, { text: '/tool calculate {"expression":"2+2"}', userId: 'u' });
    await expect('DELETE', `/v1/agents/${id}`);
  },
  'message-new-agent': async () => {
    const id = await createAgent(false);
    await expect('POST', `/v1/agents/${id}/messages`, { text: 'hello there', userId: 'u' });
    await expect('DELETE', `/v1/agents/${id}`);
  },
  get: () => expect('GET', `/v1/agents/${pick(pool)}`),
  list: () => expect('GET', `/v1/agents?limit=20&sortBy=${pick(['createdAt', 'name', 'status'])}`),
  patch: () => expect('PATCH', `/v1/agents/${pick(pool)}`, { bio: [`Patched ${counter}.`] }),
  message: () => expect('POST', `/v1/agents/${plain}/messages`, { text: `Question ${counter}`, userId: pick(users) }),
  'message-tools': () =>
    expect('POST', `/v1/agents/${tool}/messages`, {
      text: 'Please add.\n/tool calculate {"expression":"2+2"}',
      userId: pick(users),
    }),
  history: () => expect('GET', `/v1/agents/${pick(pool)}/messages?userId=${pick(users)}&limit=20`),
  forget: () => expect('DELETE', `/v1/agents/${pick(pool)}/conversations?userId=${pick(users)}`),
};

const chosen = options.only ? options.only.split(',') : Object.keys(operations);
try {
  for (const name of chosen) {
    const operation = operations[name];
    if (operation === undefined) throw new Error(`no operation ${name}`);
    // A warm-up pass first, so caches that fill to a bound and stop are not counted as growth.
    for (let round = 0; round < Math.min(500, rounds); round += 1) await operation();
    const before = await heapAfterCollection();
    if (options.snapshots) console.log(`snapshot ${v8.writeHeapSnapshot(`/tmp/heap-${name}-before.heapsnapshot`)}`);
    for (let round = 0; round < rounds; round += 1) await operation();
    const after = await heapAfterCollection();
    if (options.snapshots) console.log(`snapshot ${v8.writeHeapSnapshot(`/tmp/heap-${name}-after.heapsnapshot`)}`);
    const perOperation = (after - before) / rounds;
    console.log(
      `${name.padEnd(24)} ${rounds} ops: heap ${(before / 1_048_576).toFixed(1)} → ${(after / 1_048_576).toFixed(1)} MiB, ` +
        `${perOperation.toFixed(0)} bytes per op`,
    );
  }
} finally {
  await testApp.close();
}
