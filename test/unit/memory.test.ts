import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldExtractive } from '../../src/conversation/memory/extractive-summary.js';
import { extractFacts } from '../../src/conversation/memory/fact-patterns.js';
import { chooseFacts, chooseRecalled } from '../../src/conversation/memory/memory-prompt.js';
import { factsFromAnswer } from '../../src/services/memory/memory-model.js';

describe('builtin fact patterns', () => {
  it('finds what a user says about themselves, one fact per subject', () => {
    assert.deepEqual(extractFacts('Hi! My name is Zephyrine Okafor and I live in Lisbon.'), [
      { subject: 'name', statement: 'name is Zephyrine Okafor' },
      { subject: 'location', statement: 'lives in Lisbon' },
    ]);
    assert.deepEqual(extractFacts('Please call me Bob.'), [{ subject: 'name', statement: 'name is Bob' }]);
    assert.deepEqual(extractFacts('I prefer metric units over imperial ones'), [
      { subject: 'preference:units', statement: 'prefers metric units over imperial ones' },
    ]);
    assert.deepEqual(extractFacts('my name is bob, call me Rob'), [{ subject: 'name', statement: 'name is Rob' }]);
    assert.deepEqual(extractFacts('What is the name of the tallest mountain?'), []);
  });
});

describe('extractive summary', () => {
  it('keeps statements about the user longest when the budget is short', () => {
    const turns = [
      { role: 'user' as const, userId: 'kim', text: 'My name is Kim and I live in Oslo.' },
      ...Array.from({ length: 20 }, (_, index) => ({
        role: 'user' as const,
        userId: 'kim',
        text: `tell me about the weather on day ${index}`,
      })),
      { role: 'agent' as const, userId: 'kim', text: 'Answers are left out.' },
    ];
    const summary = foldExtractive('', turns, false, 40);
    assert.ok(summary.includes('My name is Kim and I live in Oslo.'), summary);
    assert.ok(!summary.includes('Answers are left out'));
    assert.ok(summary.length / 4 <= 40 + summary.split('\n').length);
  });
});

describe('memory in the prompt', () => {
  it('prefers facts sharing words with the message, within the budget', () => {
    const facts = Array.from({ length: 1000 }, (_, index) => ({
      userId: 'u',
      subject: `preference:item${index}`,
      statement: `prefers item ${index} with bread`,
      updatedAt: '2026-01-01T00:00:00.000Z',
    }));
    facts.push({ userId: 'u', subject: 'name', statement: 'name is Ana', updatedAt: '2025-01-01T00:00:00.000Z' });
    const chosen = chooseFacts(facts, 'What is my name?', 'u', 30);
    assert.equal(chosen[0]?.statement, 'name is Ana');
    assert.ok(chosen.length < 10);
  });

  it('recalls only turns outside the window, oldest first', () => {
    const recalled = [
      { id: 'msg_3', role: 'user' as const, userId: 'u', text: 'three' },
      { id: 'msg_1', role: 'user' as const, userId: 'u', text: 'one' },
      { id: 'msg_2', role: 'agent' as const, userId: 'u', text: 'two' },
    ];
    assert.deepEqual(
      chooseRecalled(recalled, new Set(['msg_3']), 100).map((turn) => turn.id),
      ['msg_1', 'msg_2'],
    );
  });

  it("reads a model's facts only from the JSON that was asked for", () => {
    assert.deepEqual(factsFromAnswer('Sure! {"facts":[{"subject":"Home Town","statement":"is from  Porto"}]}'), [
      { subject: 'home town', statement: 'is from Porto', message: 0 },
    ]);
    // A batch of three messages: each fact names its message (1-based), in the order they were said; one
    // naming none, or one not in the batch, is the last message's.
    const batch =
      '{"facts":[{"message":3,"subject":"location","statement":"lives in Faro"},' +
      '{"message":1,"subject":"location","statement":"lives in Porto"},' +
      '{"subject":"name","statement":"name is Ana"},{"message":9,"subject":"job","statement":"is a nurse"}]}';
    assert.deepEqual(factsFromAnswer(batch, 3), [
      { subject: 'location', statement: 'lives in Porto', message: 0 },
      { subject: 'location', statement: 'lives in Faro', message: 2 },
      { subject: 'name', statement: 'name is Ana', message: 2 },
      { subject: 'job', statement: 'is a nurse', message: 2 },
    ]);
    assert.deepEqual(factsFromAnswer('{"facts":[{"subject":1}]}'), []);
    assert.deepEqual(factsFromAnswer('no json here'), []);
  });
});
