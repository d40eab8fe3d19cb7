import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body as received, for bodies that are not text (uploads). */
  bytes: Buffer;
}

export type LoopbackHandler = (request: ReceivedRequest, response: http.ServerResponse) => void;

export interface LoopbackHttpServer {
  /** `http://<host>:<port>` without a trailing slash. */
  origin: string;
  port: number;
  /** Every request received, in order, with its body read whole. */
  received: ReceivedRequest[];
  /** Drops every open connection but keeps listening: what a client sees of a server that closed idle keep-alive connections. */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * A plain HTTP server on a loopback address (127.0.0.1 unless told; Linux
 * routes all of 127.0.0.0/8 to loopback, so 127.0.0.2 gives a second
 * address) answering with the test's handler. For the outbound client's and
 * the http plugin's tests.
 */
export async function startLoopbackHttpServer(
  handler: LoopbackHandler,
  host = '127.0.0.1',
  port = 0,
): Promise<LoopbackHttpServer> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      const request = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body,
        bytes,
      };
      received.push(request);
      handler(request, response);
    });
  });
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${bound}`,
    port: bound,
    received,
    dropConnections() {
      server.closeAllConnections();
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
