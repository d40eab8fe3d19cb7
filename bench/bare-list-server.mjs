// The baseline for bench/list-throughput: a bare node:http server doing the
// least work that serves the same answers as agentd for GET /v1/agents/{id} and
// GET /v1/agents?limit=N — a bearer check and JSON.stringify of the same
// objects — with nothing else (no framework, no validation, no limits).
//
// In `memory` mode the bearer is checked in a Map. In `postgres` mode every
// request runs the SQL agentd runs, through pg: the key by its hash, then the
// agent by id, or the account's count and the page. The answer is still the
// recorded JSON, so the ratio measures what agentd adds, not the database.
//
// With a second argument `fastify`, the same handler answers through a plain
// Fastify app (two routes, no hooks, no schemas): the framework's own floor,
// the least any server built on Fastify pays per request.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const setup = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const framework = process.argv[3] ?? 'node:http';
const agentPrefix = '/v1/agents/';
const pages = new Map(Object.entries(setup.pages).map(([limit, page]) => [`/v1/agents?limit=${limit}`, page]));
const agent = setup.agent;

const contentType = (status) => (status === 200 ? 'application/json; charset=utf-8' : 'application/problem+json');

/** Writes an answer through node:http, or through Fastify's reply when that is what `response` is. */
function send(response, status, body) {
  if (framework === 'fastify') {
    response.code(status).type(contentType(status)).send(body);
    return;
  }
  response.writeHead(status, { 'content-type': contentType(status) });
  response.end(body);
}

function bearerOf(request) {
  const authorization = request.headers.authorization ?? '';
  return authorization.startsWith('Bearer ') ? authorization.slice(7) : null;
}

let handle;
if (setup.mode === 'memory') {
  const keys = new Map([[setup.key, { accountId: setup.accountId }]]);
  handle = (request, response) => {
    const token = bearerOf(request);
    if (token === null || !keys.has(token)) return send(response, 401, '{"code":"unauthorized"}');
    const page = pages.get(request.url);
    if (page !== undefined) return send(response, 200, JSON.stringify(page));
    if (request.url === agentPrefix + agent.id) return send(response, 200, JSON.stringify(agent));
    send(response, 404, '{"code":"not_found"}');
  };
} else {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: setup.databaseUrl, max: setup.poolSize });
  const { sql } = setup;
  handle = async (request, response) => {
    try {
      const token = bearerOf(request);
      const keyHash = token === null ? null : createHash('sha256').update(token).digest('hex');
      const keys = keyHash === null ? { rows: [] } : await pool.query(sql.keyByHash, [keyHash]);
      if (keys.rows.length === 0) return send(response, 401, '{"code":"unauthorized"}');
      const accountId = keys.rows[0].account_id;
      const page = pages.get(request.url);
      if (page !== undefined) {
        await pool.query(sql.count, [accountId]);
        const rows = await pool.query(sql.page, [accountId, page.pagination.limit + 1]);
        if (rows.rows.length === 0) return send(response, 404, '{"code":"not_found"}');
        return send(response, 200, JSON.stringify(page));
      }
      if (request.url === agentPrefix + agent.id) {
        const rows = await pool.query(sql.agentById, [agent.id, accountId]);
        if (rows.rows.length === 0) return send(response, 404, '{"code":"not_found"}');
        return send(response, 200, JSON.stringify(agent));
      }
      send(response, 404, '{"code":"not_found"}');
    } catch (error) {
      send(response, 500, JSON.stringify({ code: 'internal', detail: String(error) }));
    }
  };
}

if (framework === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ keepAliveTimeout: 72_000 });
  const route = (request, reply) => void handle(request, reply);
  app.get('/v1/agents', route);
  app.get('/v1/agents/:agentId', route);
  await app.listen({ port: setup.port, host: '127.0.0.1' });
  process.stdout.write('listening\n');
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
} else {
  const server = http.createServer((request, response) => void handle(request, response));
  server.keepAliveTimeout = 72_000;
  server.listen(setup.port, '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
