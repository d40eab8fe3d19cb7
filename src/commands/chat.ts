import readline from 'node:readline';
import type { AgentdClient } from '../client/index.js';
import type { RemoteCommand } from '../cli.js';

type ChatCommand = Extract<RemoteCommand, { name: 'chat' }>;

/** A tool's input or output cut to one short line: the terminal shows that a tool ran, not its whole answer. */
function brief(value: unknown, length = 80): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/**
 * `agentd chat AGENT_ID`: each line of standard input is one message; the reply
 * is written as its words arrive. Ends at the end of input. A reply that fails
 * mid-way is reported and the chat goes on; the exit code says one failed.
 */
export async function runChat(client: AgentdClient, command: ChatCommand): Promise<void> {
  const interactive = process.stdin.isTTY === true;
  const prompt = () => {
    if (interactive) process.stdout.write('> ');
  };
  // The first check finds a wrong id or key before anyone types.
  await client.agents.get(command.agentId);
  // Only now: readline reads as soon as it exists, and lines that come before the loop asks for them are lost.
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === '') {
      prompt();
      continue;
    }
    const body = { text, userId: command.userId, ...(command.roomId ? { roomId: command.roomId } : {}) };
    let atLineStart = true;
    const write = (output: string) => {
      if (output.length === 0) return;
      process.stdout.write(output);
      atLineStart = output.endsWith('\n');
    };
    const ownLine = (output: string) => write(`${atLineStart ? '' : '\n'}${output}\n`);
    for await (const event of client.messages.stream(command.agentId, body)) {
      if (event.type === 'message.delta') write(event.data.text);
      else if (event.type === 'tool.called') ownLine(`[tool ${event.data.name} ${brief(event.data.input)}]`);
      else if (event.type === 'tool.completed') {
        const outcome = event.data.error !== undefined ? `failed: ${event.data.error}` : brief(event.data.output);
        ownLine(`[tool ${event.data.name} → ${outcome} in ${event.data.durationMs} ms]`);
      } else if (event.type === 'message.completed') ownLine('');
      else if (event.type === 'message.failed') {
        ownLine('');
        process.stderr.write(`agentd: reply failed: ${event.data.error.code}: ${event.data.error.detail}\n`);
        process.exitCode = 1;
      }
    }
    prompt();
  }
}
