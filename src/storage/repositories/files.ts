import type { Database, Executor } from '../schema.js';

export type FileRow = Database['files'];
export type FileDescription = Omit<FileRow, 'body'>;

/**
 * Stored files. Every read names the owning account: a file of another
 * account is not found, exactly like a missing one.
 */
export class FileRepository {
  constructor(private readonly db: Executor) {}

  async insert(rows: FileRow[], executor: Executor = this.db): Promise<void> {
    if (rows.length === 0) return;
    await executor.insertInto('files').values(rows).execute();
  }

  async find(accountId: string, id: string, executor: Executor = this.db): Promise<FileRow | undefined> {
    return executor
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** The file's description without its bytes (what a conditional request needs). */
  async describe(accountId: string, id: string, executor: Executor = this.db): Promise<FileDescription | undefined> {
    return executor
      .selectFrom('files')
      .select(['id', 'account_id', 'agent_id', 'media_type', 'size_bytes', 'width', 'height', 'origin', 'created_at'])
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** Which of these files have rows (the folder store's sweep asks, for files no row may name). */
  async existing(ids: readonly string[], executor: Executor = this.db): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await executor.selectFrom('files').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.deleteFrom('files').where('agent_id', '=', agentId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
