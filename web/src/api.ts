import type { Agent, MessageReply, Problem, ToolCall } from '../../src/client/types.js';
import type { MessageEvent } from '../../src/client/message-events.js';
import { readServerSentEvents } from '../../src/client/server-sent-events.js';
import { readKey } from './session.js';

export type { Agent, MessageReply, Problem, ToolCall, MessageEvent };

/**
 * The dashboard's way to the API: same origin, the key from session storage
 * in the Authorization header (never in a URL), problems thrown as ApiError.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> | null,
  ) {
    super(problem?.detail ?? `The server answered ${status}.`);
  }

  /** Validation problems by JSON pointer into the request, e.g. `/body/model/temperature`. */
  get fieldErrors(): Array<{ path: string; message: string }> {
    const errors = (this.problem?.errors ?? []) as Array<{ path?: string; pointer?: string; message: string }>;
    return errors.map((error) => ({ path: error.path ?? error.pointer ?? '', message: error.message }));
  }
}

/** Listeners told when the key stops working, so the app can sign out. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

type Query = Record<string, string | number | undefined>;

function urlOf(path: string, query?: Query): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

async function problemOf(response: Response): Promise<Partial<Problem> | null> {
  try {
    return (await response.json()) as Partial<Problem>;
  } catch {
    return null;
  }
}

interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** A key to try instead of the stored one (signing in). */
  key?: string;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const key = options.key ?? readKey();
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(urlOf(path, options.query), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    const problem = await problemOf(response);
    if (response.status === 401 && options.key === undefined) unauthorizedListeners.forEach((listener) => listener());
    throw new ApiError(response.status, problem);
  }
  return response;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  return (await response.json()) as T;
}

export interface AgentPage {
  data: Agent[];
  pagination: { page: number; limit: number; total: number; totalPages: number; hasMore: boolean };
}

export interface ConversationTurn {
  id: string;
  userId: string | null;
  roomId: string | null;
  role: 'user' | 'agent' | 'tool';
  text: string;
  finishReason?: string;
  tool?: ToolCall;
  createdAt: string;
}

export interface TurnPage {
  data: ConversationTurn[];
  pagination: { limit: number; hasMore: boolean; nextCursor: string | null };
}

const agentPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}`;

export const api = {
  listAgents: (query: Query, signal?: AbortSignal) => request<AgentPage>('GET', '/v1/agents', { query, signal }),
  getAgent: (agentId: string) => request<Agent>('GET', agentPath(agentId)),
  createAgent: (body: unknown) => request<Agent>('POST', '/v1/agents', { body }),
  updateAgent: (agentId: string, body: unknown) => request<Agent>('PATCH', agentPath(agentId), { body }),
  deleteAgent: (agentId: string) => request<{ id: string; deleted: true }>('DELETE', agentPath(agentId)),
  listMessages: (agentId: string, query: Query) =>
    request<TurnPage>('GET', `${agentPath(agentId)}/messages`, { query }),
  metrics: (agentId: string, query: Query) => request<AgentMetrics>('GET', `${agentPath(agentId)}/metrics`, { query }),
  /** Checks a key before it is stored: any answer but 401 means the key is known. */
  checkKey: (key: string) => request<AgentPage>('GET', '/v1/agents', { query: { limit: 1 }, key }),
};

/** The events of a streamed reply, as the server sends them (README, "Talking to agents"). */
export async function* streamMessage(
  agentId: string,
  body: { text: string; userId?: string; roomId?: string },
  signal: AbortSignal,
): AsyncGenerator<MessageEvent> {
  const response = await send('POST', `${agentPath(agentId)}/messages`, { body: { ...body, stream: true }, signal });
  if (!response.body) throw new ApiError(response.status, null);
  for await (const raw of readServerSentEvents(response.body)) {
    try {
      yield { type: raw.event, data: JSON.parse(raw.data) } as MessageEvent;
    } catch {
      // An event that is not JSON is not one of ours: read past it.
    }
  }
}

/** GET /v1/agents/{agentId}/metrics, as agreed with the server side. */
export interface MetricsFields {
  messages: number;
  streamedMessages: number;
  failedMessages: number;
  failuresByType: Record<string, number>;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
  timeToFirstTokenMs: { p50: number | null; p95: number | null };
  rateLimited: number;
  concurrencyRejected: number;
}
export interface MetricsBucket extends MetricsFields {
  start: string;
}
export interface AgentMetrics {
  agentId: string;
  from: string;
  to: string;
  interval: 'minute' | 'hour' | 'day';
  buckets: MetricsBucket[];
  totals: MetricsFields;
}
