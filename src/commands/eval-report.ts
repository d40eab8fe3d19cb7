import type { operations } from '../client/index.js';

/** An eval as GET …/evals/{evalId} answers it. */
export type EvalResult = operations['getEval']['responses'][200]['content']['application/json'];
type CaseResult = EvalResult['cases'][number];
type VersionResult = CaseResult['results'][number];

/** Columns padded to their widest cell, two spaces apart; the last one is not padded. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

const fixed = (value: number) => value.toFixed(3);
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(3)}`;

/** What a version's result of a case was, in a few words: passed, which scorers failed, or the error. */
export function outcomeOf(result: VersionResult | undefined): string {
  if (!result) return '-';
  if (result.status === 'failed') {
    const detail = (result.error as { detail?: string } | null)?.detail ?? 'no reply';
    return `error: ${detail.length > 60 ? `${detail.slice(0, 59)}…` : detail}`;
  }
  if (result.passed) return 'passed';
  const failing = [...new Set(result.scores.filter((score) => !score.passed).map((score) => score.type))];
  return `failed: ${failing.join(', ')}`;
}

function seconds(from: string | null, to: string | null): string {
  if (from === null || to === null) return '';
  return `, ${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s`;
}

/**
 * The eval as a terminal shows it: per scorer type its passes and mean score in each version side by side,
 * with the second's difference from the first; then the cases, those whose outcome differs first, then those
 * that failed some version; the cases that passed everywhere are counted, not listed.
 */
export function formatEvalReport(result: EvalResult): string {
  const { totals, versions } = result;
  const caseCount = totals[0]?.cases ?? 0;
  let text =
    `Eval ${result.id} on "${result.datasetName}" (${result.datasetId}): ${result.status}, ` +
    `${result.progress.done}/${result.progress.total} results${seconds(result.startedAt, result.finishedAt)}\n\n`;

  const compare = totals.length === 2;
  const header = ['scorer', ...totals.map((total) => `v${total.version}`), ...(compare ? ['difference'] : [])];
  const rows = [header];
  const types = [...new Set(totals.flatMap((total) => total.scorers.filter((s) => s.count > 0).map((s) => s.type)))];
  for (const type of types) {
    const cells = totals.map((total) => total.scorers.find((scorer) => scorer.type === type));
    const row = [
      type,
      ...cells.map((cell) => (cell && cell.count > 0 ? `${cell.passed}/${cell.count}  ${fixed(cell.meanScore)}` : '-')),
    ];
    if (compare) row.push(cells[0] && cells[1] ? signed(cells[1].meanScore - cells[0].meanScore) : '');
    rows.push(row);
  }
  const passedShare = (total: (typeof totals)[number]) => (total.cases === 0 ? 0 : total.passed / total.cases);
  rows.push([
    'cases passed',
    ...totals.map((total) => `${total.passed}/${total.cases}  ${fixed(passedShare(total))}`),
    ...(compare ? [signed(passedShare(totals[1]!) - passedShare(totals[0]!))] : []),
  ]);
  rows.push(['errored', ...totals.map((total) => String(total.errored)), ...(compare ? [''] : [])]);
  text += table(rows);

  const outcomes = (entry: CaseResult) =>
    versions.map((version) => outcomeOf(entry.results.find((result) => result.version === version)));
  const differing = result.cases.filter((entry) => entry.differs);
  const failing = result.cases.filter((entry) => !entry.differs && entry.results.some((result) => !result.passed));
  const caseHeader = ['case', ...versions.map((version) => `v${version}`)];
  if (differing.length > 0) {
    text += `\n${differing.length} ${differing.length === 1 ? 'case differs' : 'cases differ'} between the versions:\n`;
    text += table([caseHeader, ...differing.map((entry) => [entry.caseId, ...outcomes(entry)])]);
  } else if (compare) {
    text += '\nNo case differs between the versions.\n';
  }
  if (failing.length > 0) {
    const where = versions.length === 2 ? 'the same way in both versions' : '';
    text += `\n${failing.length} ${failing.length === 1 ? 'case' : 'cases'} failed${where ? ` ${where}` : ''}:\n`;
    text += table([caseHeader, ...failing.map((entry) => [entry.caseId, ...outcomes(entry)])]);
  }
  const passedEverywhere = result.cases.length - differing.length - failing.length;
  text += `\n${passedEverywhere} of ${caseCount} ${caseCount === 1 ? 'case' : 'cases'} passed${
    versions.length === 2 ? ' in both versions' : ''
  }.\n`;
  return text;
}
