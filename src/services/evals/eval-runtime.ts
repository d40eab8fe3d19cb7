import { isoTime } from '../../clock.js';
import { AppError, problemBody } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AgentToolsets } from '../../plugins/toolsets.js';
import { evalLimits, type EvalCaseValue } from '../../schemas/evals.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { EvalRow } from '../../storage/repositories/evals.js';
import type { ServiceContext, ServiceDeps } from '../context.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { modelKeyOf } from '../messages/send-message.js';
import type { JudgeModel } from './judge.js';
import { runCase } from './run-case.js';
import { versionAgent } from './version-agent.js';
import { differingCases, storedScoresOf, totalsOf } from './views.js';

/** The judge as an eval stores it: `agentKey` when it is the agent's own model, called with the agent's key. */
export interface StoredJudge {
  provider: string;
  model: string;
  agentKey: boolean;
}

/** Evals one instance runs at once; more wait, queued, for the next heartbeat with room (or another instance). */
const maxEvalsPerInstance = 4;

interface LiveEval {
  controller: AbortController;
  /** The eval's runs waiting for a slot or answering. */
  inFlight: Set<string>;
  done: Promise<void>;
}

/**
 * The evals this instance runs. An eval belongs to the instance named by its
 * `instance_id` while that instance's runs heartbeat is fresh — the claim
 * runs have (docs/runs.md). At each heartbeat this instance looks for evals
 * nobody runs (queued, or whose instance stopped for `AGENTD_RUN_STALE_MS`),
 * claims them with a conditional update (one instance wins) and runs the
 * cases that have no result yet; it also stops those of its evals that were
 * cancelled on another instance. Each finished case's result is written as it
 * ends, so a takeover never answers a case twice.
 */
export class EvalRuntime {
  readonly #live = new Map<string, LiveEval>();
  #closed = false;

  constructor(private readonly deps: ServiceDeps) {}

  get instanceId(): string {
    return this.deps.runs.instanceId;
  }

  /** Runs an eval this instance just wrote (queued, under its own id). */
  start(evalId: string): void {
    void this.#claimAndRun(evalId, this.instanceId);
  }

  /** Stops an eval running here at once (it was cancelled); the row already says so. */
  async stop(evalId: string): Promise<void> {
    const live = this.#live.get(evalId);
    if (live === undefined) return;
    await this.#abort(live, new AppError('conflict', 'The eval was cancelled.'));
  }

