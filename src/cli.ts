import { parseArgs } from 'node:util';
import { parseEvalCommand, type EvalCommand } from './commands/eval.js';

/** The `agentd` command line: parsed by node:util, so there is nothing to install for it. */
export type Command =
  | { name: 'serve' }
  | { name: 'migrate' }
  | { name: 'accounts-create'; accountName: string; json: boolean }
  | { name: 'keys-create'; accountId: string; keyName: string | null; scopes: string[] | null; json: boolean }
  | { name: 'agents-list'; status: AgentStatus | null; json: boolean }
  | { name: 'agents-get'; agentId: string }
  | { name: 'agents-create'; agentName: string | null; bodyFile: string | null; json: boolean }
  | { name: 'agents-delete'; agentId: string }
  | { name: 'chat'; agentId: string; userId: string; roomId: string | null }
  | TasksCommand
  | EvalCommand
  | { name: 'help' };

export const taskActions = ['list', 'get', 'create', 'enable', 'disable', 'run', 'delete'] as const;
export type TaskAction = (typeof taskActions)[number];

/** `agentd tasks …`: one command, its action, and for `create` the task's fields from flags or a JSON file. */
export interface TasksCommand {
  name: 'tasks';
  action: TaskAction;
  agentId: string;
  taskId: string | null;
  create: {
    taskName: string | null;
    instructions: string | null;
    everySeconds: number | null;
    cron: string | null;
    timezone: string | null;
    at: string | null;
    bodyFile: string | null;
    disabled: boolean;
  } | null;
  json: boolean;
}

/** Commands that talk to a running agentd over HTTP (AGENTD_URL, AGENTD_API_KEY) rather than to the database. */
export type RemoteCommand = Extract<
  Command,
  { name: 'agents-list' | 'agents-get' | 'agents-create' | 'agents-delete' | 'chat' | 'tasks' | 'eval' }
>;

export function isRemoteCommand(command: Command): command is RemoteCommand {
  return (
    command.name.startsWith('agents-') || command.name === 'chat' || command.name === 'tasks' || command.name === 'eval'
  );
}

const agentStatuses = ['active', 'inactive', 'error'] as const;
type AgentStatus = (typeof agentStatuses)[number];

export const usage = `Usage: agentd <command>

Commands:
  serve                                     Serve the API (the default)
  migrate                                   Bring the database schema up to date and exit
  accounts create --name NAME [--json]      Create an account
  keys create --account ACC_ID [--name N] [--scopes a,b] [--json]
                                            Create an API key and print it once
  help                                      Show this help

Over HTTP, against a running agentd (AGENTD_URL, default http://127.0.0.1:$PORT; AGENTD_API_KEY):
  agents list [--status S] [--json]         List every agent (--json: one JSON object per line)
  agents get AGENT_ID                       Print an agent as JSON
  agents create --name N [--json-body FILE|-] [--json]
                                            Create an agent (other fields from the JSON file, - for stdin)
  agents delete AGENT_ID                    Delete an agent
  chat AGENT_ID [--user U] [--room R]       Talk to an agent: one message per line of standard input,
                                            replies streamed as they come (--user defaults to "cli")
  tasks list AGENT_ID [--json]              List an agent's tasks
  tasks create AGENT_ID --name N --instructions TEXT (--every SECONDS | --cron EXPR [--timezone TZ] | --at TIME)
              [--disabled] [--json-body FILE|-] [--json]
                                            Give an agent a task (other fields, e.g. output, from the JSON file)
  tasks get|enable|disable|run|delete AGENT_ID TASK_ID
                                            Print, resume, pause, run now or delete a task
  eval AGENT_ID --dataset DATASET_ID [--versions 3,4] [--judge PROVIDER/MODEL] [--concurrency N]
       [--min SCORER=0..1]... [--min-total 0..1] [--json]
                                            Run an eval and wait for its end: per scorer the versions side by
                                            side, then the cases whose outcome differs (--json: the eval).
                                            --min: a scorer type's least mean score, --min-total: the least
                                            share of cases passed (with two versions: of the last). Exit 0 when
                                            they hold, 1 when one is missed, 2 on a usage or API failure;
                                            Ctrl-C cancels the eval

Configuration comes from the environment: every variable is in docs/configuration.md.`;

export class UsageError extends Error {}

