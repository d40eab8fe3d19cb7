/**
 * The key of a per-agent limit: the same for every door to an agent (its
 * messages route, the OpenAI-compatible door, its platform connectors), so
 * they all spend one budget. Keyed by account too: nobody can spend another
 * account's budget for an agent id.
 */
export function agentRateKey(limitName: string, accountId: string, agentId: string): string {
  return `${limitName}:${accountId}:${agentId}`;
}
