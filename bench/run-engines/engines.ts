/**
 * What the run-engine benches share: loading a library from the folder it was installed into (never from
 * agentd's own node_modules: these libraries are measured, not depended on), a fresh PostgreSQL database per
 * measurement, worker processes that report over IPC, and the summary of a list of timings.
 *
 * ENGINES_DIR: the folder holding node_modules with @dbos-inc/dbos-sdk, pg-boss and graphile-worker (see
 * README.md for the install command). DATABASE_URL: the PostgreSQL server (every measurement gets a database of
 * its own there, dropped at the end).
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFreshDatabase, type FreshDatabase } from '../../test/helpers/postgres.js';

export const enginesDirectory = path.resolve(process.env.ENGINES_DIR ?? '/tmp/agentd-run-engines');
export const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/postgres';

const directory = path.dirname(fileURLToPath(import.meta.url));

/** A module (a package or one of its exported subpaths) as installed in ENGINES_DIR. */
export function requireEngine<T = any>(specifier: string): T {
  const manifest = path.join(enginesDirectory, 'package.json');
  if (!fs.existsSync(manifest)) throw new Error(`ENGINES_DIR (${enginesDirectory}) has no package.json: see README.md`);
  return createRequire(manifest)(specifier) as T;
}

/** The library `name` as installed in ENGINES_DIR, with the version that was resolved there. */
export function loadEngine<T = any>(name: string): { module: T; version: string } {
  const packageJson = JSON.parse(
    fs.readFileSync(path.join(enginesDirectory, 'node_modules', name, 'package.json'), 'utf8'),
  ) as { version: string };
  return { module: requireEngine<T>(name), version: packageJson.version };
}

/** Milliseconds since the epoch with sub-millisecond resolution, comparable between processes of one machine. */
export function clock(): number {
  return performance.timeOrigin + performance.now();
}

/** The machine as the measurement saw it: its load is part of every number (other work shares its cores). */
export function machineLine(): string {
  const cpus = os.cpus();
  return `node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}, load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;
}

export function freshDatabase(prefix: string): Promise<FreshDatabase> {
  return createFreshDatabase(postgresUrl, prefix);
}

/**
 * A pause of uniformly random length up to `maxMs`, before each job of a latency run: a job sent right after the
 * previous one started would always arrive just after a poll and wait the whole interval. Spread over the
 * interval, the arrivals see the wait an independent request sees.
 */
export function randomPause(maxMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * maxMs));
}

export interface Summary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? NaN;
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

export function formatSummary(label: string, summary: Summary, unit = 'ms'): string {
  const number = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
  return `${label.padEnd(64)} n=${String(summary.count).padStart(5)}  p50 ${number(summary.p50)} ${unit}  p90 ${number(summary.p90)} ${unit}  p99 ${number(summary.p99)} ${unit}  max ${number(summary.max)} ${unit}`;
}

/** A message a worker process sends to the bench. */
export interface WorkerMessage {
  type: 'ready' | 'started' | 'step' | 'log';
  /** The job or workflow the worker started (its own id for it). */
  id?: string;
  /** The attempt's number, where the library counts them. */
  attempt?: number;
  /** clock() when the job's handler (or the step) began running. */
  at?: number;
  step?: number;
  /** The worker's lock identity, where the library has one (graphile-worker's locked_by). */
  lockedBy?: string;
  text?: string;
}

/**
 * A worker process: `worker.ts <engine> <role>` with its settings in the environment. It sends `ready` once it
 * can take work, then `started` for each job it starts and `step` for each workflow step it actually runs.
 */
export class WorkerProcess {
  readonly child: ChildProcess;
  private readonly waiters: Array<{ match: (message: WorkerMessage) => boolean; resolve: (m: WorkerMessage) => void }> =
    [];
  readonly messages: WorkerMessage[] = [];
  exited = false;

  constructor(engine: string, role: string, environment: Record<string, string>) {
    this.child = fork(path.join(directory, 'worker.ts'), [engine, role], {
      execArgv: ['--import', 'tsx', '--no-deprecation'],
      env: { ...process.env, ...environment, ENGINES_DIR: enginesDirectory },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: WorkerMessage) => {
      if (message.type === 'log') {
        process.stderr.write(`  [${role}] ${message.text}\n`);
        return;
      }
      const index = this.waiters.findIndex((waiter) => waiter.match(message));
      if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(message);
      else this.messages.push(message);
    });
    this.child.on('exit', () => {
      this.exited = true;
    });
  }

  /** The next message that matches (one already received counts), or a rejection after `timeoutMs`. */
  next(match: (message: WorkerMessage) => boolean, timeoutMs: number): Promise<WorkerMessage> {
    const index = this.messages.findIndex(match);
    if (index >= 0) return Promise.resolve(this.messages.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (message: WorkerMessage) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  ready(timeoutMs = 60_000): Promise<WorkerMessage> {
    return this.next((message) => message.type === 'ready', timeoutMs);
  }

  /** SIGKILL: the process gets no chance to release anything, as when a machine or container dies. */
  kill(): number {
    this.child.kill('SIGKILL');
    return clock();
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
