import type { Executor } from '../schema.js';

export class ServiceStateRepository {
  constructor(private readonly db: Executor) {}

  /** Records a one-time fact; true only for the caller that recorded it first. */
  async claim(name: string, value: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .insertInto('service_state')
      .values({ name, value })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
