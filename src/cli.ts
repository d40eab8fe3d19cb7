import { parseArgs } from 'node:util';

/** The `agentd` command line: parsed by node:util, so there is nothing to install for it. */
export type Command =
  | { name: 'serve' }
  | { name: 'migrate' }
  | { name: 'accounts-create'; accountName: string; json: boolean }
  | { name: 'keys-create'; accountId: string; keyName: string | null; scopes: string[] | null; json: boolean }
  | { name: 'help' };

export const usage = `Usage: agentd <command>

Commands:
  serve                                     Serve the API (the default)
  migrate                                   Bring the database schema up to date and exit
  accounts create --name NAME [--json]      Create an account
  keys create --account ACC_ID [--name N] [--scopes a,b] [--json]
                                            Create an API key and print it once
  help                                      Show this help

Configuration comes from the environment (see the README).`;

export class UsageError extends Error {}

export function parseCommand(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      scopes: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const words = positionals.join(' ');
  if (values.help || words === 'help') return { name: 'help' };
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
    default:
      throw new UsageError(`unknown command "${words}"`);
  }
}
