import type { Agent } from '../api.js';

/** An agent's Platforms tab (being built). */
export function AgentPlatforms(_props: { agent: Agent; onChanged?: (agent: Agent) => void }) {
  return <h2 tabIndex={-1}>Platforms</h2>;
}
