import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdictOf } from '../../src/services/evals/judge.js';
import {
  partialMatch,
  regexProblem,
  schemaProblem,
  scoreDeterministic,
  type CaseOutcome,
} from '../../src/services/evals/scorers.js';
import { differingCases, totalsOf } from '../../src/services/evals/views.js';

const outcome = (fields: Partial<CaseOutcome> = {}): CaseOutcome => ({
  text: 'The answer is 42.',
  toolCalls: [],
  finishReason: 'stop',
  latencyMs: 100,
  totalTokens: 50,
  costUsd: 0.001,
  ...fields,
});

describe('eval scorers', () => {
  it('refuses regex patterns that could backtrack without bound, and accepts ordinary ones', () => {
    assert.equal(regexProblem('answer is \\d+', undefined), null);
    assert.equal(regexProblem('^(yes|no)[.!]?$', 'i'), null);
    assert.equal(regexProblem('(ab)?c', undefined), null);
    assert.match(regexProblem('(a+)+$', undefined) ?? '', /nested|quantif/);
    assert.match(regexProblem('(a*b?)*', undefined) ?? '', /quantif/);
    assert.match(regexProblem('((a+))+', undefined) ?? '', /quantif/);
    assert.match(regexProblem('(a)\\1', undefined) ?? '', /backreference/);
    assert.match(regexProblem('(', undefined) ?? '', /not a valid/);
    assert.match(regexProblem('a'.repeat(201), undefined) ?? '', /200/);
    // A quantifier inside a character class is a literal.
    assert.equal(regexProblem('([+*])+', undefined), null);
  });

  it('scores a regex on the reply, and a long reply within its time bound', () => {
    assert.equal(scoreDeterministic({ type: 'regex', pattern: 'is \\d+\\.$' }, outcome()).score, 1);
    assert.equal(scoreDeterministic({ type: 'regex', pattern: '^no' }, outcome()).score, 0);
    const long = outcome({ text: `${'a'.repeat(200_000)}b` });
    const started = performance.now();
    assert.equal(scoreDeterministic({ type: 'regex', pattern: 'a+c' }, long).passed, false);
    assert.ok(performance.now() - started < 2_000);
  });

  it('matches tool inputs partially, objects recursively', () => {
    assert.equal(partialMatch({ method: 'POST' }, { method: 'POST', url: 'x' }), true);
    assert.equal(partialMatch({ body: { a: 1 } }, { body: { a: 1, b: 2 } }), true);
    assert.equal(partialMatch({ body: { a: 1 } }, { body: { a: 2 } }), false);
    assert.equal(partialMatch({ list: [1, 2] }, { list: [1, 2, 3] }), false);
    const calls = outcome({ toolCalls: [{ name: 'fetch_url', input: { url: 'u', method: 'POST' } }] });
    assert.equal(
      scoreDeterministic({ type: 'toolCalled', name: 'fetch_url', input: { method: 'POST' } }, calls).passed,
      true,
    );
    assert.equal(
      scoreDeterministic({ type: 'toolCalled', name: 'fetch_url', input: { method: 'GET' } }, calls).passed,
      false,
    );
    assert.equal(scoreDeterministic({ type: 'noToolCalled' }, calls).passed, false);
    assert.equal(scoreDeterministic({ type: 'noToolCalled', name: 'clock' }, calls).passed, true);
  });

  it('reads JSON replies (fenced too) against a schema, and refuses schemas Ajv cannot read', () => {
    const schema = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
    assert.equal(scoreDeterministic({ type: 'jsonSchema', schema }, outcome({ text: '{"n": 1}' })).passed, true);
    assert.equal(
      scoreDeterministic({ type: 'jsonSchema', schema }, outcome({ text: 'Here:\n```json\n{"n": 2}\n```' })).passed,
      true,
    );
    const wrong = scoreDeterministic({ type: 'jsonSchema', schema }, outcome({ text: '{"n": "x"}' }));
    assert.equal(wrong.passed, false);
    assert.match(wrong.reason, /\/n/);
    assert.equal(scoreDeterministic({ type: 'jsonSchema', schema }, outcome()).reason, 'The reply is not JSON.');
    assert.equal(schemaProblem(schema), null);
    assert.match(schemaProblem({ type: 'nope' }) ?? '', /JSON Schema/);
  });

  it('scores the text, finish, latency, token and cost scorers with reasons', () => {
    assert.equal(scoreDeterministic({ type: 'contains', value: 'ANSWER' }, outcome()).passed, true);
    assert.equal(
      scoreDeterministic({ type: 'contains', value: 'ANSWER', caseSensitive: true }, outcome()).passed,
      false,
    );
    assert.equal(scoreDeterministic({ type: 'notContains', value: 'sorry' }, outcome()).passed, true);
    assert.equal(scoreDeterministic({ type: 'equals', value: ' The answer is 42. ' }, outcome()).passed, true);
    assert.equal(
      scoreDeterministic({ type: 'equals', value: ' The answer is 42. ', trim: false }, outcome()).passed,
      false,
    );
    assert.equal(scoreDeterministic({ type: 'finishReason', value: 'length' }, outcome()).passed, false);
    assert.equal(scoreDeterministic({ type: 'latencyMs', max: 100 }, outcome()).passed, true);
    assert.equal(
      scoreDeterministic({ type: 'tokens', max: 49 }, outcome()).reason,
      'The replies used 50 tokens, more than 49.',
    );
    assert.equal(scoreDeterministic({ type: 'costUsd', max: 0.0005 }, outcome()).passed, false);
  });

  it("reads the judge's verdict, clamped, or nothing when it is not the JSON asked for", () => {
    assert.deepEqual(verdictOf('{"score": 0.7, "reason": "ok"}'), { score: 0.7, reason: 'ok' });
    assert.deepEqual(verdictOf('Sure!\n```json\n{"score": 3, "reason": "great"}\n```'), { score: 1, reason: 'great' });
    assert.deepEqual(verdictOf('My verdict: {"score": -1}'), { score: 0, reason: '' });
    assert.equal(verdictOf('I think it is fine.'), null);
    assert.equal(verdictOf('{"score": "high"}'), null);
  });

  it('counts totals per version and scorer, and finds the cases whose outcome differs', () => {
    const row = (caseId: string, version: number, passed: boolean[], status = 'completed') => ({
      eval_id: 'evl_x',
      case_id: caseId,
      version,
      position: 0,
      status,
      passed: passed.every(Boolean) && status === 'completed' ? 1 : 0,
      scores: JSON.stringify(passed.map((ok) => ({ type: 'contains', score: ok ? 1 : 0, passed: ok }))),
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const rows = [
      row('a', 1, [true]),
      row('a', 2, [true]),
      row('b', 1, [false]),
      row('b', 2, [true]),
      row('c', 1, [true], 'failed'),
      row('c', 2, [true]),
      row('d', 1, [true]),
    ];
    assert.deepEqual([...differingCases([1, 2], rows)].sort(), ['b', 'c']);
    assert.equal(differingCases([1], rows).size, 0);
    const [first, second] = totalsOf([1, 2], rows);
    assert.deepEqual(
      { cases: first!.cases, passed: first!.passed, failed: first!.failed, errored: first!.errored },
      { cases: 4, passed: 2, failed: 1, errored: 1 },
    );
    assert.deepEqual(second!.scorers, [{ type: 'contains', count: 3, passed: 3, meanScore: 1 }]);
  });
});
