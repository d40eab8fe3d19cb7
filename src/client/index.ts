import createClient, { type Client } from 'openapi-fetch';
import { AgentdError, errorOf } from './agentd-error.js';
import { toMessageEvent, type MessageEvent } from './message-events.js';
import type { paths } from './openapi.js';
import { readServerSentEvents } from './server-sent-events.js';
import type {
  Agent,
  Approval,
  CreateAgentBody,
  DecideApprovalBody,
  CreateTaskBody,
  DeletedAgent,
  DeletedTask,
  ListAgentsQuery,
  ListApprovalsQuery,
  ListRunsQuery,
  Run,
  SendMessageBody,
  Task,
  UpdateTaskBody,
} from './types.js';

/**
 * The typed client of agentd. Its types are generated from the server's OpenAPI
 * document (src/client/openapi.d.ts, `npm run client:types`); this file adds
 * what a document cannot describe: walking every page of a list, and the
 * events of a streamed reply. It imports nothing else from the server, so it
 * can be lifted into a package of its own.
 */
export { AgentdError } from './agentd-error.js';
export type { MessageEvent, MessageEventType } from './message-events.js';
export type * from './types.js';
export type { paths, components, operations } from './openapi.js';

export interface AgentdClientOptions {
  /** Where agentd listens, e.g. http://127.0.0.1:3000 (no /v1). */
  baseUrl: string;
  apiKey: string;
  /** A fetch of your own (tests, proxies); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface AgentdClient {
  /** Every operation of the OpenAPI document, typed: `client.api.GET('/v1/agents/{agentId}', …)`. */
  api: Client<paths>;
  agents: {
    /** Every agent matching the query, page after page by `nextCursor`; `limit` is the page size. */
    list(query?: Omit<ListAgentsQuery, 'cursor' | 'page'>, options?: RequestOptions): AsyncGenerator<Agent, void>;
    get(agentId: string, options?: RequestOptions): Promise<Agent>;
    create(body: CreateAgentBody, options?: RequestOptions & { idempotencyKey?: string }): Promise<Agent>;
    delete(agentId: string, options?: RequestOptions): Promise<DeletedAgent>;
  };
  tasks: {
    /** Every task of the agent, newest first, page after page. */
    list(agentId: string, options?: RequestOptions): AsyncGenerator<Task, void>;
    get(agentId: string, taskId: string, options?: RequestOptions): Promise<Task>;
    create(agentId: string, body: CreateTaskBody, options?: RequestOptions): Promise<Task>;
    update(agentId: string, taskId: string, body: UpdateTaskBody, options?: RequestOptions): Promise<Task>;
    delete(agentId: string, taskId: string, options?: RequestOptions): Promise<DeletedTask>;
    /** Starts a run of the task now; resolves with the queued run. */
    run(agentId: string, taskId: string, options?: RequestOptions): Promise<Run>;
  };
  messages: {
    /**
     * Sends a message and yields the reply's events as they arrive. Aborting the
     * signal, or leaving the loop early, hangs up: the server stops the model call.
     */
    stream(
      agentId: string,
      body: Omit<SendMessageBody, 'stream'>,
      options?: RequestOptions,
    ): AsyncGenerator<MessageEvent, void>;
    /** Sends a message to be answered in the background: the queued run, at once (follow it with `runs`). */
    background(
      agentId: string,
      body: Omit<SendMessageBody, 'stream' | 'background'>,
      options?: RequestOptions,
    ): Promise<Run>;
  };
  runs: {
    /** Every run of the agent matching the query, newest first, page after page. */
    list(agentId: string, query?: Omit<ListRunsQuery, 'cursor'>, options?: RequestOptions): AsyncGenerator<Run, void>;
    get(agentId: string, runId: string, options?: RequestOptions): Promise<Run>;
    cancel(agentId: string, runId: string, options?: RequestOptions): Promise<Run>;
    /**
     * The run's events, from the start or after `after` (the `seq` of the last event you have), until its
     * last one. Leaving the loop stops reading, not the run.
     */
    events(
      agentId: string,
      runId: string,
      options?: RequestOptions & { after?: number },
    ): AsyncGenerator<MessageEvent, void>;
  };
  approvals: {
    /** The agent's approvals matching the query (`{ status: 'pending' }`: those to decide), newest first. */
    list(
      agentId: string,
      query?: Omit<ListApprovalsQuery, 'cursor'>,
      options?: RequestOptions,
    ): AsyncGenerator<Approval, void>;
    /** The approvals of every agent of the account (`{ status: 'pending' }`: all there is to decide), newest first. */
    listAll(query?: Omit<ListApprovalsQuery, 'cursor'>, options?: RequestOptions): AsyncGenerator<Approval, void>;
    get(agentId: string, approvalId: string, options?: RequestOptions): Promise<Approval>;
    /**
     * Approves or denies a tool call that waits; once a paused run's calls are all decided, `resumedRunId`
     * names the run that goes on with the reply (follow it with `runs.events`). A second decision: 409.
     */
    decide(agentId: string, approvalId: string, body: DecideApprovalBody, options?: RequestOptions): Promise<Approval>;
  };
  files: {
    /** A file of the account (an image a message carried or a tool made, by its `fileId`): its bytes and type. */
    get(fileId: string, options?: RequestOptions): Promise<{ bytes: Uint8Array; mediaType: string }>;
  };
}

