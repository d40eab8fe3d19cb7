#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { isRemoteCommand, parseCommand, usage, UsageError, type Command, type RemoteCommand } from './cli.js';
import { describeRemoteError, runRemoteCommand } from './commands/remote.js';
import { ConfigError, loadConfig, loadRemoteConfig, type Config } from './config.js';
// The server's modules load only for the commands that open the database: remote commands start without them.
import type { AppDeps } from './dependencies.js';
import type { App } from './http/app-instance.js';
import { createLogger } from './logger.js';

function boxed(lines: string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const border = `+${'-'.repeat(width + 2)}+`;
  return [border, ...lines.map((line) => `| ${line.padEnd(width)} |`), border].join('\n');
}

/** The address to open in a browser: a wildcard listening address is reached on this machine as loopback. */
function browsableBaseUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Bootstraps the first account when the database is new, then listens. */
async function start(config: Config, deps: AppDeps, logger: Logger): Promise<App> {
  const [{ bootstrap }, { buildApp }, { dashboardDirectory }] = await Promise.all([
    import('./services/api-keys.js'),
    import('./app.js'),
    import('./http/dashboard.js'),
  ]);
  const first = await bootstrap({ deps: deps.services, bootstrapKey: config.bootstrapKey });
  if (first) logger.info({ accountId: first.accountId }, 'first account and API key created');

  // Shown once, on purpose, outside the structured log: it is never stored in plaintext.
  const printFirstKey = (port: number) => {
    if (!first?.printableKey) return;
    const baseUrl = browsableBaseUrl(config.host, port);
    const dashboard = fs.existsSync(path.join(dashboardDirectory, 'index.html'))
      ? [`Dashboard: ${baseUrl}/ (sign in with this key)`]
      : [];
    process.stdout.write(
      `\n${boxed([
        'agentd created its first account and an API key with every scope.',
        'It is shown only this once; store it now:',
        '',
        `  ${first.printableKey}`,
        '',
        ...dashboard,
        `Try: curl -H "Authorization: Bearer <key>" ${baseUrl}/v1/agents`,
      ])}\n\n`,
    );
  };

  let app: App | null = null;
  try {
    app = await buildApp({ config, deps });
    await app.listen({ port: config.port, host: config.host, backlog: config.http.listenBacklog });
  } catch (error) {
    // The key exists from now on whether or not this start listens: it must not be lost with it.
    printFirstKey(config.port);
    await app?.close();
    throw error;
  }
  // Printed once it listens, so the addresses carry the port it got (PORT=0 takes a free one).
  const address = app.server.address();
  printFirstKey(typeof address === 'object' && address !== null ? address.port : config.port);
  return app;
}

async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const { createDependencies } = await import('./dependencies.js');
  const deps = await createDependencies(config, { logger });
  let app: App;
  try {
    app = await start(config, deps, logger);
    // Connectors start once the inbound routes listen (a platform may call as soon as a webhook is set).
    await deps.platforms.supervisor.start();
    deps.tasks.start();
  } catch (error) {
    // Open connections (Redis reconnecting, the database pool) would keep a failed start alive.
    await deps.close();
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second signal: stop waiting for running requests.
      logger.warn({ signal }, 'second signal: ending running requests now');
      deps.shutdown.hurry();
      return;
    }
    stopping = true;
    logger.info(
      { signal, timeoutMs: config.shutdownTimeoutMs },
      'shutting down: no new connections, finishing running requests',
    );
    // Should closing itself hang (a pool that never ends), the process still goes.
    const lastResort = setTimeout(() => {
      logger.error('shutdown did not complete in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 15_000);
    lastResort.unref();
    let exitCode = 0;
    try {
      // Connectors stop taking platform messages while running requests finish.
      const connectorsStopped = deps.platforms.supervisor.stop();
      const { timedOut } = await deps.shutdown.drain(
        {
          close: () => app.close(),
          closeIdleConnections: () => app.server.closeIdleConnections(),
          closeAllConnections: () => app.server.closeAllConnections(),
        },
        config.shutdownTimeoutMs,
      );
      await connectorsStopped;
      // Limiters release their slots and the connections to Redis and the database close.
      await deps.close();
      logger.info({ timedOut }, 'stopped');
    } catch (error) {
      logger.error({ err: error }, 'error while shutting down');
      exitCode = 1;
    }
    // Exit now rather than when the last timer of some library lets go.
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

async function runAdministration(
  command: Extract<Command, { name: 'migrate' | 'accounts-create' | 'keys-create' }>,
  config: Config,
): Promise<void> {
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const [{ createDependencies }, { createAccount }, { isScope, issueApiKey }] = await Promise.all([
    import('./dependencies.js'),
    import('./services/accounts.js'),
    import('./services/api-keys.js'),
  ]);
  const deps = await createDependencies(config, { logger, dispatchWebhooks: false, backgroundWork: false });
  try {
    if (command.name === 'migrate') {
      process.stdout.write('database is up to date\n');
      return;
    }
    if (command.name === 'accounts-create') {
      const account = await createAccount({ deps: deps.services, input: { name: command.accountName } });
      process.stdout.write(
        command.json
          ? `${JSON.stringify({ id: account.id, name: account.name, createdAt: account.createdAt })}\n`
          : `Created account ${account.id} (${account.name})\n`,
      );
      return;
    }
    const account = await deps.services.repositories.accounts.find(command.accountId);
    if (account === null) throw new UsageError(`no account ${command.accountId}`);
    const unknown = (command.scopes ?? []).filter((scope) => !isScope(scope));
    if (unknown.length > 0) throw new UsageError(`unknown scope ${unknown.join(', ')}`);
    const issued = await issueApiKey({
      deps: deps.services,
      input: {
        accountId: account.id,
        name: command.keyName,
        ...(command.scopes ? { scopes: command.scopes.filter(isScope) } : {}),
      },
    });
    process.stdout.write(
      command.json
        ? `${JSON.stringify({ id: issued.id, key: issued.key, accountId: issued.accountId, scopes: issued.scopes })}\n`
        : `Created API key ${issued.id} for ${account.id} with scopes ${issued.scopes.join(', ')}.\n` +
            `Store it now; it is not shown again:\n\n  ${issued.key}\n\n`,
    );
  } finally {
    await deps.close();
  }
}

async function main(argv: string[]): Promise<void> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    process.stderr.write(`agentd: ${(error as Error).message}\n\n${usage}\n`);
    process.exitCode = 2;
    return;
  }
  if (command.name === 'help') {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (isRemoteCommand(command)) {
    await remote(command);
    return;
  }
  try {
    const config = loadConfig(process.env);
    if (command.name === 'serve') await serve(config);
    else await runAdministration(command, config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      process.stderr.write(`agentd: ${error.message}\n`);
      process.exitCode = error instanceof UsageError ? 2 : 78;
      return;
    }
    process.stderr.write(`agentd: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}

/** `agents …` and `chat`: over HTTP with the typed client; each failure is one line and a non-zero exit. */
async function remote(command: RemoteCommand): Promise<void> {
  let config;
  try {
    config = loadRemoteConfig(process.env);
    await runRemoteCommand(command, config);
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof UsageError;
    const line = known ? (error as Error).message : config ? describeRemoteError(error, config) : null;
    process.stderr.write(`agentd: ${line ?? (error as Error).message}\n`);
    process.exitCode = error instanceof UsageError ? 2 : error instanceof ConfigError ? 78 : 1;
  }
}

await main(process.argv.slice(2));
