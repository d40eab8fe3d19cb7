import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './repository.js';
import { serverLogFile } from './suite-log.js';

/**
 * agentd as users run it: `node dist/main.js …` in a process of its own. The
 * build comes from `npm run build` (which `npm test` runs first); a missing or
 * stale build fails the test with that instruction rather than testing old code.
 */
export const mainScript = path.join(repositoryRoot, 'dist', 'main.js');

/**
 * The Node.js flags `npm start` runs the server with (package.json), so that
 * tests and benchmarks run it the same way: a young generation of up to 64 MiB
 * per semi-space (see "Object shapes and garbage collection under load" in bench/README.md).
 */
export const serverNodeFlags = ['--max-semi-space-size=64'];

function newestModification(directory: string): number {
  return fs.readdirSync(directory, { withFileTypes: true }).reduce((newest, entry) => {
    const full = path.join(directory, entry.name);
    const time = entry.isDirectory() ? newestModification(full) : fs.statSync(full).mtimeMs;
    return Math.max(newest, time);
  }, 0);
}

export function assertBuilt(): void {
  if (!fs.existsSync(mainScript)) throw new Error('dist/main.js is missing: run `npm run build` first');
  if (fs.statSync(mainScript).mtimeMs < newestModification(path.join(repositoryRoot, 'src'))) {
    throw new Error('dist/ is older than src/: run `npm run build` first');
  }
}

/** Only what the command needs: the environment of the test run (DATABASE_URL…) never leaks in. */
function processEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  // Connectors of agents created by tests never reach the real platforms: a closed loopback port unless a test says.
  return {
    PATH: process.env.PATH,
    AGENTD_TELEGRAM_API_URL: 'http://127.0.0.1:9',
    AGENTD_SLACK_API_URL: 'http://127.0.0.1:9/api/',
    AGENTD_DISCORD_API_URL: 'http://127.0.0.1:9/api',
    ...env,
  };
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an `agentd` command to its end; `input`, when given, is piped to its standard input and closed. */
export async function runAgentd(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
  input?: string,
): Promise<CommandResult> {
  assertBuilt();
  const child = spawn(process.execPath, [mainScript, ...args], {
    env: processEnvironment(env),
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The JSON log lines so far. */
  logEntries(): Array<Record<string, unknown> & { msg?: string }>;
  /** Sends a signal and waits for the process to exit (SIGKILL if it has not within `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Another build to start (a benchmark comparing builds), Node flags beyond `serverNodeFlags`, and an IPC
 * channel to the server (`child.send`) for a module loaded with `--import` to answer on.
 */
export interface StartOptions {
  script?: string;
  nodeFlags?: string[];
  ipc?: boolean;
}

/**
 * Starts `agentd serve` and resolves once it listens. Without a PORT it takes a
 * free one (PORT=0) and reads the port from the "Server listening" log line;
 * with a PORT (needed when LOG_LEVEL hides info lines) it polls /healthz.
 */
export async function startServer(
  env: Record<string, string>,
  startTimeoutMs = 30_000,
  { script = mainScript, nodeFlags = [], ipc = false }: StartOptions = {},
): Promise<ServerProcess> {
  // Another build is the caller's to keep current (a benchmark's, a long run's copy made before it began).
  if (script === mainScript) assertBuilt();
  const child = spawn(process.execPath, [...serverNodeFlags, ...nodeFlags, script, 'serve'], {
    env: processEnvironment({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc' as const] : [])],
  });
  let output = '';
  // Everything the server writes goes to the run's log for the secrets check, not just its JSON lines.
  const logFile = serverLogFile(child.pid);
  if (logFile) {
    child.stdout!.pipe(logFile, { end: false });
    child.stderr!.pipe(logFile, { end: false });
  }
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  if (logFile) child.once('close', () => logFile.end());
  const port = await new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (error: Error | null, value?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve(value as number);
    };
    const timer = setTimeout(
      () => settle(new Error(`agentd did not start within ${startTimeoutMs} ms:\n${output}`)),
      startTimeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      // Only until it listens: scanning everything on every chunk would cost a busy server's reader dearly.
      if (settled) return;
      const match = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(output);
      if (match) settle(null, Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) =>
      settle(new Error(`agentd exited (${code ?? signal}) before listening:\n${output}`)),
    );
    if (env.PORT && env.PORT !== '0') {
      const poll = async () => {
        while (!settled) {
          const healthy = await fetch(`http://127.0.0.1:${env.PORT}/healthz`).then(
            (response) => response.ok,
            () => false,
          );
          if (healthy) return settle(null, Number(env.PORT));
          await new Promise((wait) => setTimeout(wait, 50));
        }
      };
      void poll();
    }
  });
  const entries = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown> & { msg?: string });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    logEntries: entries,
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
