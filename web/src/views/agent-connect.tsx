import { request, type Agent } from '../api.js';
import { Loaded, useResource } from '../ui/resource.js';
import { hrefOf } from '../route.js';

/**
 * How programs reach this agent besides the dashboard: the REST route, the
 * MCP server (its `ask_<agent>` tool when the agent is offered as one, named
 * as MCP clients see it in tools/list) and its A2A agent card.
 */

interface McpTool {
  name: string;
  title?: string;
  _meta?: Record<string, unknown>;
}

interface AgentCard {
  name: string;
  description?: string;
  capabilities?: { streaming?: boolean };
  skills?: Array<{ id: string; name: string; description?: string }>;
}

const agentPath = (agentId: string) => encodeURIComponent(agentId);

/** The agent's tool as the MCP server lists it: the one whose `_meta` names this agent. */
async function askToolOf(agentId: string, signal: AbortSignal): Promise<string | null> {
  const answer = await request<{ result?: { tools?: McpTool[] } }>('POST', '/v1/mcp', {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    signal,
  });
  const tool = answer.result?.tools?.find((candidate) => candidate._meta?.['agentd/agentId'] === agentId);
  return tool?.name ?? null;
}

export function AgentConnect({ agent }: { agent: Agent }) {
  const origin = location.origin;
  const exposed = agent.mcp?.exposed === true;
  const [tool] = useResource(
    (signal) => (exposed ? askToolOf(agent.id, signal) : Promise.resolve(null)),
    [agent.id, exposed],
  );
  const cardPath = `/v1/a2a/${agentPath(agent.id)}/.well-known/agent-card.json`;
  const [card] = useResource((signal) => request<AgentCard>('GET', cardPath, { signal }), [cardPath]);
  const mcpConfig = JSON.stringify(
    { mcpServers: { agentd: { type: 'http', url: `${origin}/v1/mcp`, headers: { Authorization: 'Bearer agd_…' } } } },
    null,
    2,
  );

  return (
    <div class="connect">
      <h2 tabIndex={-1}>Connect</h2>
      <section aria-labelledby="connect-rest">
        <h3 id="connect-rest">REST</h3>
        <p>
          <code>
            POST {origin}/v1/agents/{agent.id}/messages
          </code>{' '}
          with an API key of this account (<a href="/docs">API docs</a>).
        </p>
      </section>
      <section aria-labelledby="connect-mcp">
        <h3 id="connect-mcp">MCP</h3>
        {exposed ? (
          <Loaded resource={tool} what="the MCP tool">
            {(name) =>
              name ? (
                <p>
                  MCP clients of this account see this agent as the tool <code class="tool-name">{name}</code>, besides{' '}
                  <code>send_message</code> with its id.
                </p>
              ) : (
                <p>
                  This agent is offered to MCP clients, but the server lists no tool for it to this key: the listing
                  shows an agent's tool only to a key with both agents:read and messages:send, and only for the first
                  1,000 agents.
                </p>
              )
            }
          </Loaded>
        ) : (
          <p>
            Not offered as a tool of its own: MCP clients reach it through <code>send_message</code> with its id. Give
            it an <code>ask_…</code> tool in its{' '}
            <a href={hrefOf({ name: 'agent', agentId: agent.id, tab: 'edit' })}>Edit tab</a>, under MCP.
          </p>
        )}
        <label for="mcp-config">Client configuration</label>
        <textarea id="mcp-config" readOnly rows={9} value={mcpConfig} />
      </section>
      <section aria-labelledby="connect-a2a">
        <h3 id="connect-a2a">A2A</h3>
        <p>
          Agent card: <code>{`${origin}${cardPath}`}</code>
        </p>
        <Loaded resource={card} what="the agent card">
          {(loaded) => (
            <dl class="agent-card">
              <dt>Name</dt>
              <dd>{loaded.name}</dd>
              <dt>Description</dt>
              <dd>{loaded.description ?? '—'}</dd>
              <dt>Streaming</dt>
              <dd>{loaded.capabilities?.streaming ? 'yes' : 'no'}</dd>
              <dt>Skills</dt>
              <dd>
                <ul>
                  {(loaded.skills ?? []).map((skill) => (
                    <li key={skill.id}>
                      <strong>{skill.name}</strong>
                      {skill.description ? ` — ${skill.description}` : ''}
                    </li>
                  ))}
                </ul>
              </dd>
            </dl>
          )}
        </Loaded>
      </section>
    </div>
  );
}
