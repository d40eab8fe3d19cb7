import { isoTime } from '../../clock.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import {
  evalLimits,
  type CaseVersionResultView,
  type CreateEvalInput,
  type EvalListView,
  type EvalSummaryView,
  type EvalView,
  type GetEvalQueryValue,
  type ListQueryValue,
} from '../../schemas/evals.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';
import type { StoredJudge } from './eval-runtime.js';
import { versionAgent } from './version-agent.js';
import { differingCases, evalSummaryView } from './views.js';

const defaultConcurrency = 2;

/**
 * Starts an eval of an agent: its dataset's cases (copied now, so a later
 * change of the dataset changes no eval) answered by one or two versions.
 * Everything that can be refused is refused here, before anything is written:
 * a dataset or version that does not exist (400), a version that cannot
 * answer on this server (409), a judge whose provider is not enabled (400).
 * The eval is queued and starts on this instance at once.
 */
export async function createEval({
  ctx,
  agentId,
  input,
}: {
  ctx: ServiceContext;
  agentId: string;
  input: CreateEvalInput;
}): Promise<EvalSummaryView> {
  requireScope(ctx, 'messages:send');
  const { repositories, clock } = ctx.deps;
  const agent = await findOwnAgent(ctx, agentId);
  const dataset = await repositories.evalDatasets.find(ctx.actor.accountId, input.datasetId);
  // Another account's dataset answers as a missing one: 404, as every id of another account does.
  if (dataset === null) throw notFound('Eval dataset');
  if (dataset.cases.length === 0) throw validationError('/body/datasetId', 'names a dataset without cases');
  const versions = input.versions ?? [agent.version];
  const now = isoTime(clock.now());
  for (const version of versions) await versionAgent(ctx, agent, version, now);
  let judge: StoredJudge;
  if (input.judge === undefined) {
    judge = { provider: agent.profile.model.provider, model: agent.profile.model.name, agentKey: true };
  } else {
    const problem = ctx.deps.providers.problemWith({ provider: input.judge.provider, name: input.judge.model });
    if (problem) throw validationError('/body/judge/provider', problem.message);
    judge = { provider: input.judge.provider, model: input.judge.model, agentKey: false };
  }
  // The agent's in-flight limit bounds an eval; with limits off, the most an eval answers at once.
  const limit = ctx.deps.messageConcurrency ?? evalLimits.concurrency;
  const concurrency = Math.min(input.concurrency ?? defaultConcurrency, Math.max(1, limit));
  const row = {
    id: newId('eval'),
    account_id: ctx.actor.accountId,
    agent_id: agent.id,
    dataset_id: dataset.id,
    dataset_name: dataset.name,
    cases: JSON.stringify(dataset.cases),
    case_count: dataset.cases.length,
    versions: JSON.stringify(versions),
    judge: JSON.stringify(judge),
    concurrency,
    status: 'queued',
    // This instance runs it; should it stop first, another instance's heartbeat claims it.
    instance_id: ctx.deps.evals !== undefined ? ctx.deps.runs.instanceId : null,
    key_id: ctx.actor.keyId,
    error: null,
    takeovers: 0,
    cancel_requested_at: null,
    created_at: now,
    started_at: null,
    finished_at: null,
  };
  await repositories.evals.insert(row);
  ctx.deps.evals?.start(row.id);
  return evalSummaryView(row, [], 0);
}

export async function listEvals({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListQueryValue;
}): Promise<EvalListView> {
  requireScope(ctx, 'agents:read');
  const { repositories } = ctx.deps;
  const agent = await findOwnAgent(ctx, agentId);
  const limit = query.limit ?? 20;
  const before = query.cursor === undefined ? undefined : decodeLastIdCursor('eval', query.cursor);
  const rows = await repositories.evals.page({
    accountId: ctx.actor.accountId,
    agentId: agent.id,
    limit: limit + 1,
    ...(before !== undefined ? { before } : {}),
  });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const data: EvalSummaryView[] = [];
  for (const row of page) {
    const scores = await repositories.evals.scores(row.id);
    data.push(evalSummaryView(row, scores, scores.length));
  }
  return {
    data,
    pagination: { limit, hasMore, nextCursor: hasMore ? encodeLastIdCursor(page[page.length - 1]!.id) : null },
  };
}

