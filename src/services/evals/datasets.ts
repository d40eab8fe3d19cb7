import { isoTime } from '../../clock.js';
import { AppError, describeFieldErrors, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import {
  evalLimits,
  type CreateEvalDatasetInput,
  type EvalCaseValue,
  type EvalDatasetListView,
  type EvalDatasetView,
  type ListQueryValue,
  type UpdateEvalDatasetInput,
} from '../../schemas/evals.js';
import type { EvalDatasetRecord } from '../../storage/repositories/evals-datasets.js';
import { requireScope, type ServiceContext } from '../context.js';
import { decodeLastIdCursor, encodeLastIdCursor } from '../last-id-cursor.js';
import { regexProblem, schemaProblem } from './scorers.js';

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * What the schema cannot say of a dataset's cases: unique ids, the size of
 * JSON objects, patterns and schemas the scorers can run. Every problem is
 * reported, each at its JSON pointer, in one 400.
 */
function checkCases(cases: readonly EvalCaseValue[]): void {
  const errors: Array<{ path: string; message: string }> = [];
  const seen = new Set<string>();
  cases.forEach((testCase, index) => {
    const at = `/body/cases/${index}`;
    if (seen.has(testCase.id)) errors.push({ path: `${at}/id`, message: `repeats the case id ${testCase.id}` });
    seen.add(testCase.id);
    if (testCase.context !== undefined && jsonBytes(testCase.context) > evalLimits.objectBytes) {
      errors.push({ path: `${at}/context`, message: 'must be at most 16 KiB as JSON' });
    }
    testCase.expect.forEach((scorer, position) => {
      const where = `${at}/expect/${position}`;
      if (scorer.type === 'regex') {
        const flags = scorer.flags ?? '';
        if (new Set(flags).size !== flags.length) {
          errors.push({ path: `${where}/flags`, message: 'must name each flag at most once' });
          return;
        }
        const problem = regexProblem(scorer.pattern, scorer.flags);
        if (problem !== null) errors.push({ path: `${where}/pattern`, message: problem });
      } else if (scorer.type === 'jsonSchema') {
        const problem = schemaProblem(scorer.schema);
        if (problem !== null) errors.push({ path: `${where}/schema`, message: problem });
      } else if (
        scorer.type === 'toolCalled' &&
        scorer.input !== undefined &&
        jsonBytes(scorer.input) > evalLimits.objectBytes
      ) {
        errors.push({ path: `${where}/input`, message: 'must be at most 16 KiB as JSON' });
      }
    });
  });
  if (errors.length > 0) {
    const fieldErrors = errors.map((error) => ({ ...error, code: 'invalid' as const }));
    throw new AppError('validation_failed', describeFieldErrors(fieldErrors), { errors: fieldErrors });
  }
}

function datasetView(record: EvalDatasetRecord): EvalDatasetView {
  const { accountId: _account, ...view } = record;
  return view;
}

export async function createEvalDataset({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: CreateEvalDatasetInput;
}): Promise<EvalDatasetView> {
  requireScope(ctx, 'agents:write');
  checkCases(input.cases);
  const now = isoTime(ctx.deps.clock.now());
  const record: EvalDatasetRecord = {
    id: newId('evalDataset'),
    accountId: ctx.actor.accountId,
    name: input.name,
    description: input.description ?? null,
    cases: input.cases,
    caseCount: input.cases.length,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.deps.repositories.evalDatasets.insert(record);
  return datasetView(record);
}

export async function getEvalDataset({
  ctx,
  datasetId,
}: {
  ctx: ServiceContext;
  datasetId: string;
}): Promise<EvalDatasetView> {
  requireScope(ctx, 'agents:read');
  const record = await ctx.deps.repositories.evalDatasets.find(ctx.actor.accountId, datasetId);
  if (record === null) throw notFound('Eval dataset');
  return datasetView(record);
}

export async function listEvalDatasets({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListQueryValue;
}): Promise<EvalDatasetListView> {
  requireScope(ctx, 'agents:read');
  const limit = query.limit ?? 20;
  const before = query.cursor === undefined ? undefined : decodeLastIdCursor('evalDataset', query.cursor);
  const rows = await ctx.deps.repositories.evalDatasets.page({
    accountId: ctx.actor.accountId,
    limit: limit + 1,
    ...(before !== undefined ? { before } : {}),
  });
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: page.map(({ accountId: _account, ...summary }) => summary),
    pagination: { limit, hasMore, nextCursor: hasMore ? encodeLastIdCursor(page[page.length - 1]!.id) : null },
  };
}

/** JSON Merge Patch of a dataset's fields (RFC 7396): `cases` replaces the whole list, `description: null` clears it. */
export async function updateEvalDataset({
  ctx,
  datasetId,
  input,
}: {
  ctx: ServiceContext;
  datasetId: string;
  input: UpdateEvalDatasetInput;
}): Promise<EvalDatasetView> {
  requireScope(ctx, 'agents:write');
  if (input.cases !== undefined) checkCases(input.cases);
  const { repositories } = ctx.deps;
  const current = await repositories.evalDatasets.find(ctx.actor.accountId, datasetId);
  if (current === null) throw notFound('Eval dataset');
  const cases = input.cases ?? current.cases;
  const next: EvalDatasetRecord = {
    ...current,
    name: input.name ?? current.name,
    description: input.description === undefined ? current.description : input.description,
    cases,
    caseCount: cases.length,
    updatedAt: isoTime(ctx.deps.clock.now()),
  };
  if (!(await repositories.evalDatasets.update(next))) throw notFound('Eval dataset');
  return datasetView(next);
}

export async function deleteEvalDataset({
  ctx,
  datasetId,
}: {
  ctx: ServiceContext;
  datasetId: string;
}): Promise<{ id: string; deleted: true }> {
  requireScope(ctx, 'agents:write');
  if (!(await ctx.deps.repositories.evalDatasets.delete(ctx.actor.accountId, datasetId)))
    throw notFound('Eval dataset');
  return { id: datasetId, deleted: true };
}
