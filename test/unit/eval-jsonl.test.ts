import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  caseProblems,
  casesToJsonl,
  datasetFileName,
  parseCases,
  problemText,
} from '../../web/src/views/evals/jsonl.js';

/** The dashboard's dataset editor: cases as JSONL, and every problem with them said by line. */
describe("the dataset editor's JSONL", () => {
  const refund = { id: 'refund', messages: ['I want my money back'], expect: [{ type: 'contains', value: 'refund' }] };
  const hello = { id: 'hello', messages: ['Hi'], expect: [] };

  it('reads one case per line, skipping blank lines, and writes them back the same way', () => {
    const text = `${JSON.stringify(refund)}\r\n\n  \n${JSON.stringify(hello)}`;
    const parsed = parseCases(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.cases, [refund, hello]);
    assert.deepEqual(parsed.lines, [1, 4]);
    assert.equal(casesToJsonl(parsed.cases), `${JSON.stringify(refund)}\n${JSON.stringify(hello)}\n`);
    assert.deepEqual(parseCases(''), { ok: true, cases: [], lines: [] });
  });

  it('names each line that is not a case, and scorers the API would only call invalid', () => {
    const text = [
      JSON.stringify(hello),
      '{"id": "cut",',
      '[1, 2]',
      JSON.stringify({ id: 'odd', messages: ['x'], expect: [{ type: 'bogus' }, { type: 'regex' }, 'contains'] }),
    ].join('\n');
    const parsed = parseCases(text);
    assert.ok(!parsed.ok);
    const lines = parsed.problems.map(problemText);
    assert.match(lines[0] ?? '', /^Line 2: not valid JSON \(/);
    assert.match(lines[1] ?? '', /^Line 3: is not a case/);
    assert.match(lines[2] ?? '', /^Line 4: scorer 1 has the type "bogus"; a scorer's type is one of contains, /);
    assert.equal(lines[3], 'Line 4: scorer 2 (regex) needs "pattern"');
    assert.equal(lines[4], 'Line 4: scorer 3 is not an object');
    assert.equal(lines.length, 5);
  });

  it("puts the server's pointers at the lines their cases came from, in words", () => {
    const cases = [hello, { ...refund, expect: [{ type: 'regex', pattern: '(a+)+$' }] }] as any[];
    const problems = caseProblems(
      [
        { path: '/body/cases/1/expect/0/pattern', message: 'may not quantify a group that holds a quantifier' },
        { path: '/body/cases/1/id', message: 'repeats the case id refund' },
        { path: '/body/cases/0/messages/2', message: 'must be at most 32000 characters' },
        { path: '/body/cases/1/allowSideEffects/0', message: 'is not in the accepted form' },
        { path: '/body/cases/0', message: 'is invalid' },
        { path: '/body/cases', message: 'must have at most 1000 items' },
      ],
      cases,
      [1, 3],
    ).map(problemText);
    assert.deepEqual(problems, [
      'Line 3 (case "refund"), scorer 1 (regex), pattern: may not quantify a group that holds a quantifier',
      'Line 3 (case "refund"), id: repeats the case id refund',
      'Line 1 (case "hello"), message 3: must be at most 32000 characters',
      'Line 3 (case "refund"), allowSideEffects, item 1: is not in the accepted form',
      'Line 1 (case "hello"): is invalid',
      'Cases: must have at most 1000 items',
    ]);
  });

  it('names the exported file after the dataset, without what a file system refuses', () => {
    assert.equal(datasetFileName('Support regressions'), 'Support regressions.jsonl');
    assert.equal(datasetFileName('a/b: "c"?'), 'a-b- -c-.jsonl');
    assert.equal(datasetFileName('..'), 'dataset.jsonl');
  });
});
