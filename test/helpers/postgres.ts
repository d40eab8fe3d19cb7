import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl } from './environment.js';

export interface FreshDatabase {
  name: string;
  /** DATABASE_URL of the new database (same server and credentials as the test one). */
  url: string;
  drop(): Promise<void>;
}

async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** An empty database of its own on the test server, for tests that need a whole one (several instances, migrations). */
export async function createFreshDatabase(): Promise<FreshDatabase> {
  const name = `agentd_test_${randomBytes(6).toString('hex')}`;
  await onServer(`create database ${name}`);
  const url = new URL(databaseUrl as string);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // `with (force)` ends connections a killed instance may have left behind.
    drop: () => onServer(`drop database if exists ${name} with (force)`),
  };
}
