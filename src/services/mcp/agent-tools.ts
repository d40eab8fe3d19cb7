import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { AppError, describeFieldErrors } from '../../errors.js';
import type { RateLimitName } from '../../config.js';
import type { Agent, AgentListValue } from '../../schemas/agents.js';
import {
  AskAgentToolInput,
  GetAgentToolInput,
  ListAgentsToolInput,
  SendMessageToolInput,
  type AskAgentToolInputValue,
  type ListAgentsToolInputValue,
} from '../../schemas/mcp.js';
import type { MessageReplyView } from '../../schemas/messages.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { getAgent } from '../agents/get-agent.js';
import { listAgents } from '../agents/list-agents.js';
import { requireScope, type Scope, type ServiceContext } from '../context.js';
import { sendMessage } from '../messages/send-message.js';
import { askToolNames } from './tool-names.js';
import { valueProblems } from '../../validation-wording.js';

/**
 * The agents of an account as MCP tools: `list_agents`, `get_agent`,
 * `send_message`, and one `ask_<agent>` per agent that sets
 * `mcp.exposed`. A message sent here is a message like any other: the same
 * checks, limits, memory, tools, run (trigger `mcp`) and storage.
 */

/** Counts one call against its per-minute limit (per account, or per agent), or throws `rate_limited`. */
export type RateCheck = (limit: RateLimitName, accountId: string, agentId: string | null) => Promise<void>;

/** Told each piece of text as the reply streams; `progress` grows with every call. */
export type ProgressReporter = (text: string, progress: number) => Promise<void>;

export interface ToolCallOptions {
  signal: AbortSignal;
  /** The key the call's run is stored under, so a cancellation on any instance finds it (mcp-calls.ts). */
  callKey: string | null;
  /** Present when the client asked for progress notifications: the reply is then streamed. */
  progress: ProgressReporter | null;
}

export interface McpToolSpec {
  name: string;
  title: string;
  description: string;
  inputSchema: TSchema;
  /** The scope a call needs, as its REST route does: a key without it is not shown the tool. */
  scope: Scope;
}

/** The most agents read for the `ask_<agent>` tools and the resources (the oldest); MCP listings are read whole. */
export const mcpAgentLimit = 1000;

const checks = new Map<TSchema, TypeCheck<TSchema>>();
function checkOf(schema: TSchema): TypeCheck<TSchema> {
  let check = checks.get(schema);
  if (check === undefined) {
    check = TypeCompiler.Compile(schema);
    checks.set(schema, check);
  }
  return check;
}

/** The tool's arguments, checked against its input schema: a 400 `validation_failed` naming each field. */
function argumentsOf<T>(schema: TSchema, value: unknown): T {
  const input = value ?? {};
  const check = checkOf(schema);
  if (check.Check(input)) return input as T;
  const errors = valueProblems(check.Errors(input), 20).map((problem) => ({
    ...problem,
    path: `/arguments${problem.path}`,
  }));
  throw new AppError('validation_failed', describeFieldErrors(errors), { errors });
}

export const fixedTools: McpToolSpec[] = [
  {
    name: 'list_agents',
    title: 'List agents',
    description: 'The agents of this account, newest first, 100 per page (ids, names, bios, status).',
    inputSchema: ListAgentsToolInput,
    scope: 'agents:read',
  },
  {
    name: 'get_agent',
    title: 'Get an agent',
    description: 'One agent’s profile, as GET /v1/agents/{agentId} answers it (secrets masked).',
    inputSchema: GetAgentToolInput,
    scope: 'agents:read',
  },
  {
    name: 'send_message',
    title: 'Send a message to an agent',
    description:
      'Sends a message to an agent and answers with its reply and the knowledge it cited. `userId` alone is a ' +
      'private conversation the agent remembers; `roomId` a shared one. The reply streams as progress ' +
      'notifications when the call asks for them.',
    inputSchema: SendMessageToolInput,
    scope: 'messages:send',
  },
];

/** The account's agents that are offered as tools, oldest first (see askToolNames). */
export async function exposedAgents(ctx: ServiceContext): Promise<AgentRecord[]> {
  const agents = await ctx.deps.repositories.agents.page({
    accountId: ctx.actor.accountId,
    sortBy: 'createdAt',
    order: 'asc',
    limit: mcpAgentLimit,
  });
  return agents.filter((agent) => agent.profile.mcp?.exposed === true);
}

/** The `ask_<agent>` tools: name → agent, described by the agent's bio unless `bios` is false. */
export function askTools(agents: AgentRecord[], { bios = true } = {}): Array<McpToolSpec & { agentId: string }> {
  const byId = new Map(agents.map((agent) => [agent.id, agent]));
  return [...askToolNames(agents)].map(([name, agentId]) => {
    const agent = byId.get(agentId)!;
    const bio = bios ? agent.profile.bio.join(' ').trim() : '';
    return {
      name,
      agentId,
      title: `Ask ${agent.name}`,
      description: (bio === '' ? `Ask the agent ${agent.name}.` : `Ask ${agent.name}: ${bio}`).slice(0, 2000),
      inputSchema: AskAgentToolInput,
      scope: 'messages:send',
    };
  });
}

