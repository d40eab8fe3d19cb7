import type { operations } from '../../../../src/client/openapi.js';
import { request } from '../../api.js';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

export type DatasetList = Json<operations['listEvalDatasets']['responses'][200]>;
export type DatasetSummary = DatasetList['data'][number];
export type Dataset = Json<operations['getEvalDataset']['responses'][200]>;
export type EvalCase = Dataset['cases'][number];
export type Scorer = EvalCase['expect'][number];
export type ScorerType = Scorer['type'];
export type CreateDatasetBody = operations['createEvalDataset']['requestBody']['content']['application/json'];
export type UpdateDatasetBody = operations['updateEvalDataset']['requestBody']['content']['application/json'];

export type EvalList = Json<operations['listEvals']['responses'][200]>;
export type EvalSummary = EvalList['data'][number];
export type Eval = Json<operations['getEval']['responses'][200]>;
export type CaseResult = Eval['cases'][number];
export type CaseVersionResult = CaseResult['results'][number];
export type VersionTotals = Eval['totals'][number];
export type CreateEvalBody = operations['createEval']['requestBody']['content']['application/json'];

const datasetsPath = '/v1/eval-datasets';
const datasetPath = (datasetId: string) => `${datasetsPath}/${encodeURIComponent(datasetId)}`;
const evalsPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}/evals`;
const evalPath = (agentId: string, evalId: string) => `${evalsPath(agentId)}/${encodeURIComponent(evalId)}`;

/** The most datasets one page lists (the API's maximum): the editor and the eval form choose among them. */
export const datasetPageSize = 100;
export const evalPageSize = 20;
export const casePageSize = 50;

/** GET /v1/eval-datasets: the account's datasets, newest first, without their cases. */
export const listDatasets = (signal?: AbortSignal) =>
  request<DatasetList>('GET', datasetsPath, { query: { limit: datasetPageSize }, signal });

export const getDataset = (datasetId: string, signal?: AbortSignal) =>
  request<Dataset>('GET', datasetPath(datasetId), { signal });

export const createDataset = (body: CreateDatasetBody) => request<Dataset>('POST', datasetsPath, { body });

/** A JSON Merge Patch: `cases` replaces the whole list. */
export const updateDataset = (datasetId: string, body: UpdateDatasetBody) =>
  request<Dataset>('PATCH', datasetPath(datasetId), { body });

export const deleteDataset = (datasetId: string) =>
  request<{ id: string; deleted: boolean }>('DELETE', datasetPath(datasetId));

/** GET /v1/agents/{id}/evals: one page of the agent's evals, newest first. */
export const listEvals = (agentId: string, cursor: string | null, signal?: AbortSignal) =>
  request<EvalList>('GET', evalsPath(agentId), { query: { limit: evalPageSize, cursor: cursor ?? undefined }, signal });

/** One eval with a page of its cases' results, those whose outcome differs between the versions first. */
export const getEval = (agentId: string, evalId: string, cursor: string | null, signal?: AbortSignal) =>
  request<Eval>('GET', evalPath(agentId, evalId), {
    query: { limit: casePageSize, cursor: cursor ?? undefined },
    signal,
  });

/** POST …/evals: answers 202 with the eval, queued or already running. */
export const startEval = (agentId: string, body: CreateEvalBody) =>
  request<EvalSummary>('POST', evalsPath(agentId), { body });

export const cancelEval = (agentId: string, evalId: string) =>
  request<EvalSummary>('POST', `${evalPath(agentId, evalId)}/cancel`);

/** Statuses in which an eval is still going: the views read it again every 2 s, and it can be cancelled. */
export const activeStatuses: ReadonlySet<EvalSummary['status']> = new Set(['queued', 'running']);
