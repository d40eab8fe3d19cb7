import type { Executor } from '../schema.js';
import type {
  ApprovalDecision,
  ApprovalDecisionResult,
  CompletedReplyResult,
  CompletedReplyWrite,
  RunDialectWrites,
  RunRepository,
  RunStoreNeighbours,
} from './runs.js';

/**
 * The run store's writes that span other tables, on SQLite: the writes that
 * runs-postgres.ts makes in one statement, one after the other in one
 * transaction. SQLite has no data-modifying common table expressions, and
 * needs none here: its statements are function calls on this thread, not
 * round trips, and it has one writer, so no lock is taken.
 */
export class SqliteRunWrites implements RunDialectWrites {
  constructor(
    private readonly db: Executor,
    private readonly runs: RunRepository,
    private readonly neighbours: RunStoreNeighbours,
  ) {}

  async completeReply(write: CompletedReplyWrite): Promise<CompletedReplyResult> {
    const { messages, webhooks } = this.neighbours;
    const { run, event } = write;
    return this.db.transaction().execute(async (transaction): Promise<CompletedReplyResult> => {
      if (event !== null && (await webhooks.subscribers(event.accountId, event.type, transaction)).length > 0) {
        return { written: false };
      }
      const stored =
        write.turns.length > 0 && (await messages.insertForExistingAgent(write.agentId, write.turns, transaction));
      // A deleted agent's runs are gone with it: the run's end then changes nothing.
      const ended = await this.runs.finish(run.runId, run.finish, transaction);
      if (ended && run.events !== null) {
        await this.runs.appendEvents([{ ...run.events, runId: run.runId }], run.finish.finishedAt, transaction);
      }
      return { written: true, stored, ended };
    });
  }

  async decideApproval(decision: ApprovalDecision, transaction: Executor): Promise<ApprovalDecisionResult> {
    const { approvals } = this.neighbours;
    const { resume } = decision;
    const fields = { status: decision.status, reason: decision.reason, decidedBy: decision.decidedBy, at: decision.at };
    if (!(await approvals.decide(decision.approvalId, fields, transaction))) return { decided: false, resumed: false };
    if ((await approvals.pendingOf(decision.pausedRunId, transaction)) > 0) return { decided: true, resumed: false };
    if (!(await approvals.claimResume(decision.pausedRunId, resume.runId, transaction))) {
      return { decided: true, resumed: false };
    }
    const paused = await this.runs.findById(decision.pausedRunId, transaction);
    await this.runs.settleWaiting(decision.pausedRunId, transaction);
    await this.runs.createQueued(
      {
        id: resume.runId,
        accountId: resume.accountId,
        agentId: resume.agentId,
        trigger: 'approval',
        taskId: null,
        userId: resume.userId,
        roomId: resume.roomId,
        input: paused?.input ?? '',
        instanceId: resume.instanceId,
        createdAt: decision.at,
        approvalId: decision.approvalId,
      },
      transaction,
    );
    return { decided: true, resumed: true };
  }
}
