import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { continuousIntegration, databaseUrl, postgresSkip } from './environment.js';

export interface FreshDatabase {
  name: string;
  /** DATABASE_URL of the new database (same server and credentials as the test one). */
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * An empty database of its own on the server of `baseUrl` (the test server by default), for tests and
 * benchmarks that need a whole one (several instances, migrations, crashes, soaks); `drop` removes it.
 */
export async function createFreshDatabase(
  baseUrl: string = databaseUrl as string,
  prefix = 'agentd_test',
): Promise<FreshDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  // Created and dropped from the maintenance database, which always exists, whatever `baseUrl` names.
  const maintenance = new URL(baseUrl);
  maintenance.pathname = '/postgres';
  await onServer(maintenance.toString(), `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // `with (force)` ends connections a killed instance may have left behind.
    drop: () => onServer(maintenance.toString(), `drop database if exists ${name} with (force)`),
  };
}

/** Whether the PostgreSQL server of the tests offers pgvector (.ci/run installs it; see docs/knowledge.md). */
export async function pgvectorAvailable(): Promise<boolean> {
  if (postgresSkip) return false;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query("select 1 from pg_available_extensions where name = 'vector'");
    return result.rowCount !== null && result.rowCount > 0;
  } finally {
    await client.end();
  }
}

/**
 * Why the tests that need pgvector cannot run here, or false. A server without pgvector skips them, saying so,
 * except under CI, where they run (and fail, naming the missing extension).
 */
export async function pgvectorSkip(): Promise<string | false> {
  if (postgresSkip) return postgresSkip;
  if (continuousIntegration || (await pgvectorAvailable())) return false;
  return 'pgvector is not installed on this PostgreSQL server (no "vector" in pg_available_extensions)';
}
