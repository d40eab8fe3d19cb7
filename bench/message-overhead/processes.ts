import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../../test/helpers/server-process.js';

/** Starting the fake provider and a built agentd as separate processes, as they run in production. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Started {
  process: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

async function firstLineMatching(child: ChildProcess, pattern: RegExp): Promise<string> {
  let buffer = '';
  for await (const chunk of child.stdout!) {
    buffer += String(chunk);
    const match = pattern.exec(buffer);
    if (match) return match[0];
  }
  throw new Error('process ended before it was ready');
}

function stopper(child: ChildProcess) {
  return async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
}

/**
 * With `tls` (PEM files) the provider serves https: and offers HTTP/2. With `stallsFile`, stall-watch.mjs records
 * in it when each request arrived and when the provider wrote its first text (the capacity run's STALLS).
 */
export async function startFakeProvider(
  tokenDelayMs: number,
  words: number,
  tls?: { keyPath: string; certPath: string },
  stallsFile?: string,
): Promise<Started> {
  const child = spawn(
    process.execPath,
    [
      ...(stallsFile ? ['--import', path.join(root, 'bench/message-overhead/stall-watch.mjs')] : []),
      '--import',
      'tsx',
      path.join(root, 'bench/message-overhead/fake-provider.ts'),
      '0',
      String(tokenDelayMs),
      String(words),
      ...(tls ? [tls.keyPath, tls.certPath] : []),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      ...(stallsFile ? { env: { ...process.env, BENCH_STALLS_FILE: stallsFile } } : {}),
    },
  );
  const url = await firstLineMatching(child, /https?:\/\/127\.0\.0\.1:\d+\/v1/);
  return { process: child, url, stop: stopper(child) };
}

/**
 * The bare server that makes agentd's model call through the AI SDK and nothing
 * else (sdk-floor-server.mjs, over this checkout's build): the floor under agentd.
 */
export async function startSdkFloor(providerUrl: string, dataDir?: string): Promise<Started> {
  const script = path.join(root, 'bench/message-overhead/sdk-floor-server.mjs');
  const child = spawn(process.execPath, [script, providerUrl, ...(dataDir ? [dataDir] : [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await firstLineMatching(child, /http:\/\/127\.0\.0\.1:\d+/);
  return { process: child, url, stop: stopper(child) };
}

/**
 * A built agentd (this checkout's `dist/main.js`, or the `main` given) on SQLite in a temporary data dir, rate limits
 * off, with the Node.js flags `npm start` gives it.
 */
export async function startAgentd(
  env: Record<string, string>,
  port: number,
  nodeArguments: string[] = [],
  main = path.join(root, 'dist/main.js'),
): Promise<Started & { key: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-'));
  const key = `agd_${randomBytes(20).toString('hex')}`;
  const child = spawn(process.execPath, [...serverNodeFlags, ...nodeArguments, main, 'serve'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      AGENTD_DATA_DIR: dataDir,
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  // AGENTD_OUTPUT=file keeps what agentd writes (its log, or `--trace-gc` lines given in NODE_ARGS).
  if (process.env.AGENTD_OUTPUT) child.stdout!.pipe(fs.createWriteStream(process.env.AGENTD_OUTPUT));
  else child.stdout!.resume();
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // A minute: a machine busy with other work can take that long to start a process.
      if (attempt > 1200) {
        child.kill('SIGKILL');
        fs.rmSync(dataDir, { recursive: true, force: true });
        throw new Error('agentd did not start');
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stop = stopper(child);
  return {
    process: child,
    url,
    key,
    stop: async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident set size of a process, from /proc (Linux). */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/**
 * CPU time (user and system) a process has used so far, in ms, from /proc (Linux; clock ticks, usually 10 ms):
 * summed over thousands of requests it shows what each costs, however long the machine made it wait.
 */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * The agent the message benches talk to, created over the API: a bio and one knowledge item (so the prompt
 * reads knowledge), long-term memory off unless MEMORY=on. With memory on (the default for new agents) each
 * exchange is followed by a second model call, to extract facts, which is memory's cost (bench/memory
 * measures it), not the message path's.
 */
export async function createBenchAgent(url: string, key: string): Promise<string> {
  const created = await fetch(`${url}/v1/agents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      bio: 'A benchmark agent.',
      knowledge: ['Gas is paid in ETH.'],
      ...(process.env.MEMORY === 'on' ? {} : { memory: { summary: false, facts: false, recall: false } }),
    }),
  });
  if (!created.ok) throw new Error(`creating the bench agent: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}
