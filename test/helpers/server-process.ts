import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
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

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `agentd serve` on a free port and resolves once /healthz answers, whatever the log level. */
export async function startServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  assertBuilt();
  const port = env.PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [mainScript, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${stdout}\n${stderr}`);
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${stdout}\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

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
