import { request } from '../../api.js';
import type {
  CreateDatasetBody,
  CreateEvalBody,
  Dataset,
  DatasetList,
  Eval,
  EvalList,
  EvalSummary,
  UpdateDatasetBody,
} from './types.js';

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
