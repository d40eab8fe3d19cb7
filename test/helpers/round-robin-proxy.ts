import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for tests: an HTTP proxy on loopback that sends each
 * request to the next upstream in turn. Bodies are piped both ways without
 * buffering, so server-sent event streams flow through as they are written.
 *
 * An upstream that refuses the connection (a dead instance) is skipped and
 * the request tried on the next one: nothing reached it, so nothing can have
 * happened twice. An upstream that dies after the request was sent cuts the
 * client's connection, as a real balancer does: the client cannot know
 * whether its request took effect, and must not be told anything else.
 */
export interface RoundRobinProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The upstreams' base URLs (http://host:port); replace an entry when an instance comes back on another port. */
  upstreams: string[];
  /** Requests forwarded, and connection attempts that skipped a dead upstream. */
  stats: { forwarded: number; skipped: number; cut: number };
  /** The index of the upstream that answered each forwarded request, in order: which instances served. */
  served: number[];
  close(): Promise<void>;
}

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const result: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!hopByHop.has(name)) result[name] = value;
  return result;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const list = [...upstreams];
  const stats = { forwarded: 0, skipped: 0, cut: 0 };
  const served: number[] = [];
  let next = 0;
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer(async (request, response) => {
    // The body is read once (requests of tests are small) so that a refused connection can be retried elsewhere.
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of request) chunks.push(chunk as Buffer);
    } catch {
      return response.destroy();
    }
    const body = Buffer.concat(chunks);
    const cut = () => {
      stats.cut += 1;
      response.destroy();
    };
    for (let attempt = 0; attempt < list.length; attempt += 1) {
      const index = next++ % list.length;
      const target = new URL(request.url ?? '/', list[index]);
      const outcome = await new Promise<'refused' | 'done'>((resolve) => {
        const upstream = http.request(target, {
          method: request.method,
          headers: forwardedHeaders(request.headers),
          agent: false,
        });
        let answered = false;
        upstream.once('error', (error: NodeJS.ErrnoException) => {
          // Only a refused connection is safe to retry elsewhere: a reset may come after the request was acted on.
          if (!answered && error.code === 'ECONNREFUSED') return resolve('refused');
          if (!answered) cut();
          resolve('done');
        });
        upstream.once('response', (answer) => {
          answered = true;
          stats.forwarded += 1;
          served.push(index);
          response.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.headers));
          response.flushHeaders();
          answer.on('data', (chunk: Buffer) => response.write(chunk));
          answer.once('end', () => {
            if (answer.complete) response.end();
            else cut();
            resolve('done');
          });
          answer.once('error', () => {
            cut();
            resolve('done');
          });
          answer.once('aborted', () => {
            cut();
            resolve('done');
          });
        });
        // A client that goes away takes its upstream request with it (a foreground stream is then cancelled).
        response.once('close', () => {
          if (!response.writableFinished) upstream.destroy();
        });
        upstream.end(body);
      });
      if (outcome === 'done') return;
      stats.skipped += 1;
    }
    cut();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    upstreams: list,
    stats,
    served,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
