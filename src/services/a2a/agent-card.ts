import { AgentCard, type AgentSkill } from '@a2a-js/sdk';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnAgent } from '../agents/get-agent.js';

/**
 * An agent as an A2A agent (A2A 1.0, "Agent discovery: the agent card"): its
 * name, a description from its bio, a skill for each enabled plugin and each
 * line of expertise, the JSON-RPC interface at /v1/a2a/{agentId} (for 1.0
 * clients and 0.3 ones), streaming, and the Bearer scheme of agentd's keys.
 */

/** The most skills a card lists: one per plugin and expertise line, which the agent schema bounds anyway. */
const maxSkills = 50;
const textMode = ['text/plain'];

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return {
    id,
    name,
    description,
    tags,
    examples: [],
    inputModes: textMode,
    outputModes: textMode,
    securityRequirements: [],
  };
}

function skillsOf(ctx: ServiceContext, agent: AgentRecord): AgentSkill[] {
  const skills: AgentSkill[] = [
    skill('conversation', 'Conversation', `Talk with ${agent.name}; the conversation (contextId) is remembered.`, [
      'chat',
    ]),
  ];
  for (const plugin of agent.profile.plugins) {
    if (!plugin.enabled) continue;
    const definition = ctx.deps.plugins.catalog.definitionOf(plugin.name);
    skills.push(skill(`plugin:${plugin.name}`, plugin.name, definition?.description ?? plugin.name, ['plugin']));
  }
  agent.profile.expertise.forEach((line, index) => {
    skills.push(skill(`expertise:${index + 1}`, line.slice(0, 100), line, ['expertise']));
  });
  return skills.slice(0, maxSkills);
}

/** The address of an agent's A2A endpoint under `baseUrl` (the service's public URL, no trailing slash). */
export function a2aEndpoint(baseUrl: string, agentId: string): string {
  return `${baseUrl}/v1/a2a/${agentId}`;
}

export function agentCardOf(ctx: ServiceContext, agent: AgentRecord, baseUrl: string): AgentCard {
  const url = a2aEndpoint(baseUrl, agent.id);
  const bio = agent.profile.bio.join(' ').trim();
  return {
    name: agent.name,
    description: bio === '' ? `${agent.name}, an agent of agentd.` : bio,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'agentd', url: baseUrl },
    version: agent.updatedAt,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: 'An agentd API key of the agent’s account.', scheme: 'Bearer', bearerFormat: 'agd_…' },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: textMode,
    defaultOutputModes: textMode,
    skills: skillsOf(ctx, agent),
    signatures: [],
  };
}

/** The card as JSON (the ProtoJSON form of A2A 1.0, which its clients read). */
export function agentCardJson(card: AgentCard): unknown {
  return AgentCard.toJSON(card);
}

/** GET /v1/a2a/{agentId}/.well-known/agent-card.json: the card of one of the account's agents. */
export async function getAgentCard({
  ctx,
  agentId,
  baseUrl,
}: {
  ctx: ServiceContext;
  agentId: string;
  baseUrl: string;
}): Promise<unknown> {
  requireScope(ctx, 'agents:read');
  return agentCardJson(agentCardOf(ctx, await findOwnAgent(ctx, agentId), baseUrl));
}

/** The most cards the directory lists (the newest agents): it has no pages, as a discovery document. */
export const directoryLimit = 1000;

/** GET /v1/a2a: the account's directory, every agent's card. */
export async function listAgentCards({ ctx, baseUrl }: { ctx: ServiceContext; baseUrl: string }) {
  requireScope(ctx, 'agents:read');
  const agents = await ctx.deps.repositories.agents.page({
    accountId: ctx.actor.accountId,
    sortBy: 'createdAt',
    order: 'desc',
    limit: directoryLimit,
  });
  return {
    data: agents.map((agent) => ({
      agentId: agent.id,
      cardUrl: `${a2aEndpoint(baseUrl, agent.id)}/.well-known/agent-card.json`,
      card: agentCardJson(agentCardOf(ctx, agent, baseUrl)),
    })),
  };
}
