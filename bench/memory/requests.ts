/**
 * Long-term memory's model cost: model requests and prompt characters per user
 * message, memory off against memory on, for each memory schedule given.
 *
 * One scripted private conversation (`--messages` user messages: statements of
 * facts, questions, and — unless `--no-small-talk` — greetings and thanks) is
 * sent through the HTTP app (in-process, app.inject) to a fake
 * OpenAI-compatible provider that answers replies with `--reply-words` words and
 * memory tasks as a model would (facts as JSON, a one-line summary). Each
 * message's memory work is finished before the next is sent, so counts do not
 * depend on timing; when the conversation ends its idle flush is run too (what
 * its idle time would bring), so batches still waiting are counted.
 *
 * Counted: every request the provider received (replies and memory tasks) and
 * the characters of every prompt (system, history and message, as sent).
 *
 *   npm run bench:memory-requests [-- --messages 40 --schedules off,1,default]
 *
 * `--schedules`: `off` (memory off), `default` (the agent's defaults), or a
 * number N (memory on, `schedule.everyUserTurns` N; 1 is after every exchange).
 * On a build from before schedules existed, `default` is the old behaviour.
 */
import { parseArgs } from 'node:util';
import { startInProcessAgentd } from '../in-process-agentd.js';
import { startFakeOpenAiServer } from '../../test/helpers/fake-openai-server.js';
import { textOf, type RecordedRequest } from '../../test/helpers/fake-provider-server.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '40' },
    schedules: { type: 'string', default: 'off,1,default' },
    'reply-words': { type: 'string', default: '40' },
    'no-small-talk': { type: 'boolean', default: false },
  },
});
const messageCount = Number(values.messages);
const replyWords = Number(values['reply-words']);
const smallTalk = !values['no-small-talk'];

const places = ['Lisbon', 'Porto', 'Faro', 'Braga', 'Coimbra', 'Evora'];
const topics = ['ferry', 'bakery', 'museum', 'tram', 'market', 'harbour', 'castle', 'beach', 'train', 'library'];
const smallTalkLines = ['Hi!', 'thanks', 'ok 👍', 'Thank you so much', 'cool', 'Good morning!'];

/**
 * The i-th user message: a fact every 10th (name, then where they live), small talk every 6th (when
 * on), a question about the town otherwise.
 */
function message(index: number): string {
  if (index === 0) return 'Hello, my name is Zephyrine and I am planning a week away.';
  if (index % 10 === 5) return `We have moved: I live in ${places[((index / 10) % places.length) | 0]} now.`;
  if (smallTalk && index % 6 === 3) return smallTalkLines[((index / 6) % smallTalkLines.length) | 0] as string;
  const topic = topics[index % topics.length] as string;
  return `What do you know about the ${topic} near the old town, and when is it best to go (question ${index})?`;
}

const systemOf = (request: RecordedRequest) =>
  textOf(request.body.messages.find((entry) => entry.role === 'system') ?? { content: '' });
const lastUser = (request: RecordedRequest) =>
  textOf(request.body.messages.filter((entry) => entry.role === 'user').at(-1) ?? { content: '' });
const promptText = (request: RecordedRequest) => request.body.messages.map((entry) => textOf(entry)).join('\n');
const promptCharacters = (request: RecordedRequest) =>
  request.body.messages.reduce((sum, entry) => sum + textOf(entry).length, 0);

interface Measured {
  replies: number;
  factRequests: number;
  summaryRequests: number;
  replyCharacters: number;
  memoryCharacters: number;
  facts: string[];
  lastPromptHasName: boolean;
}

