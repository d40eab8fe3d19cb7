import type { Selectable } from 'kysely';
import type { Database, Executor } from '../schema.js';

export type RunStepRow = Selectable<Database['run_steps']>;

/** A journal entry as written: the run's next sequence number, its kind and its JSON. */
export interface NewRunStep {
  runId: string;
  seq: number;
  kind: string;
  /** The entry's JSON, or what makes it when written (a deferred entry is serialised off the reply's path). */
  data: string | (() => string);
}

/**
 * The runs' journals (migration 0028; src/services/runs/run-journal.ts): one
 * row per completed step, written by the run's one owner as it goes and read
 * by the instance that takes the run over, by the run's detail and by exports.
 */
export class RunStepRepository {
  constructor(private readonly db: Executor) {}

  /** Writes entries (of one run or several) in one statement; an entry already written (same run and seq) stays. */
  async append(steps: readonly NewRunStep[], createdAt: string, executor: Executor = this.db): Promise<void> {
    if (steps.length === 0) return;
    await executor
      .insertInto('run_steps')
      .values(
        steps.map((step) => ({
          run_id: step.runId,
          seq: step.seq,
          kind: step.kind,
          data: typeof step.data === 'string' ? step.data : step.data(),
          created_at: createdAt,
        })),
      )
      .onConflict((conflict) => conflict.columns(['run_id', 'seq']).doNothing())
      .execute();
  }

  /** A run's journal, in order. */
  async ofRun(runId: string, executor: Executor = this.db): Promise<RunStepRow[]> {
    return executor.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
  }

  /** Removes the journals of a deleted agent's runs. */
  async deleteForAgent(agentId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('run_steps')
      .where('run_id', 'in', (select) => select.selectFrom('runs').select('id').where('agent_id', '=', agentId))
      .execute();
  }

  /** Removes journal entries past the retention of the runs' events. */
  async prune(before: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.deleteFrom('run_steps').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
