import type { EvalCase, ScorerType } from './types.js';

/**
 * A dataset's cases as JSONL (https://jsonlines.org): one case object per
 * line, exactly as the API takes and gives them. Problems are said by line,
 * the way a person editing the text finds them, whether this page found them
 * (a line that is not JSON) or the server did (a JSON pointer into `cases`).
 */

export interface LineProblem {
  /** The line of the text, from 1; null for a problem of the whole list (too many cases). */
  line: number | null;
  /** Where in the line's case, in words (`(case "refund"), scorer 1 (regex), pattern`); empty for the whole line. */
  where: string;
  message: string;
}

export type ParsedCases = { ok: true; cases: EvalCase[]; lines: number[] } | { ok: false; problems: LineProblem[] };

/** Each scorer type and the fields it cannot do without; the compiler checks the list against the API's types. */
const requiredFields = {
  contains: ['value'],
  notContains: ['value'],
  regex: ['pattern'],
  equals: ['value'],
  jsonSchema: ['schema'],
  toolCalled: ['name'],
  noToolCalled: [],
  finishReason: ['value'],
  latencyMs: ['max'],
  tokens: ['max'],
  costUsd: ['max'],
  rubric: ['criteria'],
} as const satisfies Record<ScorerType, readonly string[]>;
const scorerTypes = Object.keys(requiredFields) as ScorerType[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the API would refuse with only "is invalid" (a scorer of no known type,
 * or without the field its type needs), said here in words; anything else is
 * the server's to check.
 */
function scorerProblems(candidate: Record<string, unknown>): string[] {
  if (!Array.isArray(candidate.expect)) return [];
  return candidate.expect.flatMap((scorer, index) => {
    const name = `scorer ${index + 1}`;
    if (!isObject(scorer)) return [`${name} is not an object`];
    const type = scorer.type;
    if (typeof type !== 'string' || !(type in requiredFields)) {
      const given = typeof type === 'string' ? `has the type "${type}"` : 'has no type';
      return [`${name} ${given}; a scorer's type is one of ${scorerTypes.join(', ')}`];
    }
    const missing = requiredFields[type as ScorerType].filter((field) => !(field in scorer));
    return missing.length > 0 ? [`${name} (${type}) needs ${missing.map((field) => `"${field}"`).join(' and ')}`] : [];
  });
}

/** Reads the text: a blank line is skipped; every line that is not one JSON object is a problem. */
export function parseCases(text: string): ParsedCases {
  const cases: EvalCase[] = [];
  const lines: number[] = [];
  const problems: LineProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (caught) {
      const reason = caught instanceof SyntaxError ? caught.message : 'not JSON';
      problems.push({ line, where: '', message: `not valid JSON (${reason})` });
      return;
    }
    if (!isObject(value)) {
      problems.push({
        line,
        where: '',
        message: 'is not a case: a case is a JSON object such as {"id": …, "messages": […]}',
      });
      return;
    }
    for (const message of scorerProblems(value)) problems.push({ line, where: '', message });
    cases.push(value as unknown as EvalCase);
    lines.push(line);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, cases, lines };
}

/** The cases as JSONL: one compact JSON object per line, and a newline after the last. */
export function casesToJsonl(cases: readonly EvalCase[]): string {
  return cases.map((each) => `${JSON.stringify(each)}\n`).join('');
}

/** One step of a pointer below a case, in words: `expect/0/pattern` → `scorer 1 (regex), pattern`. */
function placeOf(tokens: string[], evalCase: EvalCase | undefined): string {
  const words: string[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as string;
    const next = tokens[index + 1];
    if ((token === 'expect' || token === 'messages') && next !== undefined && /^\d+$/.test(next)) {
      const position = Number(next);
      if (token === 'messages') words.push(`message ${position + 1}`);
      else {
        const type = evalCase?.expect?.[position]?.type;
        words.push(`scorer ${position + 1}${typeof type === 'string' ? ` (${type})` : ''}`);
      }
      index += 1;
    } else {
      words.push(/^\d+$/.test(token) ? `item ${Number(token) + 1}` : token);
    }
  }
  return words.join(', ');
}

/**
 * The server's problems with the cases, by line: `/body/cases/1/expect/0/pattern`
 * becomes line 2 (where case 1 was read), `scorer 1 (regex), pattern: …`.
 * `lines[i]` is the line case i came from.
 */
export function caseProblems(
  errors: ReadonlyArray<{ path: string; message: string }>,
  cases: readonly EvalCase[],
  lines: readonly number[],
): LineProblem[] {
  return errors.map(({ path, message }) => {
    const tokens = path
      .replace(/^\/body/, '')
      .split('/')
      .slice(2)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const [position, ...rest] = tokens;
    if (position === undefined || !/^\d+$/.test(position)) return { line: null, where: 'Cases', message };
    const index = Number(position);
    const evalCase = cases[index];
    const id = typeof evalCase?.id === 'string' ? `(case "${evalCase.id}")` : '';
    return { line: lines[index] ?? null, where: [id, placeOf(rest, evalCase)].filter(Boolean).join(', '), message };
  });
}

/** A problem as the list under the text reads it: `Line 2 (case "refund"), scorer 1 (regex), pattern: …`. */
export function problemText(problem: LineProblem): string {
  const head = [problem.line === null ? '' : `Line ${problem.line}`, problem.where].filter(Boolean).join(' ');
  return head ? `${head}: ${problem.message}` : problem.message;
}

/** A file name from the dataset's name: what a file system refuses becomes a dash. */
export function datasetFileName(name: string): string {
  const safe = name.replace(/[\u0000-\u001f<>:"/\\|?*]+/g, '-').trim();
  return `${safe.replace(/^\.+/, '') || 'dataset'}.jsonl`;
}
