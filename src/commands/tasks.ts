import fs from 'node:fs';
import type { AgentdClient, CreateTaskBody, Task } from '../client/index.js';
import { UsageError, type TasksCommand } from '../cli.js';

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The body of `tasks create`: the JSON file (or standard input), with the flags given on top. */
async function createBody(create: NonNullable<TasksCommand['create']>): Promise<CreateTaskBody> {
  let fields: Record<string, unknown> = {};
  if (create.bodyFile !== null) {
    const text = create.bodyFile === '-' ? await readStandardInput() : fs.readFileSync(create.bodyFile, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`--json-body ${create.bodyFile} is not valid JSON`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`--json-body ${create.bodyFile} must hold a JSON object`);
    }
    fields = parsed as Record<string, unknown>;
  }
  if (create.taskName !== null) fields.name = create.taskName;
  if (create.instructions !== null) fields.instructions = create.instructions;
  if (create.everySeconds !== null) fields.schedule = { everySeconds: create.everySeconds };
  if (create.cron !== null) {
    fields.schedule = { cron: create.cron, ...(create.timezone !== null ? { timezone: create.timezone } : {}) };
  }
  if (create.at !== null) fields.schedule = { at: create.at };
  if (create.disabled) fields.enabled = false;
  // The server checks every field and answers what is wrong, so the object is sent as it is.
  return fields as CreateTaskBody;
}

function scheduleText(task: Task): string {
  const schedule = task.schedule as Record<string, unknown>;
  if ('cron' in schedule) return `cron ${String(schedule.cron)} ${String(schedule.timezone ?? 'UTC')}`;
  if ('everySeconds' in schedule) return `every ${String(schedule.everySeconds)}s`;
  return `at ${String(schedule.at)}`;
}

function line(task: Task): string {
  const state = task.enabled ? `next ${task.nextDueAt ?? '-'}` : task.pausedReason ? 'paused' : 'disabled';
  return `${task.id}\t${scheduleText(task)}\t${state}\t${task.lastRunStatus ?? '-'}\t${task.name}\n`;
}

export async function runTasksCommand(client: AgentdClient, command: TasksCommand): Promise<void> {
  const write = (text: string) => process.stdout.write(text);
  const { agentId } = command;
  const taskId = command.taskId as string;
  switch (command.action) {
    case 'list': {
      let count = 0;
      for await (const task of client.tasks.list(agentId)) {
        count += 1;
        write(command.json ? `${JSON.stringify(task)}\n` : line(task));
      }
      if (!command.json && count === 0) process.stderr.write('no tasks\n');
      return;
    }
    case 'get':
      write(`${JSON.stringify(await client.tasks.get(agentId, taskId), null, 2)}\n`);
      return;
    case 'create': {
      const task = await client.tasks.create(agentId, await createBody(command.create!));
      write(command.json ? `${JSON.stringify(task)}\n` : `Created task ${task.id}: ${line(task)}`);
      return;
    }
    case 'enable':
    case 'disable': {
      const task = await client.tasks.update(agentId, taskId, { enabled: command.action === 'enable' });
      write(line(task));
      return;
    }
    case 'run': {
      const run = await client.tasks.run(agentId, taskId);
      write(command.json ? `${JSON.stringify(run)}\n` : `Started run ${run.id} of task ${taskId}.\n`);
      return;
    }
    case 'delete':
      await client.tasks.delete(agentId, taskId);
      write(`Deleted task ${taskId}.\n`);
      return;
  }
}
