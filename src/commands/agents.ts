import fs from 'node:fs';
import type { AgentdClient, CreateAgentBody } from '../client/index.js';
import { UsageError, type RemoteCommand } from '../cli.js';

type AgentsCommand = Extract<RemoteCommand, { name: `agents-${string}` }>;

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The body of `agents create`: the JSON file (or standard input) with --name on top. */
async function createBody(command: Extract<AgentsCommand, { name: 'agents-create' }>): Promise<CreateAgentBody> {
  let fields: Record<string, unknown> = {};
  if (command.bodyFile !== null) {
    const text = command.bodyFile === '-' ? await readStandardInput() : fs.readFileSync(command.bodyFile, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`--json-body ${command.bodyFile} is not valid JSON`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`--json-body ${command.bodyFile} must hold a JSON object`);
    }
    fields = parsed as Record<string, unknown>;
  }
  if (command.agentName !== null) fields.name = command.agentName;
  // The server validates every field and answers what is wrong, so the object is sent as it is.
  return fields as CreateAgentBody;
}

export async function runAgentsCommand(client: AgentdClient, command: AgentsCommand): Promise<void> {
  const write = (text: string) => process.stdout.write(text);
  switch (command.name) {
    case 'agents-list': {
      let count = 0;
      for await (const agent of client.agents.list({
        limit: 100,
        ...(command.status ? { status: command.status } : {}),
      })) {
        count += 1;
        write(command.json ? `${JSON.stringify(agent)}\n` : `${agent.id}\t${agent.status}\t${agent.name}\n`);
      }
      if (!command.json && count === 0) process.stderr.write('no agents\n');
      return;
    }
    case 'agents-get':
      write(`${JSON.stringify(await client.agents.get(command.agentId), null, 2)}\n`);
      return;
    case 'agents-create': {
      const agent = await client.agents.create(await createBody(command));
      write(command.json ? `${JSON.stringify(agent)}\n` : `Created agent ${agent.id} (${agent.name}).\n`);
      return;
    }
    case 'agents-delete': {
      const deleted = await client.agents.delete(command.agentId);
      write(`Deleted agent ${deleted.id}.\n`);
      return;
    }
  }
}
