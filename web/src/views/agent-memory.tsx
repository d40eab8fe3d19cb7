import type { Agent } from '../api.js';

/** An agent's Memory tab (being built). */
export function AgentMemory(_props: { agent: Agent; onChanged?: (agent: Agent) => void }) {
  return <h2 tabIndex={-1}>Memory</h2>;
}
