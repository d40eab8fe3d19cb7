import type { EvalCaseValue } from '../../schemas/evals.js';
import type { Database, Executor } from '../schema.js';

export interface EvalDatasetRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  cases: EvalCaseValue[];
  caseCount: number;
  createdAt: string;
  updatedAt: string;
}

export type EvalDatasetSummary = Omit<EvalDatasetRecord, 'cases'>;

type DatasetRow = Database['eval_datasets'];

function summaryOf(row: Omit<DatasetRow, 'cases'>): EvalDatasetSummary {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    caseCount: row.case_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const summaryColumns = ['id', 'account_id', 'name', 'description', 'case_count', 'created_at', 'updated_at'] as const;

/** An account's eval datasets; every read names the account, so another account's answers as missing. */
export class EvalDatasetRepository {
  constructor(private readonly db: Executor) {}

  async insert(record: EvalDatasetRecord, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('eval_datasets')
      .values({
        id: record.id,
        account_id: record.accountId,
        name: record.name,
        description: record.description,
        cases: JSON.stringify(record.cases),
        case_count: record.caseCount,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
      })
      .execute();
  }

  async find(accountId: string, id: string, executor: Executor = this.db): Promise<EvalDatasetRecord | null> {
    const row = await executor
      .selectFrom('eval_datasets')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (row === undefined) return null;
    return { ...summaryOf(row), cases: JSON.parse(row.cases) as EvalCaseValue[] };
  }

  /** Newest first, without the cases; `before`: datasets made before this id. */
  async page(
    query: { accountId: string; limit: number; before?: string },
    executor: Executor = this.db,
  ): Promise<EvalDatasetSummary[]> {
    let builder = executor.selectFrom('eval_datasets').select(summaryColumns).where('account_id', '=', query.accountId);
    if (query.before !== undefined) builder = builder.where('id', '<', query.before);
    return (await builder.orderBy('id', 'desc').limit(query.limit).execute()).map(summaryOf);
  }

  /** Writes the dataset's new fields; false when it no longer exists. */
  async update(record: EvalDatasetRecord, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('eval_datasets')
      .set({
        name: record.name,
        description: record.description,
        cases: JSON.stringify(record.cases),
        case_count: record.caseCount,
        updated_at: record.updatedAt,
      })
      .where('id', '=', record.id)
      .where('account_id', '=', record.accountId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(accountId: string, id: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .deleteFrom('eval_datasets')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
