import vm from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../../schemas/json-schema-validator.js';
import { evalLimits, type ScorerSpecValue, type ScorerType } from '../../schemas/evals.js';

/**
 * The deterministic scorers of a case (docs/evals.md, "Scorers"): each reads
 * what the case's replies were and gives a score of 0 or 1 with a reason a
 * person can act on. `rubric` is scored by a judge model (judge.ts).
 */

/** What the scorers read of a case answered by one version. */
export interface CaseOutcome {
  /** The last reply's text. */
  text: string;
  /** Every tool call of the case's replies, in order. */
  toolCalls: ReadonlyArray<{ name: string; input: unknown }>;
  /** The last reply's finish reason; null when a reply could not be given. */
  finishReason: string | null;
  latencyMs: number;
  totalTokens: number;
  costUsd: number;
}

export interface Score {
  type: ScorerType;
  score: number;
  passed: boolean;
  reason: string;
}

const pass = (type: ScorerType, reason: string): Score => ({ type, score: 1, passed: true, reason });
const fail = (type: ScorerType, reason: string): Score => ({ type, score: 0, passed: false, reason });

/** A short quote of a text for a reason. */
function quote(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/*
 * Regex scorers. JavaScript's engine backtracks, so a pattern such as (a+)+$ can take exponential time on a
 * crafted reply. Bounds in the manner of RE2's: a pattern is at most 200 characters and may hold no
 * backreference and no quantified group that itself holds a quantifier (checked when the dataset is written),
 * and a match runs in a separate V8 context with a time-out that grows with the text (50 ms + 1 ms per KiB,
 * at most 250 ms) on at most the first 64 KiB of the reply; a match that runs out of time twice scores 0 and says so.
 */
const regexTextChars = 64 * 1024;
const backreference = /\\[1-9]|\\k</;

/** Why a regex scorer's pattern is refused, or null when it is accepted. */
export function regexProblem(pattern: string, flags: string | undefined): string | null {
  if (pattern.length > evalLimits.regexChars) return `must be at most ${evalLimits.regexChars} characters`;
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  if (backreference.test(pattern)) return 'may not use backreferences';
  if (hasNestedQuantifier(pattern)) return 'may not quantify a group that holds a quantifier, such as (a+)+';
  return null;
}

/** Whether a quantified group holds a quantifier: the shape of catastrophic backtracking. */
function hasNestedQuantifier(pattern: string): boolean {
  // For each open group: whether a quantifier was seen inside it.
  const groups: boolean[] = [];
  let inClass = false;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') {
      index += 1;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') groups.push(false);
    else if (char === ')') {
      const quantifiedInside = groups.pop() ?? false;
      const next = pattern[index + 1];
      const quantified = next === '*' || next === '+' || next === '?' || next === '{';
      if (quantifiedInside && quantified && next !== '?') return true;
      if (quantified || quantifiedInside) {
        if (groups.length > 0) groups[groups.length - 1] = true;
      }
    } else if (char === '*' || char === '+' || char === '{') {
      if (groups.length > 0) groups[groups.length - 1] = true;
    }
  }
  return false;
}

const regexContext = vm.createContext({});

/** Compiled once: only the pattern and the subject change from one match to the next. */
const regexTest = new vm.Script('pattern.test(subject)');

function matchesWithin(pattern: string, flags: string | undefined, text: string): boolean | 'timeout' {
  const subject = text.slice(0, regexTextChars);
  // A bound for runaway backtracking, well above what a pattern that passed the checks takes (under 1 ms), so a
  // pause of the process (garbage collection, a busy machine) does not fail it; and a time-out is tried once more
  // before it counts, for the same reason.
  const timeout = Math.min(250, 50 + Math.ceil(subject.length / 1024));
  try {
    regexContext.pattern = new RegExp(pattern, flags);
    regexContext.subject = subject;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return regexTest.runInContext(regexContext, { timeout }) === true;
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
        if (attempt === 2) return 'timeout';
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    return false;
  } finally {
    regexContext.pattern = undefined;
    regexContext.subject = undefined;
  }
}

