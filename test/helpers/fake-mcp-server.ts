import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/**
 * An MCP server for tests, speaking Streamable HTTP with sessions on loopback
 * only, written with the MCP SDK so it answers as real servers do. Its tools:
 * `add` {a, b} → the sum (also as structured content; annotated read-only),
 * and `lookup_word` {word} → a definition, or an `isError` result for a word
 * it does not know (with no annotations).
 * It records every HTTP request (with its headers) and every tool call, can
 * hold calls until released (for time-outs), and can be stopped and started
 * again on the same port (a server that goes away and comes back).
 */

export interface RecordedMcpRequest {
  method: string;
  sessionId: string | undefined;
  /** Every request header, names in lower case. */
  headers: http.IncomingHttpHeaders;
}

export interface RecordedToolCall {
  tool: string;
  arguments: Record<string, unknown>;
  sessionId: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeMcpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:43210/mcp. */
  url: string;
  port: number;
  requests: RecordedMcpRequest[];
  calls: RecordedToolCall[];
  /** Session ids in the order they were started, and those ended by the client's DELETE. */
  sessionsOpened: string[];
  sessionsEnded: string[];
  /** Tool calls wait from now until the returned function is called (or the server stops). */
  holdCalls(): () => void;
  /** Stops listening and drops every connection and session: the server is unreachable. */
  close(): Promise<void>;
  /** Listens again on the same port with no sessions, as a restarted server would. */
  restart(): Promise<void>;
  /**
   * Drops every session but keeps the connections open: what a client sees of
   * a server that restarted while the client's connection was idle elsewhere,
   * without depending on how the client's connection pool notices a closed socket.
   */
  forgetSessions(): Promise<void>;
}

const definitions: Record<string, string> = {
  ephemeral: 'Lasting for a very short time.',
  lexicon: 'The vocabulary of a language.',
};

function createToolServer(recordCall: (call: RecordedToolCall) => Promise<void>): McpServer {
  const server = new McpServer({ name: 'fake-mcp-server', version: '1.0.0' });
  const record = async (
    tool: string,
    args: Record<string, unknown>,
    extra: { sessionId?: string; requestInfo?: { headers: Record<string, string | string[] | undefined> } },
  ) => recordCall({ tool, arguments: args, sessionId: extra.sessionId, headers: extra.requestInfo?.headers ?? {} });

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
      annotations: { readOnlyHint: true },
    },
    async (args, extra) => {
      await record('add', args, extra);
      const sum = args.a + args.b;
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );
  server.registerTool(
    'lookup_word',
    { description: 'Looks up the definition of an English word.', inputSchema: { word: z.string() } },
    async (args, extra) => {
      await record('lookup_word', args, extra);
      const definition = definitions[args.word.toLowerCase()];
      if (!definition)
        return { content: [{ type: 'text', text: `No definition found for "${args.word}".` }], isError: true };
      return { content: [{ type: 'text', text: `${args.word}: ${definition}` }] };
    },
  );
  return server;
}

async function readBody(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startFakeMcpServer(options: { path?: string } = {}): Promise<FakeMcpServer> {
  const path = options.path ?? '/mcp';
  let sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  let hold: Promise<void> | undefined;
  let releaseHold: (() => void) | undefined;

  const requests: RecordedMcpRequest[] = [];
  const calls: RecordedToolCall[] = [];
  const sessionsOpened: string[] = [];
  const sessionsEnded: string[] = [];

  async function recordCall(call: RecordedToolCall) {
    calls.push(call);
    if (hold) await hold;
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const sessionId = request.headers['mcp-session-id'] as string | undefined;
    requests.push({ method: request.method ?? '', sessionId, headers: request.headers });
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    const known = sessionId ? sessions.get(sessionId) : undefined;
    if (known) {
      await known.transport.handleRequest(request, response, body);
      return;
    }
    if (sessionId) {
      // What the Streamable HTTP transport specifies for a session the server does not (or no longer) know.
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No session' }, id: null }));
      return;
    }
    const server = createToolServer(recordCall);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
        sessionsOpened.push(id);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        sessionsEnded.push(id);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const httpServer = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });

  async function listen(port: number) {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(port, '127.0.0.1', () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
    return (httpServer.address() as AddressInfo).port;
  }

  const port = await listen(0);

  async function forgetSessions() {
    const open = [...sessions.values()];
    sessions = new Map();
    await Promise.all(open.map(({ server }) => server.close().catch(() => undefined)));
  }

  async function close() {
    releaseHold?.();
    await forgetSessions();
    if (!httpServer.listening) return;
    const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeAllConnections();
    await closed;
  }

  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    calls,
    sessionsOpened,
    sessionsEnded,
    holdCalls() {
      hold = new Promise<void>((resolve) => {
        releaseHold = () => {
          hold = undefined;
          resolve();
        };
      });
      return () => releaseHold?.();
    },
    close,
    forgetSessions,
    async restart() {
      await close();
      await listen(port);
    },
  };
}
