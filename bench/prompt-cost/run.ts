/**
 * What a message costs in prompt: input tokens per model call along a long
 * conversation, how much of each prompt a provider could serve from its
 * prompt cache, and model calls per message (memory work included).
 *
 * One private conversation of `--turns` user messages (short, varied; the
 * user's name told in the first, where they live in the fifth) is sent
 * through the HTTP app (in-process, app.inject) at default memory settings to
 * a fake OpenAI-compatible provider that records every request, for a model
 * whose window is 128k tokens (`gpt-4o-mini`, see providers/model-limits.ts).
 * Each message's memory work is finished before the next is sent, so figures
 * do not depend on timing.
 *
 * Per reply call: its input tokens, as agentd estimates them (four
 * characters a token plus four per message, conversation/tokens.ts, applied
 * to the messages as the provider received them: with no tool calls that is
 * the prompt's estimatedInputTokens) and as the fake counts them (all the
 * characters of its messages / 4); and the cacheable-prefix share: the length of the
 * common prefix of the JSON of its messages array (system included) with the
 * previous reply call's, divided by its own length.
 *
 *   npm run bench:prompt-cost [-- --turns 200 --history default,2000,4000,6000]
 *
 * `--history`: `default` (the agent's defaults) or N (memory.budgets.historyTokens N).
 */
import { parseArgs } from 'node:util';
import { estimateMessageTokens } from '../../src/conversation/tokens.js';
import { startInProcessAgentd } from '../in-process-agentd.js';
import { startFakeOpenAiServer } from '../../test/helpers/fake-openai-server.js';
import { textOf, type RecordedRequest } from '../../test/helpers/fake-provider-server.js';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '200' },
    history: { type: 'string', default: 'default,2000,4000,6000' },
  },
});
const turnCount = Number(values.turns);

const places = ['the old town', 'the harbour', 'the castle', 'the market', 'the station', 'the beach', 'the museum'];
const asks = [
  'What is there to see near {place}?',
  'Is {place} busy on a Sunday morning?',
  'How long does it take to walk from the hotel to {place}?',
  'Any good place to eat close to {place}, nothing fancy?',
  'Would you go to {place} in the rain?',
  'What should I bring for an afternoon at {place}?',
  'Can I get to {place} by tram, and how often does it run?',
];
const replies = [
  'It is a short walk along the river, about twenty minutes, and the views are worth it on a clear day. Take the lower path on the way there and the stairs on the way back, when the light is softer.',
  'Mornings are quiet; after eleven the tour groups arrive, so go early if you want the place to yourself. The café at the corner opens at eight and has the best pastries nearby.',
  'Bring water, a light jacket and comfortable shoes: the streets are steep and the wind picks up later. A small bag is enough; most places take cards, a few only cash.',
  'There is a small family restaurant two streets behind it; the fish of the day is what people come back for. Book for dinner on weekends, lunch is usually fine without.',
  'The tram runs every twelve minutes until midnight, and a day ticket is cheaper than four single rides. Validate it when you board; inspectors are frequent on the coast line.',
];

/** The i-th user message: the name first, where they live fifth, a question otherwise. */
function message(index: number): string {
  if (index === 0) return 'Hi! My name is Zephyrine and I am in town for the whole summer.';
  if (index === 4) return 'By the way, I live in Porto, so I know the trains a little.';
  if (index === turnCount - 1) return 'Before I go: what is my name, and where do I live?';
  const ask = asks[index % asks.length] as string;
  return ask.replace('{place}', places[(index * 3) % places.length] as string) + ` (day ${1 + Math.floor(index / 7)})`;
}

const systemOf = (request: RecordedRequest) =>
  textOf(request.body.messages.find((entry) => entry.role === 'system') ?? { content: '' });
const lastUser = (request: RecordedRequest) =>
  textOf(request.body.messages.filter((entry) => entry.role === 'user').at(-1) ?? { content: '' });
const isTask = (request: RecordedRequest) => systemOf(request).startsWith('agentd-memory-task');
const promptText = (request: RecordedRequest) => request.body.messages.map((entry) => textOf(entry)).join('\n');

