import type { Executor } from '../schema.js';

export interface AccountRecord {
  id: string;
  name: string;
  createdAt: string;
}

export class AccountRepository {
  constructor(private readonly db: Executor) {}

  async insert(account: AccountRecord, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('accounts')
      .values({ id: account.id, name: account.name, created_at: account.createdAt })
      .execute();
  }

  async find(id: string, executor: Executor = this.db): Promise<AccountRecord | null> {
    const row = await executor.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, name: row.name, createdAt: row.created_at } : null;
  }

  async oldest(executor: Executor = this.db): Promise<AccountRecord | null> {
    const row = await executor
      .selectFrom('accounts')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return row ? { id: row.id, name: row.name, createdAt: row.created_at } : null;
  }

  async count(executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
