import type { operations } from '../../../../src/client/openapi.js';

/**
 * The shapes of the eval API as the generated client types give them; apart
 * from the requests so that pure code (the JSONL reader) and its tests load
 * no browser module.
 */
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