export function createAgentdClient(options: AgentdClientOptions): AgentdClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  /** The data of a success, or the problem thrown as an AgentdError. */
  function unwrap<Data>(result: { data?: Data; error?: unknown; response: Response }): Data {
    if (result.response.ok && result.data !== undefined) return result.data;
    throw errorOf(result.response, result.error);
  }

  const signalOf = (requestOptions?: RequestOptions) =>
    requestOptions?.signal ? { signal: requestOptions.signal } : {};

  return {
    api,
    agents: {
      async *list(query = {}, requestOptions) {
        let cursor: string | undefined;
        do {
          const page = unwrap(
            await api.GET('/v1/agents', {
              params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
              ...signalOf(requestOptions),
            }),
          );
          yield* page.data;
          cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
        } while (cursor !== undefined);
      },
      async get(agentId, requestOptions) {
        return unwrap(
          await api.GET('/v1/agents/{agentId}', { params: { path: { agentId } }, ...signalOf(requestOptions) }),
        );
      },
      async create(body, requestOptions) {
        const idempotencyKey = requestOptions?.idempotencyKey;
        return unwrap(
          await api.POST('/v1/agents', {
            body,
            ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
            ...signalOf(requestOptions),
          }),
        );
      },
      async delete(agentId, requestOptions) {
        return unwrap(
          await api.DELETE('/v1/agents/{agentId}', { params: { path: { agentId } }, ...signalOf(requestOptions) }),
        );
      },
    },
    tasks: {
      async *list(agentId, requestOptions) {
        let cursor: string | undefined;
        do {
          const page = unwrap(
            await api.GET('/v1/agents/{agentId}/tasks', {
              params: { path: { agentId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
              ...signalOf(requestOptions),
            }),
          );
          yield* page.data;
          cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
        } while (cursor !== undefined);
      },
      async get(agentId, taskId, requestOptions) {
        return unwrap(
          await api.GET('/v1/agents/{agentId}/tasks/{taskId}', {
            params: { path: { agentId, taskId } },
            ...signalOf(requestOptions),
          }),
        );
      },
      async create(agentId, body, requestOptions) {
        return unwrap(
          await api.POST('/v1/agents/{agentId}/tasks', {
            params: { path: { agentId } },
            body,
            ...signalOf(requestOptions),
          }),
        );
      },
      async update(agentId, taskId, body, requestOptions) {
        return unwrap(
          await api.PATCH('/v1/agents/{agentId}/tasks/{taskId}', {
            params: { path: { agentId, taskId } },
            body,
            ...signalOf(requestOptions),
          }),
        );
      },
      async delete(agentId, taskId, requestOptions) {
        return unwrap(
          await api.DELETE('/v1/agents/{agentId}/tasks/{taskId}', {
            params: { path: { agentId, taskId } },
            ...signalOf(requestOptions),
          }),
        );
      },
      async run(agentId, taskId, requestOptions) {
        return unwrap(
          await api.POST('/v1/agents/{agentId}/tasks/{taskId}/run', {
            params: { path: { agentId, taskId } },
            ...signalOf(requestOptions),
          }),
        );
      },
    },
    messages: {
      async *stream(agentId, body, requestOptions) {
        const result = await api.POST('/v1/agents/{agentId}/messages', {
          params: { path: { agentId } },
          body: { ...body, stream: true },
          parseAs: 'stream',
          ...signalOf(requestOptions),
        });
        const { response } = result;
        if (!response.ok) throw errorOf(response, result.error);
        yield* typedEvents(response, requestOptions?.signal);
      },
      async background(agentId, body, requestOptions) {
        const result = await api.POST('/v1/agents/{agentId}/messages', {
          params: { path: { agentId } },
          body: { ...body, background: true },
          ...signalOf(requestOptions),
        });
        if (result.response.status !== 202) throw errorOf(result.response, result.error);
        return result.data as unknown as Run;
      },
    },
    runs: {
      async *list(agentId, query = {}, requestOptions) {
        let cursor: string | undefined;
        do {
          const page = unwrap(
            await api.GET('/v1/agents/{agentId}/runs', {
              params: { path: { agentId }, query: { ...query, ...(cursor ? { cursor } : {}) } },
              ...signalOf(requestOptions),
            }),
          );
          yield* page.data;
          cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
        } while (cursor !== undefined);
      },
      async get(agentId, runId, requestOptions) {
        return unwrap(
          await api.GET('/v1/agents/{agentId}/runs/{runId}', {
            params: { path: { agentId, runId } },
            ...signalOf(requestOptions),
          }),
        );
      },
      async cancel(agentId, runId, requestOptions) {
        return unwrap(
          await api.POST('/v1/agents/{agentId}/runs/{runId}/cancel', {
            params: { path: { agentId, runId } },
            ...signalOf(requestOptions),
          }),
        );
      },
      async *events(agentId, runId, requestOptions = {}) {
        const { after } = requestOptions;
        const result = await api.GET('/v1/agents/{agentId}/runs/{runId}/events', {
          params: { path: { agentId, runId }, ...(after !== undefined ? { query: { after } } : {}) },
          parseAs: 'stream',
          ...signalOf(requestOptions),
        });
        if (!result.response.ok) throw errorOf(result.response, result.error);
        yield* typedEvents(result.response, requestOptions.signal);
      },
    },
    approvals: {
      async *list(agentId, query = {}, requestOptions) {
        let cursor: string | undefined;
        do {
          const page = unwrap(
            await api.GET('/v1/agents/{agentId}/approvals', {
              params: { path: { agentId }, query: { ...query, ...(cursor ? { cursor } : {}) } },
              ...signalOf(requestOptions),
            }),
          );
          yield* page.data;
          cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
        } while (cursor !== undefined);
      },
      async *listAll(query = {}, requestOptions) {
        let cursor: string | undefined;
        do {
          const page = unwrap(
            await api.GET('/v1/approvals', {
              params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
              ...signalOf(requestOptions),
            }),
          );
          yield* page.data;
          cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined;
        } while (cursor !== undefined);
      },
      async get(agentId, approvalId, requestOptions) {
        return unwrap(
          await api.GET('/v1/agents/{agentId}/approvals/{approvalId}', {
            params: { path: { agentId, approvalId } },
            ...signalOf(requestOptions),
          }),
        );
      },
      async decide(agentId, approvalId, body, requestOptions) {
        return unwrap(
          await api.POST('/v1/agents/{agentId}/approvals/{approvalId}', {
            params: { path: { agentId, approvalId } },
            body,
            ...signalOf(requestOptions),
          }),
        );
      },
    },
    files: {
      async get(fileId, requestOptions) {
        const result = await api.GET('/v1/files/{fileId}', {
          params: { path: { fileId } },
          parseAs: 'arrayBuffer',
          ...signalOf(requestOptions),
        });
        if (!result.response.ok) throw errorOf(result.response, result.error);
        return {
          bytes: new Uint8Array(result.data as unknown as ArrayBuffer),
          mediaType: result.response.headers.get('content-type') ?? 'application/octet-stream',
        };
      },
    },
  };
}

async function* typedEvents(response: Response, signal?: AbortSignal): AsyncGenerator<MessageEvent, void> {
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
    await response.body?.cancel();
    throw new AgentdError(response.status, null, 'the server did not answer with an event stream');
  }
  for await (const raw of readServerSentEvents(response.body)) {
    // Events that arrived in the same chunk as the one read before the abort are not handed out after it.
    signal?.throwIfAborted();
    const event = toMessageEvent(raw, response.status);
    if (event) yield event;
  }
}
