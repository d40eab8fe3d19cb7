// The floor under agentd's message path for bench/message-overhead/run.ts: a bare
// node:http server that makes the model call exactly as agentd's adapter does
// (src/providers/ai-sdk-model.ts: the AI SDK's openai-compatible provider, a
// model object made once, `doStream` with agentd's node:http `fetch`) and
// nothing else — no key, no agent, no history, no storage, no framework.
//
//   node bench/message-overhead/sdk-floor-server.mjs PROVIDER_BASE_URL
//
// POST with {"stream": true} answers text/event-stream and writes a
// `message.delta` event as soon as the SDK yields its first text, the rest at
// its finish; otherwise it answers {"text": …} once the SDK has finished. It
// prints its URL. Plain JavaScript over agentd's build (dist/), so it runs the
// same compiled fetch as agentd and no TypeScript loader.
//
// With a data directory as second argument it also stores each exchange as
// agentd must before it answers a non-streamed reply (after the stream, for a
// streamed one): the message and the reply, two rows in one transaction, in a
// SQLite file with agentd's schema (its migrations, so the same indexes and
// the full-text trigger recall uses), WAL with synchronous=NORMAL as agentd
// opens it, through one prepared better-sqlite3 statement: the floor of
// durable storage, which a bare server doing agentd's work cannot skip.
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { benchModel } from './sdk-model.mjs';
import { openDatabase } from '../../dist/storage/database.js';
import { migrateToLatest } from '../../dist/storage/migrate.js';

const baseURL = process.argv[2];
const dataDir = process.argv[3];
let store = null;
if (dataDir) {
  const file = path.join(dataDir, 'floor.db');
  const handle = openDatabase({ kind: 'sqlite', file });
  await migrateToLatest(handle);
  await handle.close();
  const connection = new SqliteDatabase(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  const insert = connection.prepare(
    `insert into messages (id, agent_id, conversation, user_id, room_id, role, text, finish_reason, usage, model,
      latency_ms, tool, created_at) values (?, 'agt_floor', ?, ?, null, ?, ?, ?, ?, ?, ?, null, ?)`,
  );
  const exchange = connection.transaction((userId, text, reply) => {
    const at = new Date().toISOString();
    const conversation = `user:${userId}`;
    insert.run(`msg_${randomUUID()}`, conversation, userId, 'user', text, null, null, null, null, at);
    insert.run(
      `msg_${randomUUID()}`,
      conversation,
      userId,
      'agent',
      reply,
      'stop',
      '{"inputTokens":9}',
      '{"provider":"openai-compatible","name":"bench-model"}',
      1,
      at,
    );
  });
  store = (userId, text, reply) => exchange(userId, text, reply);
}
const model = benchModel(baseURL);

async function answer(request, response) {
  let body = '';
  for await (const chunk of request) body += chunk;
  const { text, stream: streamed, userId } = JSON.parse(body);
  const abort = new AbortController();
  const { stream } = await model.doStream({
    prompt: [
      { role: 'system', content: 'You are Bench.' },
      { role: 'user', content: [{ type: 'text', text }] },
    ],
    abortSignal: abort.signal,
  });
  const reader = stream.getReader();
  let reply = '';
  if (streamed) response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) break;
    if (part.type === 'text-delta' && part.delta !== '') {
      if (streamed) response.write(`event: message.delta\ndata: ${JSON.stringify({ text: part.delta })}\n\n`);
      reply += part.delta;
    } else if (part.type === 'finish') break;
    else if (part.type === 'error') throw part.error;
  }
  reader.releaseLock();
  if (streamed) {
    response.end('event: message.completed\ndata: {}\n\n');
    store?.(userId, text, reply);
  } else {
    store?.(userId, text, reply);
    const payload = JSON.stringify({ text: reply });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    response.end(payload);
  }
}

const server = http.createServer((request, response) => {
  answer(request, response).catch((error) => {
    if (!response.headersSent) response.writeHead(502);
    response.end(String(error));
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
