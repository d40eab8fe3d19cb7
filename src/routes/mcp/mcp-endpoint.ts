import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.js';
import type { App } from '../../http/app-instance.js';
import type { GracefulShutdown } from '../../http/graceful-shutdown.js';
import type { RateCheck } from '../../services/mcp/agent-tools.js';
import type { McpCallRegistry } from '../../services/mcp/mcp-calls.js';
import { problemResponses } from '../../schemas/common.js';
import { McpMessageBody } from '../../schemas/mcp.js';

export interface McpEndpointOptions {
  rateCheck: RateCheck;
  shutdown: GracefulShutdown;
  calls: McpCallRegistry;
  keepAliveMs: number;
}

/**
 * The MCP SDK and its schemas (a fifth of a second to load) load with the first MCP request rather than with
 * the server: an instance that never gets one never loads them.
 */
let exchange: Promise<typeof import('./mcp-exchange.js')> | null = null;
const loadExchange = () => (exchange ??= import('./mcp-exchange.js'));

/**
 * agentd's MCP server over Streamable HTTP (MCP 2025-06-18 and later), one
 * stateless server and transport per request, so that any instance behind a
 * load balancer answers any request. `initialize` still hands out an
 * `Mcp-Session-Id`: no instance keeps anything under it, but the client sends
 * it back with every request, which lets a cancellation name its call.
 */
export function registerMcpEndpoint(app: App, options: McpEndpointOptions): void {
  const operation = { scope: null, rateLimit: 'sendMessage', rateLimitPer: 'body-agent' } as const;
  app.post(
    '/v1/mcp',
    {
      config: { operation },
      schema: {
        operationId: 'mcp',
        tags: ['mcp'],
        summary: 'The MCP server (Streamable HTTP)',
        description:
          'A Model Context Protocol server for MCP clients (IDEs, desktop assistants, other agents), on the ' +
          'Streamable HTTP transport: JSON-RPC messages in, a JSON-RPC response or an event stream of progress ' +
          'notifications and the response out. Tools: `list_agents`, `get_agent`, `send_message` and one ' +
          '`ask_<agent>` per agent with `mcp.exposed`; resources: each agent’s profile (`agentd://agents/{id}`, ' +
          'secrets masked). A tool call needs the scope its REST route needs (`agents:read`, `messages:send`), and ' +
          'tools/list and resources/list show a key only the tools and profiles its scopes let it use (an empty ' +
          'list when none; an `ask_<agent>` tool carries the bio and agent id only with `agents:read`). A ' +
          'call spends the same per-minute limits and in-flight slots; its reply is a run with trigger `mcp`. ' +
          'Stateless: every instance answers every request; GET and DELETE are 405. A `notifications/cancelled` ' +
          'stops the call it names (by request id within the `Mcp-Session-Id`, or within the API key without ' +
          'one) on whichever instance it lands. See docs/mcp-server.md.',
        body: McpMessageBody,
        response: {
          200: {
            description: 'The JSON-RPC response, or an event stream of notifications ending with it.',
            content: {
              'application/json': { schema: Type.Unknown() },
              'text/event-stream': { schema: Type.String() },
            },
          },
          202: Type.Null({ description: 'Notifications only: accepted.' }),
          ...problemResponses(400, 415),
        },
      },
    },
    async (request, reply) => (await loadExchange()).answerMcp(request, reply, options),
  );

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/v1/mcp',
      config: { operation },
      schema: { hide: true },
      handler: async () => {
        // Stateless: no stream of server-initiated messages to open, no session to end (MCP lets both be 405).
        throw new AppError('method_not_allowed', 'The MCP endpoint is stateless: it takes POST only.', {
          headers: { allow: 'POST' },
        });
      },
    });
  }
}
