import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitHistory, type HistoryTurn } from '../../src/conversation/history-window.js';
import { searchTermsOf } from '../../src/conversation/knowledge-query.js';
import { assemblePrompt, promptMessageText, type Character, type PromptInput } from '../../src/conversation/prompt.js';
import { estimateMessageTokens } from '../../src/conversation/tokens.js';

const character: Character = {
  name: 'Ava',
  bio: ['Ava is a DeFi research assistant.'],
  personality: { traits: ['curious', 'precise'], style: ['short sentences'], tone: 'friendly' },
  goals: { objectives: ['explain risks'], motivations: ['protect users'] },
  expertise: ['defi', 'ethereum'],
  system: 'Never give financial advice.',
};

function input(overrides: Partial<PromptInput> = {}): PromptInput {
  return {
    character,
    knowledge: [],
    context: null,
    history: [],
    message: { text: 'hello', userId: 'u1' },
    shared: false,
    budgetTokens: 10_000,
    ...overrides,
  };
}

const user = (text: string, userId = 'u1'): HistoryTurn => ({ role: 'user', userId, text });
const agent = (text: string, userId = 'u1'): HistoryTurn => ({ role: 'agent', userId, text });

describe('prompt assembly', () => {
  it('puts every part of the character into the system prompt', () => {
    const { system } = assemblePrompt(input());
    for (const part of [
      'You are Ava.',
      'Ava is a DeFi research assistant.',
      'curious; precise',
      'short sentences',
      'friendly',
      'explain risks',
      'protect users',
      'defi; ethereum',
      'Never give financial advice.',
    ]) {
      assert.ok(system.includes(part), `system prompt lacks "${part}":\n${system}`);
    }
  });

  it('adds knowledge and context to the last message, before the user text, when there are some, and leaves them out otherwise', () => {
    const bare = assemblePrompt(input());
    assert.equal(promptMessageText(bare.messages.at(-1)!), 'hello', 'no notes: the message as the user wrote it');
    const full = assemblePrompt(
      input({ knowledge: [{ title: 'Fees', content: 'Fees rise with demand.' }], context: { page: 'pricing' } }),
    );
    assert.equal(full.system, bare.system, 'knowledge and context change per message: never in the system prompt');
    const last = promptMessageText(full.messages.at(-1)!);
    assert.match(
      last,
      /^<message-notes>\n[^]*- Fees: Fees rise with demand\.[^]*\{"page":"pricing"\}\n<\/message-notes>\n\nhello$/,
    );
  });

  it('ends with the message, after the history, oldest first', () => {
    const prompt = assemblePrompt(
      input({ history: [agent('a2'), user('q2'), agent('a1'), user('q1')], message: { text: 'q3', userId: 'u1' } }),
    );
    assert.deepEqual(prompt.messages, [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'a2' },
      { role: 'user', content: 'q3' },
    ]);
  });

  it('labels speakers in a room and says the conversation is shared', () => {
    const prompt = assemblePrompt(
      input({
        shared: true,
        history: [agent('hi bob', 'bob'), user('hi', 'bob')],
        message: { text: 'me too', userId: 'alice' },
      }),
    );
    assert.deepEqual(prompt.messages.map(promptMessageText), ['[bob] hi', 'hi bob', '[alice] me too']);
    assert.ok(prompt.system.includes('shared conversation'));
  });

  it('skips answers that were aborted before their first word', () => {
    const prompt = assemblePrompt(input({ history: [agent(''), user('q1')] }));
    assert.deepEqual(
      prompt.messages.map((message) => message.role),
      ['user', 'user'],
    );
  });

  it('keeps the newest history that fits the budget and drops the oldest', () => {
    const long = 'x'.repeat(400); // about 100 tokens
    const history = [agent(long), user(long), agent(long), user(long), agent(long), user(long)];
    const small = assemblePrompt(input({ history, budgetTokens: 0 }));
    assert.equal(small.history.length, 0);
    const roomy = assemblePrompt(input({ history }));
    assert.equal(roomy.history.length, 6);
    const prompt = assemblePrompt(
      input({
        history,
        budgetTokens: assemblePrompt(input()).estimatedInputTokens + 2 * 2 * estimateMessageTokens(long),
      }),
    );
    assert.equal(prompt.history.length, 4, 'two exchanges fit');
  });
});

describe('history window', () => {
  it('never keeps half an exchange', () => {
    const cost = estimateMessageTokens('q') + estimateMessageTokens('a');
    // Room for one exchange and a half: only the newest exchange is kept.
    assert.deepEqual(
      fitHistory([agent('a2'), user('q2'), agent('a1'), user('q1')], cost + estimateMessageTokens('a')),
      [user('q2'), agent('a2')],
    );
  });

  it('drops answers whose question was not read', () => {
    assert.deepEqual(fitHistory([agent('a2'), user('q2'), agent('a1')], 1_000), [user('q2'), agent('a2')]);
  });

  it('keeps a question whose answer is missing as an exchange of its own', () => {
    assert.deepEqual(fitHistory([user('q2'), agent('a1'), user('q1')], 1_000), [user('q1'), agent('a1'), user('q2')]);
  });

  it('stops at the first exchange that does not fit, so the window has no gaps', () => {
    const big = 'y'.repeat(4_000);
    const kept = fitHistory([agent('a3'), user('q3'), agent(big), user('q2'), agent('a1'), user('q1')], 100);
    assert.deepEqual(kept, [user('q3'), agent('a3')]);
  });
});

describe('knowledge search terms', () => {
  it('keeps words and numbers, lower-cased, without common words or repeats', () => {
    assert.deepEqual(searchTermsOf('What are the FEES on Ethereum, and the fees on L2? (2024)'), [
      'fees',
      'ethereum',
      'l2',
      '2024',
    ]);
  });

  it('cannot carry query syntax', () => {
    assert.deepEqual(searchTermsOf('gas" OR agent_id : "x* NEAR(a b)'), ['gas', 'agent', 'id', 'near']);
  });

  it('is bounded', () => {
    assert.equal(searchTermsOf(Array.from({ length: 100 }, (_, index) => `word${index}`).join(' ')).length, 32);
  });
});
