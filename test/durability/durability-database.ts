import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createFreshDatabase } from '../helpers/postgres.js';

export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * The storage a crashed server leaves behind, opened directly (the server is
 * down while it is read) so that half-written rows the API would hide are seen.
 */
export interface DurabilityDatabase {
  kind: DatabaseKind;
  /** What the server needs to run on this storage, the same at every restart. */
  serverEnvironment: Record<string, string>;
  /** Rows of a plain SQL query without parameters, valid on both dialects. */
  query<Row = Record<string, unknown>>(sqlText: string): Promise<Row[]>;
  /** The size of a file's bytes kept outside its row (SQLite's files beside the database); null when absent. */
  fileBytes(agentId: string, fileId: string): number | null;
  /** Engine-level consistency checks (SQLite's integrity check, its FTS index check); problems found. */
  engineProblems(): Promise<string[]>;
  /** Removes everything this run created: the data directory and, on PostgreSQL, the database. */
  remove(): Promise<void>;
}

function temporaryDirectory(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-durability-'));
}

function sqliteDatabase(): DurabilityDatabase {
  const dataDir = temporaryDirectory();
  // Where agentd keeps its database in the data directory when DATABASE_URL is unset.
  const file = path.join(dataDir, 'agentd.sqlite');
  const open = () => new SqliteDatabase(file, { fileMustExist: true });
  return {
    kind: 'sqlite',
    serverEnvironment: { AGENTD_DATA_DIR: dataDir },
    async query<Row>(sqlText: string) {
      const database = open();
      try {
        return database.prepare(sqlText).all() as Row[];
      } finally {
        database.close();
      }
    },
    fileBytes(agentId, fileId) {
      try {
        return fs.statSync(path.join(`${file}-files`, agentId, fileId)).size;
      } catch {
        return null;
      }
    },
    async engineProblems() {
      const database = open();
      try {
        const problems: string[] = [];
        const integrity = database.pragma('integrity_check', { simple: true });
        if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);
        try {
          database.prepare("insert into knowledge_search (knowledge_search) values ('integrity-check')").run();
        } catch (error) {
          problems.push(`knowledge full-text index: ${(error as Error).message}`);
        }
        return problems;
      } finally {
        database.close();
      }
    },
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A database of its own on the server of `baseUrl`, created here and dropped by `remove`. */
async function postgresDatabase(baseUrl: string): Promise<DurabilityDatabase> {
  const dataDir = temporaryDirectory();
  const fresh = await createFreshDatabase(baseUrl, 'agentd_durability');
  return {
    kind: 'postgres',
    serverEnvironment: {
      AGENTD_DATA_DIR: dataDir,
      DATABASE_URL: fresh.url,
      AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
      AGENTD_DATABASE_POOL_SIZE: '8',
    },
    async query<Row>(sqlText: string) {
      const client = new pg.Client({ connectionString: fresh.url });
      await client.connect();
      try {
        return (await client.query(sqlText)).rows as Row[];
      } finally {
        await client.end();
      }
    },
    fileBytes() {
      return null;
    },
    async engineProblems() {
      return [];
    },
    async remove() {
      // `with (force)` ends the connections a killed server may still have open.
      await fresh.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function openDurabilityDatabase(kind: DatabaseKind, postgresUrl?: string): Promise<DurabilityDatabase> {
  if (kind === 'sqlite') return sqliteDatabase();
  if (postgresUrl === undefined) throw new Error('PostgreSQL needs DATABASE_URL');
  return postgresDatabase(postgresUrl);
}
