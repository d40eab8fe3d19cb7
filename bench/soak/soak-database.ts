import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

/** Where the server under soak keeps its data, and how to remove it afterwards. */
export interface SoakDatabase {
  kind: DatabaseKind;
  /** Added to the server's environment (nothing for SQLite: a fresh data dir is enough). */
  serverEnvironment: Record<string, string>;
  remove(): Promise<void>;
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

/** A new database on the server of `baseUrl`, dropped by `remove`, so a soak starts empty and leaves nothing. */
async function postgresDatabase(baseUrl: string): Promise<SoakDatabase> {
  const name = `agentd_soak_${randomBytes(6).toString('hex')}`;
  const maintenance = new URL(baseUrl);
  maintenance.pathname = '/postgres';
  await onServer(maintenance.toString(), `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    serverEnvironment: {
      DATABASE_URL: url.toString(),
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    },
    async remove() {
      await onServer(maintenance.toString(), `drop database if exists ${name} with (force)`);
    },
  };
}

export async function openSoakDatabase(kind: DatabaseKind, postgresUrl: string | undefined): Promise<SoakDatabase> {
  if (kind === 'sqlite') return { kind, serverEnvironment: {}, remove: async () => undefined };
  if (postgresUrl === undefined) throw new Error('--database postgres needs DATABASE_URL');
  return postgresDatabase(postgresUrl);
}
