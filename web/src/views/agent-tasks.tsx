import type { Agent } from '../api.js';

/** An agent's Tasks tab (being built). */
export function AgentTasks(_props: { agent: Agent; onChanged?: (agent: Agent) => void }) {
  return <h2 tabIndex={-1}>Tasks</h2>;
}