  async #abort(live: LiveEval, reason: AppError): Promise<void> {
    live.controller.abort(reason);
    const { runs } = this.deps;
    const at = isoTime(this.deps.clock.now());
    for (const runId of live.inFlight) {
      // A run waiting for a slot ends here (its wait sees it); a running one stops with the eval's signal.
      runs.live.get(runId)?.stop('cancelled');
      await this.deps.repositories.runs
        .finish(runId, {
          status: 'cancelled',
          finishReason: null,
          usage: null,
          result: null,
          error: null,
          eventCount: 0,
          finishedAt: at,
        })
        .catch(() => false);
    }
  }

  /** One heartbeat's work: stop evals cancelled elsewhere, claim evals nobody runs. */
  async beat(): Promise<void> {
    if (this.#closed) return;
    const { repositories, runs, clock } = this.deps;
    for (const [evalId, live] of this.#live) {
      const status = await repositories.evals.statusOf(evalId);
      if (status !== 'running' && status !== 'queued')
        await this.#abort(live, new AppError('conflict', 'The eval was cancelled.'));
    }
    const room = maxEvalsPerInstance - this.#live.size;
    if (room <= 0) return;
    const staleBefore = isoTime(clock.now() - runs.settings.staleMs);
    for (const row of await repositories.evals.claimable(staleBefore, room)) {
      if (this.#live.has(row.id) || this.#closed) continue;
      await this.#claimAndRun(row.id, row.instance_id);
    }
  }

  async #claimAndRun(evalId: string, fromInstance: string | null): Promise<void> {
    const { repositories, clock, logger } = this.deps;
    const row = await repositories.evals
      .claim(evalId, fromInstance, this.instanceId, isoTime(clock.now()))
      .catch((error: unknown) => {
        logger.warn({ err: error, evalId }, 'could not claim an eval');
        return null;
      });
    if (row === null) return;
    if (fromInstance !== null && fromInstance !== this.instanceId) {
      logger.warn({ evalId, from: fromInstance, takeovers: row.takeovers }, 'took over an eval whose instance stopped');
    }
    const live: LiveEval = { controller: new AbortController(), inFlight: new Set(), done: Promise.resolve() };
    this.#live.set(evalId, live);
    live.done = this.#run(row, live)
      .catch((error: unknown) => logger.error({ err: error, evalId }, 'an eval stopped unexpectedly'))
      .finally(() => this.#live.delete(evalId));
  }

  async #run(row: EvalRow, live: LiveEval): Promise<void> {
    const { deps } = this;
    const ctx: ServiceContext = {
      deps,
      actor: { accountId: row.account_id, keyId: row.key_id, scopes: new Set(['agents:read', 'messages:send']) },
      requestId: newId('request'),
    };
    const versions = JSON.parse(row.versions) as number[];
    const cases = JSON.parse(row.cases) as EvalCaseValue[];
    const toolsets = new Map<number, AgentToolsets>();
    try {
      let current: AgentRecord;
      const agents = new Map<number, AgentRecord>();
      try {
        current = await findOwnAgent(ctx, row.agent_id);
        for (const version of versions) {
          agents.set(version, await versionAgent(ctx, current, version, isoTime(deps.clock.now())));
          toolsets.set(version, deps.plugins.toolsets.detached());
        }
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await this.#end(row, 'failed', error);
        return;
      }
      const judge = judgeOf(ctx, current, JSON.parse(row.judge) as StoredJudge);
      const done = new Set(
        (await deps.repositories.evals.scores(row.id)).map((result) => `${result.case_id}\u0000${result.version}`),
      );
      const work: Array<{ position: number; testCase: EvalCaseValue; version: number }> = [];
      cases.forEach((testCase, position) => {
        for (const version of versions) {
          if (!done.has(`${testCase.id}\u0000${version}`)) work.push({ position, testCase, version });
        }
      });
      const width = Math.max(
        1,
        Math.min(row.concurrency, deps.messageConcurrency ?? evalLimits.concurrency, work.length),
      );
      const signal = live.controller.signal;
      let next = 0;
      const worker = async () => {
        while (next < work.length && !signal.aborted) {
          const item = work[next++] as (typeof work)[number];
          const result = await runCase(deps, {
            evalId: row.id,
            accountId: row.account_id,
            agentId: row.agent_id,
            position: item.position,
            testCase: item.testCase,
            version: item.version,
            agent: agents.get(item.version) as AgentRecord,
            toolsets: toolsets.get(item.version) as AgentToolsets,
            judge,
            signal,
            inFlight: live.inFlight,
          }).catch((error: unknown) => {
            if (signal.aborted) return null;
            throw error;
          });
          if (result === null || signal.aborted) return;
          await deps.repositories.evals.insertResult({
            eval_id: row.id,
            case_id: item.testCase.id,
            version: item.version,
            position: item.position,
            status: result.status,
            passed: result.passed ? 1 : 0,
            scores: storedScoresOf(result),
            detail: JSON.stringify(result),
            created_at: result.finishedAt,
          });
        }
      };
      await Promise.all(Array.from({ length: width }, worker));
      if (signal.aborted) return;
      await this.#end(row, 'completed', null);
    } catch (error) {
      if (live.controller.signal.aborted) return;
      deps.logger.error({ err: error, evalId: row.id }, 'an eval failed');
      await this.#end(
        row,
        'failed',
        new AppError('internal', 'An unexpected error occurred; it has been logged with the request id.'),
      ).catch(() => undefined);
    } finally {
      await Promise.all([...toolsets.values()].map((each) => each.close()));
    }
  }

  /** Ends the eval, with the `eval.completed` webhook event in the same transaction. */
  async #end(row: EvalRow, status: 'completed' | 'failed', error: AppError | null): Promise<void> {
    const { repositories, clock, webhooks, logger } = this.deps;
    const at = isoTime(clock.now());
    const versions = JSON.parse(row.versions) as number[];
    const problem = error === null ? null : problemBody(error, newId('request'));
    const scores = await repositories.evals.scores(row.id);
    const ended = await repositories.db.transaction().execute(async (transaction) => {
      const finished = await repositories.evals.finish(
        row.id,
        this.instanceId,
        { status, error: problem === null ? null : JSON.stringify(problem), at },
        transaction,
      );
      if (!finished) return false;
      await webhooks.outbox.enqueue(
        {
          id: newId('event'),
          accountId: row.account_id,
          type: 'eval.completed',
          data: {
            agentId: row.agent_id,
            evalId: row.id,
            datasetId: row.dataset_id,
            status,
            versions,
            totals: totalsOf(versions, scores),
            differing: differingCases(versions, scores).size,
            error: problem === null ? null : { code: problem.code, status: problem.status, detail: problem.detail },
            finishedAt: at,
          },
          occurredAt: at,
        },
        transaction,
      );
      return true;
    });
    if (ended) {
      webhooks.outbox.committed();
      logger.info({ evalId: row.id, agentId: row.agent_id, status }, 'eval ended');
    }
  }

  /** Stops the evals running here (their rows stay running: another instance, or this one restarted, goes on). */
  async close(): Promise<void> {
    this.#closed = true;
    const live = [...this.#live.values()];
    for (const each of live) await this.#abort(each, new AppError('service_unavailable', 'The instance shut down.'));
    await Promise.all(live.map((each) => each.done));
  }
}

function judgeOf(ctx: ServiceContext, agent: AgentRecord, stored: StoredJudge): JudgeModel {
  if (!stored.agentKey) return { provider: stored.provider, model: stored.model };
  const apiKey = modelKeyOf(ctx, agent);
  return { provider: stored.provider, model: stored.model, ...(apiKey !== undefined ? { apiKey } : {}) };
}
