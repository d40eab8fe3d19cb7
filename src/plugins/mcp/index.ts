import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolError, type PluginDefinition, type Tool, type ToolCallContext } from '../plugin.js';
import { defaultPrefix, defaultTimeoutMs, mcpConfigSchema, mcpSecretsSchema } from './config.js';
import { McpConnection } from './connection.js';
import { describeFailure, isConnectionFailure, redacted } from './describe-failure.js';
import { contentText, outputOf, type CallResult } from './tool-result.js';
import { exposedToolName } from './tool-name.js';

/** Bounds a failed tool's own message, which the model reads as the result. */
const toolErrorLimit = 2000;

/** Bounds how many of a server's tools are read, should its listing never end. */
const listedToolLimit = 500;

/** The address as shown to the model and in logs: no user info, query or fragment, which may carry credentials. */
function displayAddress(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

interface ServerTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** What the server says of the tool (MCP tool annotations); hints, not guarantees. */
  annotations?: { readOnlyHint?: boolean };
}

async function listServerTools(client: Client, timeoutMs: number): Promise<ServerTool[]> {
  const tools: ServerTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor && tools.length < listedToolLimit);
  return tools.slice(0, listedToolLimit);
}

/**
 * A 404 to a request carrying a session id means the server no longer knows
 * the session (it restarted); MCP asks the client to start a new one. The call
 * never ran, so it is safe to send once more on the new session.
 */
function isForgottenSession(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

export const mcpPlugin: PluginDefinition<typeof mcpConfigSchema, typeof mcpSecretsSchema> = {
  name: 'mcp',
  description:
    'Connects the agent to a Model Context Protocol server over Streamable HTTP and gives the model its tools, named `<prefix>_<tool>`.',
  configSchema: mcpConfigSchema,
  secretsSchema: mcpSecretsSchema,
  // The headers go to the server at this address, and to no other.
  secretDestination: (config) => ({ url: config.url }),

  /**
   * Connects and lists the server's tools once per agent version. When the
   * server cannot be reached this throws, with a message naming the server and
   * the reason, rather than returning an empty tool list: the core then gives
   * the model no tools from this entry for that reply and logs the reason, and
   * nothing broken is kept, so a later open finds a server that came back.
   */
  async open(config, secrets, context) {
    const timeoutMs = config.timeoutMs ?? defaultTimeoutMs;
    const prefix = config.prefix ?? defaultPrefix;
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new Error('The MCP server address is not a valid URL');
    }
    const address = displayAddress(url);
    const secretValues = Object.values(secrets ?? {});
    const describe = (error: unknown) => describeFailure(error, address, secretValues, timeoutMs);

    const connection = new McpConnection({
      url,
      headers: { ...secrets },
      fetch: context.fetch,
      timeoutMs,
      logger: context.logger.child({ agentId: context.agentId, plugin: 'mcp', server: address }),
    });
    let serverTools: ServerTool[];
    try {
      serverTools = await listServerTools(await connection.client(), timeoutMs);
    } catch (error) {
      await connection.close();
      // No `cause`: what the server or the network said is summarised, secrets removed, in the message.
      throw new Error(describe(error));
    }

    const allowed = config.tools ? new Set(config.tools) : undefined;
    const tools: Tool[] = [];
    const taken = new Set<string>();
    for (const serverTool of serverTools) {
      if (allowed && !allowed.has(serverTool.name)) continue;
      const name = exposedToolName(prefix, serverTool.name);
      if (taken.has(name)) {
        context.logger.warn(
          { agentId: context.agentId, tool: serverTool.name, name },
          'mcp tool name taken; tool left out',
        );
        continue;
      }
      taken.add(name);
      tools.push({
        name,
        description: serverTool.description ?? `The ${serverTool.name} tool of the MCP server at ${address}.`,
        inputSchema: serverTool.inputSchema,
        // Only a tool the server marks read-only is taken to change nothing; MCP's default is that a tool may.
        sideEffects: serverTool.annotations?.readOnlyHint !== true,
        execute: (input, callContext) => call(serverTool.name, input, callContext),
      });
    }

    async function callOnce(serverToolName: string, input: unknown, { abortSignal }: ToolCallContext) {
      const client = await connection.client();
      // The SDK leaves its abort listener on the signal it is given; a signal of
      // its own per call keeps a reply's many calls from piling listeners on one.
      const callController = new AbortController();
      const forwardAbort = () => callController.abort(abortSignal.reason);
      if (abortSignal.aborted) forwardAbort();
      else abortSignal.addEventListener('abort', forwardAbort, { once: true });
      try {
        return (await client.callTool(
          { name: serverToolName, arguments: (input ?? {}) as Record<string, unknown> },
          undefined,
          { signal: callController.signal, timeout: timeoutMs },
        )) as CallResult;
      } catch (error) {
        if (!abortSignal.aborted && isConnectionFailure(error)) await connection.discard(client);
        throw error;
      } finally {
        abortSignal.removeEventListener('abort', forwardAbort);
      }
    }

    async function call(serverToolName: string, input: unknown, callContext: ToolCallContext): Promise<unknown> {
      let result: CallResult;
      try {
        try {
          result = await callOnce(serverToolName, input, callContext);
        } catch (error) {
          if (!isForgottenSession(error)) throw error;
          result = await callOnce(serverToolName, input, callContext);
        }
      } catch (error) {
        throw new ToolError(describe(error));
      }
      if (result.isError) {
        const text = contentText(result).trim();
        const message = text ? `The tool ${serverToolName} failed: ${text}` : `The tool ${serverToolName} failed`;
        throw new ToolError(redacted(message, secretValues, toolErrorLimit));
      }
      return outputOf(result);
    }

    const listed = new Set(serverTools.map((serverTool) => serverTool.name));
    const missing = (config.tools ?? []).filter((name) => !listed.has(name));
    if (missing.length > 0) {
      context.logger.warn(
        { agentId: context.agentId, missing },
        'mcp allow-list names tools the server does not offer',
      );
    }

    return { tools, close: () => connection.close() };
  },
};
