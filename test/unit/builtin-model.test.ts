import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assemblePrompt } from '../../src/conversation/prompt.js';
import { BuiltinModel, composeBuiltinReply } from '../../src/providers/builtin-model.js';
import type { ModelStreamPart } from '../../src/providers/model-adapter.js';

const prompt = assemblePrompt({
  character: {
    name: 'Ava',
    bio: ['Ava is a DeFi research assistant.'],
    personality: { traits: [], style: [], tone: 'friendly' },
    goals: { objectives: ['explain risks'], motivations: [] },
    expertise: ['defi'],
    system: null,
  },
  knowledge: [{ title: 'Gas', content: 'Gas is paid in ETH.' }],
  context: null,
  history: [
    { role: 'agent', userId: 'u1', text: 'Hi.' },
    { role: 'user', userId: 'u1', text: 'I am Bob.' },
  ],
  message: { text: 'What pays for gas?', userId: 'u1' },
  shared: false,
  budgetTokens: 8_000,
});

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const all: ModelStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
}

describe('builtin model', () => {
  it('answers in character from the profile, the knowledge and the history, and says what it is', () => {
    const reply = composeBuiltinReply(prompt);
    for (const part of [
      "I'm Ava",
      'DeFi research assistant',
      'friendly',
      'What pays for gas?',
      'Gas: Gas is paid in ETH.',
      'I am Bob.',
      'explain risks',
      'not a language model',
    ]) {
      assert.ok(reply.includes(part), `reply lacks "${part}": ${reply}`);
    }
    assert.equal(composeBuiltinReply(prompt), reply, 'deterministic');
  });

  it('streams word by word, the words joining to the reply, then finishes with usage', async () => {
    const parts = await collect(
      new BuiltinModel({ wordDelayMs: 0 }).stream({
        modelName: 'echo',
        settings: {},
        prompt,
        watched: true,
        abortSignal: new AbortController().signal,
      }),
    );
    const deltas = parts.filter((part) => part.type === 'text-delta');
    assert.ok(deltas.length > 10);
    assert.ok(deltas.every((part) => part.type === 'text-delta' && part.text.trim().split(' ').length === 1));
    assert.equal(
      deltas.map((part) => (part.type === 'text-delta' ? part.text : '')).join(''),
      composeBuiltinReply(prompt),
    );
    const finish = parts.at(-1);
    assert.equal(finish?.type, 'finish');
    assert.ok(finish?.type === 'finish' && finish.finishReason === 'stop' && finish.usage.outputTokens > 0);
  });

  it('stops at maxOutputTokens with finishReason length', async () => {
    const parts = await collect(
      new BuiltinModel({ wordDelayMs: 0 }).stream({
        modelName: 'echo',
        settings: { maxOutputTokens: 5 },
        prompt,
        watched: true,
        abortSignal: new AbortController().signal,
      }),
    );
    const finish = parts.at(-1);
    assert.ok(finish?.type === 'finish' && finish.finishReason === 'length' && finish.usage.outputTokens <= 5);
  });
});
