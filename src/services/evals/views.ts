import { scorerTypes, type CaseVersionResultView, type EvalSummaryView } from '../../schemas/evals.js';
import type { EvalScoreRow, EvalSummaryRow } from '../../storage/repositories/evals.js';

/** A result's scores as stored beside it (the light column). */
export interface StoredScore {
  type: (typeof scorerTypes)[number];
  score: number;
  passed: boolean;
}

export function storedScoresOf(result: CaseVersionResultView): string {
  return JSON.stringify(result.scores.map(({ type, score, passed }) => ({ type, score, passed })));
}

/** The cases whose outcome differs between the two versions: both answered, and some scorer passed for one only. */
export function differingCases(versions: readonly number[], rows: readonly EvalScoreRow[]): Set<string> {
  const differing = new Set<string>();
  if (versions.length < 2) return differing;
  const byCase = new Map<string, Map<number, EvalScoreRow>>();
  for (const row of rows) {
    let entry = byCase.get(row.case_id);
    if (entry === undefined) byCase.set(row.case_id, (entry = new Map()));
    entry.set(row.version, row);
  }
  for (const [caseId, results] of byCase) {
    const [first, second] = versions.map((version) => results.get(version));
    if (first === undefined || second === undefined) continue;
    if (outcomeKey(first) !== outcomeKey(second)) differing.add(caseId);
  }
  return differing;
}

/** A result's outcome: whether it was answered, and which of its scorers passed. */
function outcomeKey(row: EvalScoreRow): string {
  const scores = JSON.parse(row.scores) as StoredScore[];
  return `${row.status}:${scores.map((score) => (score.passed ? 1 : 0)).join('')}`;
}

/** Totals per version, and per scorer type within it. */
export function totalsOf(versions: readonly number[], rows: readonly EvalScoreRow[]): EvalSummaryView['totals'] {
  return versions.map((version) => {
    const mine = rows.filter((row) => row.version === version);
    const byType = new Map<string, { count: number; passed: number; sum: number }>();
    for (const row of mine) {
      for (const score of JSON.parse(row.scores) as StoredScore[]) {
        const total = byType.get(score.type) ?? { count: 0, passed: 0, sum: 0 };
        total.count += 1;
        total.passed += score.passed ? 1 : 0;
        total.sum += score.score;
        byType.set(score.type, total);
      }
    }
    return {
      version,
      cases: mine.length,
      passed: mine.filter((row) => row.passed === 1).length,
      failed: mine.filter((row) => row.passed === 0 && row.status === 'completed').length,
      errored: mine.filter((row) => row.status !== 'completed').length,
      scorers: scorerTypes.flatMap((type) => {
        const total = byType.get(type);
        if (total === undefined) return [];
        return [
          {
            type,
            count: total.count,
            passed: total.passed,
            meanScore: Math.round((total.sum / total.count) * 1e4) / 1e4,
          },
        ];
      }),
    };
  });
}

export function evalSummaryView(
  row: EvalSummaryRow,
  rows: readonly EvalScoreRow[] | null,
  done: number,
): EvalSummaryView {
  const versions = JSON.parse(row.versions) as number[];
  const judge = JSON.parse(row.judge) as { provider: string; model: string };
  return {
    id: row.id,
    agentId: row.agent_id,
    datasetId: row.dataset_id,
    datasetName: row.dataset_name,
    versions,
    judge: { provider: judge.provider, model: judge.model },
    concurrency: row.concurrency,
    status: row.status as EvalSummaryView['status'],
    progress: { total: row.case_count * versions.length, done },
    totals: rows === null ? [] : totalsOf(versions, rows),
    differing: rows === null ? 0 : differingCases(versions, rows).size,
    error: row.error === null ? null : (JSON.parse(row.error) as Record<string, unknown>),
    takeovers: row.takeovers,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
