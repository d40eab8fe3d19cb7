import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command, exactly what `npm start` runs. */
export const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/main.js');

export function assertBuilt(): void {
  if (!fs.existsSync(mainScript)) throw new Error('dist/main.js is missing: run `npm run build` first (npm test does)');
}

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** Everything printed on stdout so far. */
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `agentd serve` on a free port and resolves once it listens. */
export async function startServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  assertBuilt();
  const child = spawn(process.execPath, [mainScript, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${stdout}\n${stderr}`)), timeoutMs);
    const check = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(match[1] as string);
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });

  return {
    url,
    process: child,
    output: () => stdout,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one `agentd` command to completion. */
export function runCommand(args: string[], env: Record<string, string>): CommandResult {
  assertBuilt();
  const result = spawnSync(process.execPath, [mainScript, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
