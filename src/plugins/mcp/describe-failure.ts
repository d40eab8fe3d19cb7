import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SecretMask } from '../redact-secrets.js';

/** Bounds what a server's error body can put into the model's context and the logs. */
const messageLimit = 300;

const networkReasons: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ECONNRESET: 'closed the connection',
  UND_ERR_SOCKET: 'closed the connection',
  EPIPE: 'closed the connection',
  ENOTFOUND: 'has a host name that does not resolve',
  EAI_AGAIN: 'has a host name that does not resolve',
  ETIMEDOUT: 'did not accept the connection in time',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept the connection in time',
  EHOSTUNREACH: 'is unreachable',
  ENETUNREACH: 'is unreachable',
};

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return `did not answer within ${timeoutMs} ms`;
    if (error.code === ErrorCode.ConnectionClosed) return 'closed the connection';
    return `answered with an error: ${error.message}`;
  }
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401 || error.code === 403) return `refused the credentials (HTTP ${error.code})`;
    return `answered HTTP ${error.code ?? 'error'}: ${error.message}`;
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return 'was not waited for: the call was cancelled';
  }
  // fetch reports network failures as `TypeError: fetch failed` with the system error as its cause.
  const cause = error instanceof Error ? error.cause : undefined;
  const networkReason = networkReasons[codeOf(cause) ?? codeOf(error) ?? ''];
  if (networkReason) return networkReason;
  return `could not be used: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * A message the model can act on and an operator can read in the logs:
 * which server, and what went wrong. The header values sent to the server are
 * removed in case a server or a network error echoes one back.
 */
export function describeFailure(error: unknown, serverAddress: string, secretValues: string[], timeoutMs: number) {
  return redacted(`The MCP server at ${serverAddress} ${reasonOf(error, timeoutMs)}`, secretValues, messageLimit);
}

/**
 * `message` without any of `secretValues`, in any form the mask knows (the
 * token after its scheme, JSON-escaped, encoded…), cut to `limit` characters
 * after masking, so the cut shows no part of one. The forms are worked out
 * once per set of secrets (`SecretMask.of`), not at every failure.
 */
export function redacted(message: string, secretValues: string[], limit: number): string {
  let result = SecretMask.of(secretValues).text(message);
  // The mask leaves secrets shorter than it searches for; a message quotes a header value whole, whatever its length.
  for (const secret of secretValues) {
    if (secret.length > 0) result = result.split(secret).join('••••');
  }
  return result.length > limit ? `${result.slice(0, limit - 1)}…` : result;
}

/**
 * Whether the server answered the call itself (so the connection is sound),
 * as opposed to a failure of the connection after which the next call should
 * connect afresh. A time-out keeps the connection: the server may only be slow.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) return false;
  return true;
}
