import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unusedPort } from './network.js';

/**
 * A PostgreSQL server of its own, in a temporary directory on a free port, for
 * tests that stop and start the database: the shared test server is never
 * touched. PostgreSQL refuses to run as root, so under root the cluster runs as
 * the `postgres` user, which the server packages create.
 */
const binaries = '/usr/lib/postgresql/15/bin';

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/** Why the cluster cannot run here, or false when it can. */
export const postgresClusterSkip = ((): string | false => {
  if (!fs.existsSync(path.join(binaries, 'initdb'))) return `no PostgreSQL binaries in ${binaries}`;
  try {
    postgresUser();
  } catch {
    return 'running as root without a postgres user to run the cluster as';
  }
  return false;
})();

async function run(command: string, args: string[], user: { uid: number; gid: number } | null): Promise<void> {
  const child = spawn(path.join(binaries, command), args, { stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}) });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr}`);
}

export class PostgresCluster {
  private constructor(
    readonly directory: string,
    readonly port: number,
    private readonly user: { uid: number; gid: number } | null,
  ) {}

  static async create(): Promise<PostgresCluster> {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-pg-cluster-'));
    const user = postgresUser();
    if (user) fs.chownSync(directory, user.uid, user.gid);
    const cluster = new PostgresCluster(directory, await unusedPort(), user);
    // Trust on loopback only, no fsync: a throwaway server that starts in well under a second.
    await run('initdb', ['-D', cluster.#dataDirectory, '-U', 'postgres', '-A', 'trust', '--no-sync'], user);
    await cluster.start();
    return cluster;
  }

  get #dataDirectory(): string {
    return path.join(this.directory, 'data');
  }

  /** A URL for `database` on this server. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const settings = `-p ${this.port} -k ${this.directory} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await run(
      'pg_ctl',
      ['-D', this.#dataDirectory, '-o', settings, '-l', path.join(this.directory, 'log'), '-w', 'start'],
      this.user,
    );
  }

  /** Stops the server the way an operator's restart does: open connections are terminated (57P01). */
  async stop(): Promise<void> {
    await run('pg_ctl', ['-D', this.#dataDirectory, '-m', 'fast', '-w', 'stop'], this.user);
  }

  async destroy(): Promise<void> {
    await run('pg_ctl', ['-D', this.#dataDirectory, '-m', 'immediate', '-w', 'stop'], this.user).catch(() => undefined);
    fs.rmSync(this.directory, { recursive: true, force: true });
  }
}
