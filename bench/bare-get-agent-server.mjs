// The baseline for bench/get-agent: a bare node:http server doing the same
// work as GET /v1/agents/{id} — a bearer check in a Map and the same JSON —
// with nothing else (no framework, no database, no validation, no limits).
import http from 'node:http';

const [, , port, key, agentFile] = process.argv;
const { readFileSync } = await import('node:fs');
const agent = JSON.parse(readFileSync(agentFile, 'utf8'));
const keys = new Map([[key, { accountId: 'acc_bench' }]]);
const agents = new Map([[agent.id, agent]]);
const prefix = '/v1/agents/';

const server = http.createServer((request, response) => {
  const authorization = request.headers.authorization ?? '';
  const account = authorization.startsWith('Bearer ') ? keys.get(authorization.slice(7)) : undefined;
  if (!account) {
    response.writeHead(401, { 'content-type': 'application/problem+json' });
    response.end('{"code":"unauthorized"}');
    return;
  }
  const found = request.url?.startsWith(prefix) ? agents.get(request.url.slice(prefix.length)) : undefined;
  if (!found) {
    response.writeHead(404, { 'content-type': 'application/problem+json' });
    response.end('{"code":"not_found"}');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(found));
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
