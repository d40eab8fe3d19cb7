import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../errors.js';
import { getAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import {
  askTools,
  callAgentTool,
  exposedAgents,
  listedTools,
  mcpAgentLimit,
  type McpToolSpec,
  type RateCheck,
} from './agent-tools.js';
import { cancelMcpCall, mcpCallKey, type McpCallRegistry } from './mcp-calls.js';

const serverInfo = { name: 'agentd', version: '0.1.0' };
/** One for every request's server: the SDK would otherwise build an Ajv instance per server, the largest cost of a request. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();
const resourcePrefix = 'agentd://agents/';

/** Where an `ask_<agent>` tool says which agent it asks, so a client (the dashboard) can match tools to agents. */
export const toolAgentIdMeta = 'agentd/agentId';

function toolOf(spec: McpToolSpec & { agentId?: string }) {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema as never,
    ...(spec.agentId !== undefined ? { _meta: { [toolAgentIdMeta]: spec.agentId } } : {}),
  };
}

function errorResult(error: AppError): CallToolResult {
  const problem = { code: error.code, status: error.status, title: error.title, detail: error.detail };
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.title}: ${error.detail}` }],
    structuredContent: { error: error.errors ? { ...problem, errors: error.errors } : problem },
  };
}

/**
 * agentd's MCP server for one request of one account (the Streamable HTTP
 * transport is stateless: any instance answers any request). The low-level
 * `Server` rather than `McpServer`: the account's `ask_<agent>` tools are
 * read when a request needs them (tools/list, a call of one), not for every
 * request, and their input schemas are agentd's own TypeBox schemas.
 */
export function createMcpServer({
  ctx,
  rateCheck,
  sessionId,
  calls,
}: {
  ctx: ServiceContext;
  rateCheck: RateCheck;
  /** The client's Mcp-Session-Id ('' without one): with the request id, it names a call to cancel (mcp-calls.ts). */
  sessionId: string;
  calls: McpCallRegistry;
}): Server {
  const server = new Server(serverInfo, {
    capabilities: { tools: {}, resources: {} },
    jsonSchemaValidator,
    instructions:
      'The AI agents of one agentd account. list_agents shows them; send_message talks to any of them, ' +
      'ask_<agent> tools to those offered by name. Agents remember conversations by userId and roomId.',
  });
  const accountId = ctx.actor.accountId;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await rateCheck('listAgents', accountId, null);
    return { tools: (await listedTools(ctx)).map(toolOf) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const controller = new AbortController();
    const onAbort = () => controller.abort(extra.signal.reason);
    extra.signal.addEventListener('abort', onAbort, { once: true });
    // A signal already aborted (the call was cancelled before it got here) fires no event.
    if (extra.signal.aborted) onAbort();
    const callKey = mcpCallKey(sessionId, ctx.actor.keyId, extra.requestId);
    const end = calls.begin(accountId, callKey.local, controller);
    const progressToken = request.params._meta?.progressToken;
    try {
      const result = await callAgentTool({
        ctx,
        rateCheck,
        name: request.params.name,
        args: request.params.arguments,
        options: {
          signal: controller.signal,
          callKey: callKey.stored,
          progress:
            progressToken === undefined
              ? null
              : (text, progress) =>
                  extra.sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken, progress, message: text },
                  }),
        },
        resolveAskTool: async (name) =>
          askTools(await exposedAgents(ctx)).find((tool) => tool.name === name)?.agentId ?? null,
      });
      return { content: [{ type: 'text', text: result.text }], structuredContent: result.structured };
    } catch (error) {
      if (error instanceof AppError) return errorResult(error);
      ctx.deps.logger.error({ err: error, requestId: ctx.requestId }, 'mcp tool call failed');
      return errorResult(new AppError('internal', 'An unexpected error occurred; it has been logged.'));
    } finally {
      extra.signal.removeEventListener('abort', onAbort);
      end();
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    await rateCheck('listAgents', accountId, null);
    // The profiles are what agents:read reads: a key without it has none to list (an empty list, as tools/list).
    if (!ctx.actor.scopes.has('agents:read')) return { resources: [] };
    const agents = await ctx.deps.repositories.agents.page({
      accountId,
      sortBy: 'createdAt',
      order: 'desc',
      limit: mcpAgentLimit,
    });
    return {
      resources: agents.map((agent) => ({
        uri: `${resourcePrefix}${agent.id}`,
        name: agent.name,
        title: `The profile of ${agent.name}`,
        mimeType: 'application/json',
      })),
    };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (!uri.startsWith(resourcePrefix)) throw new McpError(ErrorCode.InvalidParams, 'Unknown resource');
    const agentId = uri.slice(resourcePrefix.length);
    const problemOf = (error: unknown) =>
      error instanceof AppError ? new McpError(ErrorCode.InvalidParams, `${error.title}: ${error.detail}`) : error;
    // Before the rate budget is spent, and whether the agent exists or not.
    try {
      requireScope(ctx, 'agents:read');
    } catch (error) {
      throw problemOf(error);
    }
    await rateCheck('getAgent', accountId, agentId);
    try {
      const agent = await getAgent({ ctx, agentId });
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(agent) }] };
    } catch (error) {
      throw problemOf(error);
    }
  });

  // The call a cancellation names was begun by another request's server, on this instance or another one.
  // A notification has no answer: what came of it is only logged.
  server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const { requestId, reason } = notification.params;
    if (requestId === undefined) return;
    try {
      const outcome = await cancelMcpCall({
        ctx,
        calls,
        callKey: mcpCallKey(sessionId, ctx.actor.keyId, requestId),
        reason: reason ?? 'cancelled by the client',
      });
      ctx.deps.logger.debug(
        { requestId: ctx.requestId, mcpRequestId: String(requestId).slice(0, 200), outcome },
        'mcp cancellation',
      );
    } catch (error) {
      const level = error instanceof AppError ? 'debug' : 'warn';
      ctx.deps.logger[level]({ err: error, requestId: ctx.requestId }, 'mcp cancellation not carried out');
    }
  });

  return server;
}