function commonPrefix(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  let index = 0;
  while (index < length && left.charCodeAt(index) === right.charCodeAt(index)) index += 1;
  return index;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

interface Measured {
  estimated: number[];
  counted: number[];
  prefixShare: number[];
  calls: number;
  memoryCalls: number;
  answers: boolean;
}

async function measure(history: string): Promise<Measured> {
  const fake = await startFakeOpenAiServer();
  let replyIndex = 0;
  fake.setDefault(() => ({ reply: replies[replyIndex++ % replies.length] as string }));
  fake.setMemoryBehaviour((request) => {
    if (systemOf(request).startsWith('agentd-memory-task: facts')) {
      const facts = [];
      for (const line of lastUser(request).split('\n')) {
        const number = Number(/^\[(\d+)\]/.exec(line)?.[1]);
        const name = /my name is (\w+)/i.exec(line);
        if (name) facts.push({ message: number, subject: 'name', statement: `name is ${name[1]}` });
        const place = /I live in (\w+)/i.exec(line);
        if (place) facts.push({ message: number, subject: 'location', statement: `lives in ${place[1]}` });
      }
      return { reply: JSON.stringify({ facts }) };
    }
    return { reply: 'Zephyrine, who lives in Porto, is spending the summer in town and asks about places to visit.' };
  });
  const { app, deps, headers, close } = await startInProcessAgentd({
    name: 'prompt-cost',
    providerBaseUrl: fake.baseUrl,
    defaultModel: 'openai-compatible/gpt-4o-mini',
  });
  const memory = history === 'default' ? {} : { budgets: { historyTokens: Number(history) } };
  const created = await app.inject({
    method: 'POST',
    url: '/v1/agents',
    headers,
    payload: {
      name: 'Guide',
      bio: ['Guide is a local travel assistant for visitors staying a while.'],
      personality: { traits: ['warm', 'practical'], style: ['short answers'], tone: 'friendly' },
      goals: { objectives: ['help visitors plan their days'], motivations: ['people enjoying the town'] },
      memory,
    },
  });
  if (created.statusCode !== 201) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
  const agent = created.json();
  for (let index = 0; index < turnCount; index += 1) {
    const response = await app.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      headers,
      payload: { text: message(index), userId: 'bench-user' },
    });
    if (response.statusCode !== 200) throw new Error(`reply answered ${response.statusCode}: ${response.body}`);
    await deps.services.memory.whenIdle();
  }
  const calls = fake.requests.filter((request) => !isTask(request));
  const serialized = calls.map((request) => JSON.stringify(request.body.messages));
  const prefixShare = serialized.map((current, index) =>
    index === 0 ? 0 : commonPrefix(current, serialized[index - 1] as string) / current.length,
  );
  const counted = calls.map((request) =>
    Math.ceil(request.body.messages.reduce((sum, entry) => sum + textOf(entry).length, 0) / 4),
  );
  const estimated = calls.map((request) =>
    request.body.messages.reduce(
      (sum, entry) =>
        sum + (entry.role === 'system' ? Math.ceil(textOf(entry).length / 4) : estimateMessageTokens(textOf(entry))),
      0,
    ),
  );
  const lastText = promptText(calls.at(-1) as RecordedRequest);
  const result: Measured = {
    estimated,
    counted,
    prefixShare,
    calls: calls.length,
    memoryCalls: fake.memoryRequests.length,
    answers: lastText.includes('Zephyrine') && lastText.includes('Porto'),
  };
  await close();
  await fake.close();
  return result;
}

console.log(`${turnCount} user messages, one user, model gpt-4o-mini (128k-token window), default memory settings`);
console.log(
  '| history budget | input tokens at 10 / 50 / 200 (agentd; fake) | max (agentd) | growth 50→200 | cacheable prefix, median 20–200 | calls / message | name and place in the last prompt |',
);
console.log('|---|---|---|---|---|---|---|');
for (const history of values.history.split(',')) {
  const result = await measure(history);
  const at = (turn: number, of = result.estimated) => of[Math.min(turn, of.length) - 1] as number;
  const growth = (at(turnCount) / at(Math.min(50, turnCount)) - 1) * 100;
  const both = (turn: number) => `${at(turn)}; ${at(turn, result.counted)}`;
  const shares = result.prefixShare.slice(19);
  console.log(
    `| ${history} | ${both(10)} / ${both(50)} / ${both(turnCount)} | ${Math.max(...result.estimated)} | ` +
      `${growth.toFixed(1)} % | ${median(shares).toFixed(3)} | ` +
      `${((result.calls + result.memoryCalls) / turnCount).toFixed(3)} (${result.memoryCalls} memory) | ` +
      `${result.answers ? 'yes' : 'no'} |`,
  );
}
