import { randomUUID } from 'node:crypto';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../../errors.js';
import { contextOf } from '../../http/operation.js';
import { sendEventStream, type ServerSentEvent } from '../../http/sse.js';
import { createMcpServer } from '../../services/mcp/mcp-server.js';
import type { McpEndpointOptions } from './mcp-endpoint.js';
import { RequestTransport } from './request-transport.js';

/** A session id as a client may send it back: printable ASCII (the MCP transport's rule), bounded. */
const sessionIdPattern = /^[\x21-\x7E]{1,128}$/;

/**
 * What the Streamable HTTP transport refuses, refused as problem+json like
 * every other bad request: an Accept without both answers, a Content-Type
 * other than JSON, a protocol version it does not know, and anything but a
 * JSON-RPC message, which is parsed here once. A request that names no Accept
 * is taken to accept both answers.
 */
function checkMcpRequest(request: FastifyRequest): JSONRPCMessage {
  const headers = request.raw.headers;
  const accept = headers.accept?.trim() ?? '';
  if (accept === '' || accept === '*/*') headers.accept = 'application/json, text/event-stream';
  else if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw validationError('/headers/accept', 'must accept both application/json and text/event-stream');
  }
  // The transport takes `application/json` only; other JSON types the server parses (merge patches) are refused
  // here. It reads the Content-Type as a web Request joins it, every header of that name with ", " (Node keeps the
  // first): the same check over the same text, so that no request gets past this one to be refused by the transport.
  const contentType = request.raw.rawHeaders
    .filter((_, index, raw) => index % 2 === 1 && raw[index - 1]!.toLowerCase() === 'content-type')
    .join(', ');
  if (!isJsonContentType(contentType)) {
    throw new AppError('unsupported_media_type', 'The MCP endpoint takes a JSON-RPC message as application/json.');
  }
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
    throw validationError('/headers/mcp-protocol-version', `must be one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
  }
  const message = JSONRPCMessageSchema.safeParse(request.body);
  if (!message.success) throw validationError('/body', 'must be a JSON-RPC 2.0 request or notification');
  return message.data;
}

/** Whether a request asks for progress notifications (`_meta.progressToken`): only those need an event stream. */
function wantsProgress(message: JSONRPCMessage): boolean {
  return (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken !== undefined;
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/** Answers one POST of the MCP endpoint (src/routes/mcp/mcp-endpoint.ts). */
export async function answerMcp(request: FastifyRequest, reply: FastifyReply, options: McpEndpointOptions) {
  const ctx = contextOf(request);
  const sent = request.headers['mcp-session-id'];
  let sessionId = typeof sent === 'string' && sessionIdPattern.test(sent) ? sent : '';
  if (isInitialize(request.body)) sessionId = `mcps_${randomUUID()}`;

  const message = checkMcpRequest(request);
  const transport = new RequestTransport();
  const server = createMcpServer({ ctx, rateCheck: options.rateCheck, sessionId, calls: options.calls });
  await server.connect(transport);
  if (sessionId !== '') reply.header('mcp-session-id', sessionId);
  // The client's leaving, or the shutdown deadline, closes the server: its calls are aborted, their runs cancelled.
  // A server whose answer went out has nothing left to stop, and is left to the garbage collector (closing it
  // would only build the SDK's "Connection closed" error, stack trace and all, for every request).
  const registration = options.shutdown.beginStream(() => void server.close());
  reply.raw.once('close', () => {
    registration.end();
    if (!reply.raw.writableFinished) void server.close();
  });
  const messages = transport.exchange(message, { requestInfo: { headers: request.headers } });
  // Notifications only: 202 with no body at all (MCP asks for none; `null` would be serialized as JSON).
  if (!('id' in message)) return reply.code(202).send(undefined as never);

  if (wantsProgress(message)) {
    async function* events(): AsyncGenerator<ServerSentEvent, void, undefined> {
      for await (const each of messages) yield { event: 'message', data: each };
    }
    await sendEventStream(reply, events(), {
      keepAliveMs: options.keepAliveMs,
      onClientGone: () => void server.close(),
    });
    return reply;
  }
  // A plain JSON answer where no progress is streamed: cheaper than an event stream of one event.
  let response: JSONRPCMessage | undefined;
  for await (const each of messages) response = each;
  if (response !== undefined) return reply.type('application/json').send(response);
  // Closed before the server answered: the client has left, or the shutdown deadline cut the call.
  if (request.raw.socket.destroyed) return reply.hijack();
  return reply.type('application/json').send({
    jsonrpc: '2.0',
    id: message.id,
    error: { code: ErrorCode.ConnectionClosed, message: 'The server is shutting down; the call was cancelled.' },
  });
}