/* JSON schema scorers: a schema is compiled once per eval run (schemaValidator). */
const ajv = newAjv({ allErrors: false, strict: false, validateFormats: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Why a jsonSchema scorer's schema is refused, or null. */
export function schemaProblem(schema: Record<string, unknown>): string | null {
  if (Buffer.byteLength(JSON.stringify(schema), 'utf8') > evalLimits.objectBytes)
    return 'must be at most 16 KiB as JSON';
  try {
    ajv.compile(schema);
    return null;
  } catch (error) {
    return `is not a JSON Schema Ajv can read: ${(error as Error).message}`;
  }
}

function schemaValidator(schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The JSON a reply holds: all of its text, or its first fenced ```json block. */
function jsonOf(text: string): { value: unknown } | null {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(text);
  for (const candidate of [text.trim(), fenced?.[1]?.trim()]) {
    if (candidate === undefined || candidate === '') continue;
    try {
      return { value: JSON.parse(candidate) as unknown };
    } catch {
      // The next candidate.
    }
  }
  return null;
}

/** Whether `actual` holds every field of `expected` with an equal value (objects compared the same way). */
export function partialMatch(expected: unknown, actual: unknown): boolean {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) =>
      partialMatch(value, (actual as Record<string, unknown>)[key]),
    );
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

/** Scores one deterministic scorer; `rubric` is not one (see judge.ts). */
export function scoreDeterministic(spec: Exclude<ScorerSpecValue, { type: 'rubric' }>, outcome: CaseOutcome): Score {
  const { text } = outcome;
  switch (spec.type) {
    case 'contains':
    case 'notContains': {
      const sensitive = spec.caseSensitive === true;
      const found = (sensitive ? text : text.toLowerCase()).includes(sensitive ? spec.value : spec.value.toLowerCase());
      const wanted = spec.type === 'contains';
      return found === wanted
        ? pass(spec.type, `The reply ${found ? 'contains' : 'does not contain'} ${quote(spec.value)}.`)
        : fail(spec.type, `The reply ${found ? 'contains' : 'does not contain'} ${quote(spec.value)}.`);
    }
    case 'regex': {
      const matched = matchesWithin(spec.pattern, spec.flags, text);
      if (matched === 'timeout')
        return fail('regex', 'The pattern took too long on this reply; it counts as no match.');
      return matched
        ? pass('regex', `The reply matches /${spec.pattern}/${spec.flags ?? ''}.`)
        : fail('regex', `The reply does not match /${spec.pattern}/${spec.flags ?? ''}.`);
    }
    case 'equals': {
      const trim = spec.trim !== false;
      const equal = (trim ? text.trim() : text) === (trim ? spec.value.trim() : spec.value);
      return equal
        ? pass('equals', 'The reply is the expected text.')
        : fail('equals', `The reply is ${quote(text)}, not ${quote(spec.value)}.`);
    }
    case 'jsonSchema': {
      const json = jsonOf(text);
      if (json === null) return fail('jsonSchema', 'The reply is not JSON.');
      const validate = schemaValidator(spec.schema);
      if (validate(json.value)) return pass('jsonSchema', 'The reply is JSON valid against the schema.');
      const first = validate.errors?.[0];
      return fail(
        'jsonSchema',
        `The reply's JSON is not valid against the schema: ${first ? `${first.instancePath || '/'} ${first.message ?? ''}`.trim() : 'invalid'}.`,
      );
    }
    case 'toolCalled': {
      const named = outcome.toolCalls.filter((call) => call.name === spec.name);
      if (named.length === 0) return fail('toolCalled', `The tool ${spec.name} was not called.`);
      if (spec.input === undefined) return pass('toolCalled', `The tool ${spec.name} was called.`);
      return named.some((call) => partialMatch(spec.input, call.input))
        ? pass('toolCalled', `The tool ${spec.name} was called with matching input.`)
        : fail('toolCalled', `The tool ${spec.name} was called, but never with matching input.`);
    }
    case 'noToolCalled': {
      const calls =
        spec.name === undefined ? outcome.toolCalls : outcome.toolCalls.filter((call) => call.name === spec.name);
      if (calls.length === 0)
        return pass('noToolCalled', spec.name ? `The tool ${spec.name} was not called.` : 'No tool was called.');
      return fail('noToolCalled', `Tools were called: ${[...new Set(calls.map((call) => call.name))].join(', ')}.`);
    }
    case 'finishReason':
      return outcome.finishReason === spec.value
        ? pass('finishReason', `The reply finished with ${spec.value}.`)
        : fail('finishReason', `The reply finished with ${outcome.finishReason ?? 'no reply'}, not ${spec.value}.`);
    case 'latencyMs':
      return outcome.latencyMs <= spec.max
        ? pass('latencyMs', `The replies took ${outcome.latencyMs} ms (at most ${spec.max}).`)
        : fail('latencyMs', `The replies took ${outcome.latencyMs} ms, more than ${spec.max}.`);
    case 'tokens':
      return outcome.totalTokens <= spec.max
        ? pass('tokens', `The replies used ${outcome.totalTokens} tokens (at most ${spec.max}).`)
        : fail('tokens', `The replies used ${outcome.totalTokens} tokens, more than ${spec.max}.`);
    case 'costUsd':
      return outcome.costUsd <= spec.max
        ? pass('costUsd', `The replies cost $${outcome.costUsd} (at most $${spec.max}).`)
        : fail('costUsd', `The replies cost $${outcome.costUsd}, more than $${spec.max}.`);
  }
}

/** Every scorer of a case that could not be answered scores 0, saying why. */
export function unansweredScores(specs: readonly ScorerSpecValue[], detail: string): Score[] {
  return specs.map((spec) => fail(spec.type, `No reply to score: ${detail}`));
}
