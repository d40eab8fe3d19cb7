import { randomBytes } from 'node:crypto';
import { createFreshDatabase } from '../../test/helpers/postgres.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/** Where the server under soak keeps its data, and how to remove it afterwards. */
export interface SoakDatabase {
  kind: DatabaseKind;
  /** Added to the server's environment (nothing for SQLite: a fresh data dir is enough). */
  serverEnvironment: Record<string, string>;
  remove(): Promise<void>;
}

/** A new database on the server of `baseUrl`, dropped by `remove`, so a soak starts empty and leaves nothing. */
async function postgresDatabase(baseUrl: string): Promise<SoakDatabase> {
  const database = await createFreshDatabase(baseUrl, 'agentd_soak');
  return {
    kind: 'postgres',
    serverEnvironment: {
      DATABASE_URL: database.url,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    },
    async remove() {
      await database.drop();
    },
  };
}

export async function openSoakDatabase(kind: DatabaseKind, postgresUrl: string | undefined): Promise<SoakDatabase> {
  if (kind === 'sqlite') return { kind, serverEnvironment: {}, remove: async () => undefined };
  if (postgresUrl === undefined) throw new Error('--database postgres needs DATABASE_URL');
  return postgresDatabase(postgresUrl);
}
