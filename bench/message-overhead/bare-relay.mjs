/**
 * The capacity run's floor (run.ts, RELAY=on): a bare server doing a streamed
 * message's relaying work and nothing else. It answers `POST
 * /v1/agents/{id}/messages` with `stream: true` as agentd does on the wire
 * (`message.started`, a `message.delta` per word), from a call to the
 * provider at AGENTD_OPENAI_COMPATIBLE_BASE_URL over HTTP/2 (at most 100
 * streams per connection, as agentd's pool), with no keys, agents, database,
 * history, memory or run records. Started as agentd is: `node
 * bench/message-overhead/bare-relay.mjs serve`, PORT from the environment.
 */
import http from 'node:http';
import http2 from 'node:http2';

const provider = new URL(process.env.AGENTD_OPENAI_COMPATIBLE_BASE_URL);
const model = (process.env.AGENTD_DEFAULT_MODEL ?? 'openai-compatible/bench-model').split('/').slice(1).join('/');
const perSession = 100;
/** @type {{ session: import('node:http2').ClientHttp2Session, open: number }[]} */
const sessions = [];

function sessionWithRoom() {
  let entry = sessions.find((candidate) => candidate.open < perSession && !candidate.session.closed);
  if (entry === undefined) {
    entry = { session: http2.connect(provider.origin), open: 0 };
    const made = entry;
    made.session.on('error', () => undefined);
    made.session.on('close', () => sessions.splice(sessions.indexOf(made), 1));
    sessions.push(made);
  }
  entry.open += 1;
  return entry;
}

function event(name, data) {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function relay(response, body) {
  const entry = sessionWithRoom();
  const payload = JSON.stringify({
    model,
    messages: [{ role: 'user', content: body.text }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const stream = entry.session.request({
    ':method': 'POST',
    ':path': `${provider.pathname.replace(/\/$/, '')}/chat/completions`,
    'content-type': 'application/json',
  });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    entry.open -= 1;
  };
  stream.on('close', release);
  stream.on('error', () => response.destroy());
  response.on('close', () => {
    if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
  });
  stream.on('response', (headers) => {
    if (response.headersSent) return;
    if (headers[':status'] !== 200) return void response.writeHead(502).end();
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    response.write(event('message.started', { id: 'message', userId: body.userId ?? null }));
  });
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    let end = buffered.indexOf('\n\n');
    while (end !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const text = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
      if (typeof text === 'string' && text !== '') response.write(event('message.delta', { text }));
    }
  });
  stream.on('end', () => response.end());
  stream.end(payload);
}

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/healthz') return response.end('ok');
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    if (request.method === 'POST' && request.url === '/v1/agents') {
      response.writeHead(201, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ id: 'relay' }));
    }
    if (request.method === 'POST' && /^\/v1\/agents\/[^/]+\/messages$/.test(request.url ?? '')) {
      return relay(response, body);
    }
    response.writeHead(404).end();
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