/** A cases page's cursor: the last case's place in the order (differing first, then dataset order). */
function encodeCaseCursor(differs: boolean, position: number): string {
  return Buffer.from(JSON.stringify([1, differs ? 1 : 0, position]), 'utf8').toString('base64url');
}

function decodeCaseCursor(value: string): { differs: boolean; position: number } {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    fields = null;
  }
  if (
    !Array.isArray(fields) ||
    fields.length !== 3 ||
    fields[0] !== 1 ||
    (fields[1] !== 0 && fields[1] !== 1) ||
    !Number.isSafeInteger(fields[2])
  ) {
    throw validationError('/query/cursor', 'is not a cursor this server issued');
  }
  return { differs: fields[1] === 1, position: fields[2] as number };
}

/** The eval with a page of its cases' results: those whose outcome differs between the versions first. */
export async function getEval({
  ctx,
  agentId,
  evalId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  evalId: string;
  query: GetEvalQueryValue;
}): Promise<EvalView> {
  requireScope(ctx, 'agents:read');
  return evalView(ctx, agentId, evalId, query);
}

async function evalView(
  ctx: ServiceContext,
  agentId: string,
  evalId: string,
  query: GetEvalQueryValue,
): Promise<EvalView> {
  const { repositories } = ctx.deps;
  const agent = await findOwnAgent(ctx, agentId);
  const row = await repositories.evals.find(ctx.actor.accountId, agent.id, evalId);
  if (row === null) throw notFound('Eval');
  const scores = await repositories.evals.scores(row.id);
  const summary = evalSummaryView(row, scores, scores.length);
  const differing = differingCases(summary.versions, scores);
  const after = query.cursor === undefined ? null : decodeCaseCursor(query.cursor);
  // One entry per case with a result, in the order the page walks: differing first, then dataset order.
  const positions = new Map<string, number>();
  for (const score of scores) positions.set(score.case_id, score.position);
  const ordered = [...positions]
    .map(([caseId, position]) => ({ caseId, position, differs: differing.has(caseId) }))
    .filter((entry) => query.differsOnly !== true || entry.differs)
    .sort((a, b) => Number(b.differs) - Number(a.differs) || a.position - b.position)
    .filter(
      (entry) =>
        after === null ||
        (after.differs
          ? !entry.differs || entry.position > after.position
          : !entry.differs && entry.position > after.position),
    );
  const limit = query.limit ?? 50;
  const page = ordered.slice(0, limit);
  const hasMore = ordered.length > limit;
  const details = await repositories.evals.details(
    row.id,
    page.map((entry) => entry.caseId),
  );
  const order = new Map(summary.versions.map((version, index) => [version, index]));
  const cases = page.map((entry) => ({
    caseId: entry.caseId,
    position: entry.position,
    differs: entry.differs,
    results: details
      .filter((detail) => detail.case_id === entry.caseId)
      .sort((a, b) => (order.get(a.version) ?? 0) - (order.get(b.version) ?? 0))
      .map((detail) => JSON.parse(detail.detail) as CaseVersionResultView),
  }));
  const last = page[page.length - 1];
  return {
    ...summary,
    cases,
    casesPagination: {
      limit,
      hasMore,
      nextCursor: hasMore && last !== undefined ? encodeCaseCursor(last.differs, last.position) : null,
    },
  };
}

/**
 * Cancels a queued or running eval, wherever it runs: it ends `cancelled` at
 * once; the instance running it stops its replies now if it is this one, else
 * at its next heartbeat. The results recorded so far stay. An eval that has
 * ended is 409 `conflict`.
 */
export async function cancelEval({
  ctx,
  agentId,
  evalId,
}: {
  ctx: ServiceContext;
  agentId: string;
  evalId: string;
}): Promise<EvalView> {
  requireScope(ctx, 'messages:send');
  const { repositories, clock } = ctx.deps;
  const agent = await findOwnAgent(ctx, agentId);
  const row = await repositories.evals.find(ctx.actor.accountId, agent.id, evalId);
  if (row === null) throw notFound('Eval');
  if (!(await repositories.evals.cancel(ctx.actor.accountId, agent.id, evalId, isoTime(clock.now())))) {
    throw new AppError('conflict', `Eval ${evalId} has already ended (${row.status}).`);
  }
  await ctx.deps.evals?.stop(evalId);
  return evalView(ctx, agentId, evalId, {});
}
