import { AgentdError, createAgentdClient } from '../client/index.js';
import type { RemoteCommand } from '../cli.js';
import type { RemoteConfig } from '../config.js';
import { runAgentsCommand } from './agents.js';
import { runChat } from './chat.js';
import { runEvalCommand } from './eval.js';
import { runTasksCommand } from './tasks.js';

/** What went wrong, in the one line a terminal shows. */
export function describeRemoteError(error: unknown, config: RemoteConfig): string | null {
  if (error instanceof AgentdError) return `${error.code}: ${error.detail}`;
  // fetch fails with "fetch failed" and keeps the reason (ECONNREFUSED…) in `cause`.
  if (error instanceof TypeError && error.cause instanceof Error) {
    const reason = (error.cause as Error & { code?: string }).code ?? error.cause.message;
    return `cannot reach agentd at ${config.baseUrl} (${reason}); is it running? (AGENTD_URL)`;
  }
  return null;
}

export async function runRemoteCommand(command: RemoteCommand, config: RemoteConfig): Promise<void> {
  const client = createAgentdClient(config);
  if (command.name === 'chat') await runChat(client, command);
  // Its exit status says whether the eval's thresholds held (docs/evals.md).
  else if (command.name === 'eval') process.exitCode = await runEvalCommand(client, command, config);
  else if (command.name === 'tasks') await runTasksCommand(client, command);
  else await runAgentsCommand(client, command);
}