async function measure(schedule: string): Promise<Measured> {
  const fake = await startFakeOpenAiServer();
  fake.setDefault({ reply: Array.from({ length: replyWords }, (_, index) => `word${index}`).join(' ') });
  fake.setMemoryBehaviour((request) => {
    if (systemOf(request).startsWith('agentd-memory-task: facts')) {
      const facts = [];
      for (const [index, line] of lastUser(request).split('\n').entries()) {
        // Numbered lines from a batching build, one message from an older one.
        const number = Number(/^\[(\d+)\]/.exec(line)?.[1] ?? index + 1);
        const name = /my name is (\w+)/i.exec(line);
        if (name) facts.push({ message: number, subject: 'name', statement: `name is ${name[1]}` });
        const place = /I live in (\w+)/i.exec(line);
        if (place) facts.push({ message: number, subject: 'location', statement: `lives in ${place[1]}` });
      }
      return { reply: JSON.stringify({ facts }) };
    }
    return { reply: 'Zephyrine is planning a week away and asks about the town.' };
  });
  const { app, deps, headers, accountId, close } = await startInProcessAgentd({
    name: 'memory-requests',
    providerBaseUrl: fake.baseUrl,
    defaultModel: 'openai-compatible/bench-model',
  });
  const memory =
    schedule === 'off'
      ? { summary: false, facts: false, recall: false }
      : schedule === 'default'
        ? {}
        : { schedule: { everyUserTurns: Number(schedule) } };
  const created = await app.inject({ method: 'POST', url: '/v1/agents', headers, payload: { name: 'Cost', memory } });
  if (created.statusCode !== 201) throw new Error(`create answered ${created.statusCode}: ${created.body}`);
  const agent = created.json();
  for (let index = 0; index < messageCount; index += 1) {
    const text = index === messageCount - 1 ? 'Do you remember my name?' : message(index);
    const response = await app.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      headers,
      payload: { text, userId: 'bench-user' },
    });
    if (response.statusCode !== 200) throw new Error(`reply answered ${response.statusCode}: ${response.body}`);
    await deps.services.memory.whenIdle();
  }
  // The conversation goes quiet: what its idle time would bring in.
  deps.services.memory.schedule({
    accountId,
    agentId: agent.id,
    conversation: 'user:bench-user',
    idle: true,
  });
  await deps.services.memory.whenIdle();
  const remembered = (
    await app.inject({ method: 'GET', url: `/v1/agents/${agent.id}/memory?userId=bench-user`, headers })
  ).json();
  const lastPrompt = fake.requests.at(-1) as RecordedRequest;
  const result: Measured = {
    replies: fake.requests.length,
    factRequests: fake.memoryRequests.filter((request) => systemOf(request).includes('memory-task: facts')).length,
    summaryRequests: fake.memoryRequests.filter((request) => systemOf(request).includes('memory-task: summary')).length,
    replyCharacters: fake.requests.reduce((sum, request) => sum + promptCharacters(request), 0),
    memoryCharacters: fake.memoryRequests.reduce((sum, request) => sum + promptCharacters(request), 0),
    facts: (remembered.facts ?? []).map((fact: { statement: string }) => fact.statement),
    lastPromptHasName: promptText(lastPrompt).includes('Zephyrine'),
  };
  await close();
  await fake.close();
  return result;
}

const schedules = values.schedules.split(',');
console.log(
  `${messageCount} user messages, ${smallTalk ? 'with' : 'without'} small talk, replies of ${replyWords} words`,
);
console.log(
  '| schedule | requests / message | fact + summary requests | prompt characters / message | vs off | facts kept | name in the last prompt |',
);
console.log('|---|---|---|---|---|---|---|');
let offCharacters: number | null = null;
for (const schedule of schedules) {
  const result = await measure(schedule);
  const characters = (result.replyCharacters + result.memoryCharacters) / messageCount;
  if (schedule === 'off') offCharacters = characters;
  const versus = offCharacters === null ? '' : `${((characters / offCharacters - 1) * 100).toFixed(1)} %`;
  const label = schedule === 'off' ? 'memory off' : schedule === 'default' ? 'default' : `everyUserTurns ${schedule}`;
  console.log(
    `| ${label} | ${((result.replies + result.factRequests + result.summaryRequests) / messageCount).toFixed(3)} | ` +
      `${result.factRequests} + ${result.summaryRequests} | ${characters.toFixed(0)} | ${versus} | ` +
      `${result.facts.join('; ') || '—'} | ${result.lastPromptHasName ? 'yes' : 'no'} |`,
  );
}