/**
 * The tools `tools/list` shows a key: those its scopes let it call, as
 * docs/mcp-server.md tells. The `ask_<agent>` tools need `messages:send`;
 * what they tell of their agents beyond the name the tool carries (the bio,
 * the agent's id) is what `agents:read` reads, so only such a key is told it.
 * A key with neither scope is shown no tool (an empty list, not an error).
 */
export async function listedTools(ctx: ServiceContext): Promise<Array<McpToolSpec & { agentId?: string }>> {
  const scopes = ctx.actor.scopes;
  const tools: Array<McpToolSpec & { agentId?: string }> = fixedTools.filter((tool) => scopes.has(tool.scope));
  if (!scopes.has('messages:send')) return tools;
  const readsAgents = scopes.has('agents:read');
  for (const { agentId, ...tool } of askTools(await exposedAgents(ctx), { bios: readsAgents })) {
    tools.push(readsAgents ? { ...tool, agentId } : tool);
  }
  return tools;
}

/** A reply as a tool result: its text for the model, and the whole reply (citations, run) as structured content. */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

async function answer(
  ctx: ServiceContext,
  rateCheck: RateCheck,
  agentId: string,
  input: AskAgentToolInputValue,
  options: ToolCallOptions,
): Promise<ToolAnswer> {
  await rateCheck('sendMessage', ctx.actor.accountId, agentId);
  const reply = await sendMessage({
    ctx,
    agentId,
    input: { ...input, stream: options.progress !== null },
    signal: options.signal,
    trigger: 'mcp',
    callKey: options.callKey,
  });
  let progress = 0;
  let completed: MessageReplyView | null = null;
  for await (const event of reply.events()) {
    if (event.type === 'delta' && options.progress !== null) {
      progress += event.text.length;
      await options.progress(event.text, progress);
    } else if (event.type === 'completed') completed = event.reply;
    else if (event.type === 'failed') throw event.error;
  }
  if (completed === null) throw new AppError('internal', 'The reply ended without an outcome.');
  if (completed.finishReason === 'aborted') {
    throw new AppError('conflict', `The reply was cancelled (run ${completed.runId}); what was said so far is stored.`);
  }
  // An ask_ tool names its agent by name only to a key without agents:read; its answer does not name the id either.
  if (!ctx.actor.scopes.has('agents:read')) {
    const { agentId: _agentId, ...withoutAgent } = completed;
    return { text: completed.text, structured: { reply: withoutAgent } };
  }
  return { text: completed.text, structured: { reply: completed } };
}

function agentSummary(agent: Agent) {
  return { id: agent.id, name: agent.name, status: agent.status, bio: agent.bio, expertise: agent.expertise };
}

/** Runs one tool call; errors are AppErrors the caller turns into an error result. */
export async function callAgentTool({
  ctx,
  rateCheck,
  name,
  args,
  options,
  resolveAskTool,
}: {
  ctx: ServiceContext;
  rateCheck: RateCheck;
  name: string;
  args: unknown;
  options: ToolCallOptions;
  /** The agent of an `ask_<agent>` tool, or null when there is no such tool. */
  resolveAskTool: (name: string) => Promise<string | null>;
}): Promise<ToolAnswer> {
  const accountId = ctx.actor.accountId;
  if (name === 'list_agents') {
    requireScope(ctx, 'agents:read');
    const input = argumentsOf<ListAgentsToolInputValue>(ListAgentsToolInput, args);
    await rateCheck('listAgents', accountId, null);
    const page: AgentListValue = await listAgents({
      ctx,
      query: { limit: 100, ...(input.cursor !== undefined ? { cursor: input.cursor } : {}) },
    });
    const structured = { agents: page.data.map(agentSummary), nextCursor: page.pagination.nextCursor ?? null };
    return { text: JSON.stringify(structured), structured };
  }
  if (name === 'get_agent') {
    requireScope(ctx, 'agents:read');
    const input = argumentsOf<{ agentId: string }>(GetAgentToolInput, args);
    await rateCheck('getAgent', accountId, input.agentId);
    const agent = await getAgent({ ctx, agentId: input.agentId });
    return { text: JSON.stringify(agent), structured: { agent } };
  }
  if (name === 'send_message') {
    requireScope(ctx, 'messages:send');
    const { agentId, ...input } = argumentsOf<AskAgentToolInputValue & { agentId: string }>(SendMessageToolInput, args);
    return answer(ctx, rateCheck, agentId, input, options);
  }
  // Before the name is looked up: a key that may not ask learns nothing of which ask_ tools exist.
  if (name.startsWith('ask_')) requireScope(ctx, 'messages:send');
  const agentId = name.startsWith('ask_') ? await resolveAskTool(name) : null;
  if (agentId === null)
    throw new AppError('not_found', `There is no tool named ${JSON.stringify(name.slice(0, 100))}.`);
  return answer(ctx, rateCheck, agentId, argumentsOf<AskAgentToolInputValue>(AskAgentToolInput, args), options);
}
