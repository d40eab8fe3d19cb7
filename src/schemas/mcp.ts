import { Type, type Static } from '@sinclair/typebox';
import { SendMessageBody } from './messages.js';

/**
 * The inputs of the tools agentd's MCP server offers (docs/mcp-server.md),
 * as the JSON Schemas MCP clients are shown and the arguments are checked
 * against. The message fields are those of POST /v1/agents/{id}/messages.
 */

const { text, userId, roomId } = SendMessageBody.properties;

export const ListAgentsToolInput = Type.Object(
  {
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListAgentsToolInputValue = Static<typeof ListAgentsToolInput>;

const AgentId = Type.String({ minLength: 1, maxLength: 100, description: 'The agent’s id (agt_…), from list_agents.' });

export const GetAgentToolInput = Type.Object({ agentId: AgentId }, { additionalProperties: false });
export type GetAgentToolInputValue = Static<typeof GetAgentToolInput>;

export const SendMessageToolInput = Type.Object(
  { agentId: AgentId, text, userId, roomId },
  { additionalProperties: false },
);
export type SendMessageToolInputValue = Static<typeof SendMessageToolInput>;

/** An `ask_<agent>` tool: the agent is the tool's. */
export const AskAgentToolInput = Type.Object({ text, userId, roomId }, { additionalProperties: false });
export type AskAgentToolInputValue = Static<typeof AskAgentToolInput>;

/**
 * A JSON-RPC 2.0 message of MCP as a client sends it: a request (with `id`)
 * or a notification. Batches, which MCP 2025-06-18 removed, are not taken.
 */
export const McpMessageBody = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(
      Type.Union([Type.String({ maxLength: 200 }), Type.Integer()], {
        description: 'Present on requests, absent on notifications.',
      }),
    ),
    method: Type.String({ minLength: 1, maxLength: 200, description: 'e.g. initialize, tools/list, tools/call.' }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { title: 'McpMessage', description: 'A JSON-RPC 2.0 request or notification of MCP.' },
);
