/** What MCP clients and the model providers behind them accept for a tool name. */
const toolNameLimit = 64;
const prefix = 'ask_';

/** `ask_<name>`: lower case, every other character than a–z, 0–9 and `_` made `_`, runs of them made one. */
export function askToolBase(agentName: string): string {
  const stem =
    agentName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'agent';
  return `${prefix}${stem}`.slice(0, toolNameLimit);
}

/**
 * The `ask_<agent>` tool of each exposed agent, unique within the account:
 * agents are taken oldest first, so an agent's tool name stays as it was when
 * a newer agent with the same name is exposed; the newer one's name ends with
 * the last characters of its id.
 */
export function askToolNames(agents: ReadonlyArray<{ id: string; name: string }>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const agent of agents) {
    const base = askToolBase(agent.name);
    let name = base;
    if (byName.has(name)) {
      const suffix = `_${agent.id.slice(-8).toLowerCase()}`;
      name = `${base.slice(0, toolNameLimit - suffix.length)}${suffix}`;
    }
    byName.set(name, agent.id);
  }
  return byName;
}