export function parseCommand(argv: string[]): Command {
  // Its flags are its own (repeated --min…): read by the command's module.
  if (argv[0] === 'eval') return parseEvalCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      scopes: { type: 'string' },
      status: { type: 'string' },
      'json-body': { type: 'string' },
      user: { type: 'string' },
      room: { type: 'string' },
      instructions: { type: 'string' },
      every: { type: 'string' },
      cron: { type: 'string' },
      timezone: { type: 'string' },
      at: { type: 'string' },
      disabled: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const words = positionals.join(' ');
  if (values.help || words === 'help') return { name: 'help' };
  const [first, second, third, ...extra] = positionals;
  const agentIdArgument = (command: string, agentId: string | undefined): string => {
    if (!agentId || extra.length > 0 || (command === 'chat' && third !== undefined)) {
      throw new UsageError(`${command} needs one AGENT_ID`);
    }
    return agentId;
  };
  if (first === 'chat') {
    return {
      name: 'chat',
      agentId: agentIdArgument('chat', second),
      userId: values.user ?? 'cli',
      roomId: values.room ?? null,
    };
  }
  if (first === 'tasks') return parseTasksCommand(positionals.slice(1), values);
  if (first === 'agents' && (second === 'get' || second === 'delete')) {
    return { name: `agents-${second}`, agentId: agentIdArgument(`agents ${second}`, third) };
  }
  switch (words) {
    case '':
    case 'serve':
      return { name: 'serve' };
    case 'migrate':
      return { name: 'migrate' };
    case 'accounts create':
      if (!values.name) throw new UsageError('accounts create needs --name NAME');
      return { name: 'accounts-create', accountName: values.name, json: values.json ?? false };
    case 'keys create':
      if (!values.account) throw new UsageError('keys create needs --account ACC_ID');
      return {
        name: 'keys-create',
        accountId: values.account,
        keyName: values.name ?? null,
        scopes: values.scopes
          ? values.scopes
              .split(',')
              .map((scope) => scope.trim())
              .filter(Boolean)
          : null,
        json: values.json ?? false,
      };
    case 'agents list': {
      const status = values.status ?? null;
      if (status !== null && !(agentStatuses as readonly string[]).includes(status)) {
        throw new UsageError(`--status must be one of ${agentStatuses.join(', ')}`);
      }
      return { name: 'agents-list', status: status as AgentStatus | null, json: values.json ?? false };
    }
    case 'agents create':
      if (!values.name && !values['json-body']) throw new UsageError('agents create needs --name NAME or --json-body');
      return {
        name: 'agents-create',
        agentName: values.name ?? null,
        bodyFile: values['json-body'] ?? null,
        json: values.json ?? false,
      };
    default:
      throw new UsageError(`unknown command "${words}"`);
  }
}

function parseTasksCommand(
  words: string[],
  values: {
    name?: string;
    instructions?: string;
    every?: string;
    cron?: string;
    timezone?: string;
    at?: string;
    disabled?: boolean;
    'json-body'?: string;
    json?: boolean;
  },
): TasksCommand {
  const [action, agentId, taskId, ...extra] = words;
  if (action === undefined || !(taskActions as readonly string[]).includes(action)) {
    throw new UsageError(`tasks needs one of ${taskActions.join(', ')}`);
  }
  const needsTask = action !== 'list' && action !== 'create';
  if (!agentId || extra.length > 0 || (needsTask ? !taskId : taskId !== undefined)) {
    throw new UsageError(`tasks ${action} needs AGENT_ID${needsTask ? ' TASK_ID' : ''}`);
  }
  let create: TasksCommand['create'] = null;
  if (action === 'create') {
    const schedules = [values.every, values.cron, values.at].filter((value) => value !== undefined).length;
    if (!values['json-body'] && (!values.name || !values.instructions || schedules !== 1)) {
      throw new UsageError(
        'tasks create needs --name, --instructions and one of --every, --cron or --at (or --json-body)',
      );
    }
    if (schedules > 1) throw new UsageError('tasks create takes one of --every, --cron or --at');
    if (values.every !== undefined && !/^[0-9]+$/.test(values.every)) {
      throw new UsageError('--every must be a whole number of seconds');
    }
    create = {
      taskName: values.name ?? null,
      instructions: values.instructions ?? null,
      everySeconds: values.every !== undefined ? Number(values.every) : null,
      cron: values.cron ?? null,
      timezone: values.timezone ?? null,
      at: values.at ?? null,
      bodyFile: values['json-body'] ?? null,
      disabled: values.disabled ?? false,
    };
  }
  return {
    name: 'tasks',
    action: action as TaskAction,
    agentId,
    taskId: needsTask ? (taskId as string) : null,
    create,
    json: values.json ?? false,
  };
}
