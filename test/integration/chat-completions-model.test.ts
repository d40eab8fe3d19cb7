import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { StoredToolCall } from '../../src/conversation/history-window.js';
import { assemblePrompt, toolStepMessages, type PromptMessage } from '../../src/conversation/prompt.js';
import { AiSdkModel } from '../../src/providers/ai-sdk-model.js';
import { ChatCompletionsModel } from '../../src/providers/chat-completions-model.js';
import { httpFetch } from '../../src/providers/http-fetch.js';
import type { ModelAdapter, ModelCall, ModelStreamPart, ToolSpec } from '../../src/providers/model-adapter.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import { canReceive } from '../../src/receiving-iterator.js';
import { createModelAdapters } from '../../src/providers/registry.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeBehaviour, FakeProviderServer } from '../helpers/fake-provider-server.js';

/**
 * The `openai-compatible` and `ollama` providers read streamed answers with
 * agentd's own reader (src/providers/chat-completions-model.ts) rather than
 * the AI SDK model's `doStream`. Against the same fake provider, both must
 * send the same request and give the same parts and the same failures; and
 * the reader must hold far less memory per open call, which is why it exists.
 */

const calculator: ToolSpec = {
  name: 'calculator',
  description: 'Evaluates an arithmetic expression exactly.',
  inputSchema: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
    additionalProperties: false,
  },
};

const character = {
  name: 'Ava',
  bio: [],
  personality: { traits: [], style: [], tone: null },
  goals: { objectives: [], motivations: [] },
  expertise: [],
  system: null,
};

function promptOf(text: string, steps: PromptMessage[] = []) {
  const prompt = assemblePrompt({
    character,
    knowledge: [],
    context: null,
    history: [],
    message: { text, userId: null },
    shared: false,
    budgetTokens: 10_000,
  });
  return { ...prompt, messages: [...prompt.messages, ...steps] };
}

/** The SDK model as the registry built it before: `createOpenAICompatible(...).chatModel(name).doStream`. */
function sdkModel(baseURL: string, apiKey: string): ModelAdapter {
  return new AiSdkModel('openai-compatible', (name, key) =>
    createOpenAICompatible({
      name: 'openai-compatible',
      fetch: httpFetch,
      baseURL,
      includeUsage: true,
      apiKey: key ?? apiKey,
    }).chatModel(name),
  );
}

/** A full garbage collection, without starting the test process with --expose-gc. */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

const noProviders = { openai: null, anthropic: null, openaiCompatible: null, ollama: null };

type Outcome =
  | { parts: ModelStreamPart[] }
  | {
      failure: { kind: string; message: string; statusCode?: number; isRetryable: boolean; retryAfterSeconds?: number };
    };

function callOf(call: Partial<ModelCall>): ModelCall {
  return {
    modelName: 'test-model',
    settings: {},
    prompt: promptOf('What is (2+3)*7?'),
    watched: true,
    abortSignal: new AbortController().signal,
    ...call,
  };
}

function failureOf(error: unknown): Outcome {
  assert.ok(error instanceof ProviderError, `a ProviderError, not ${String(error)}`);
  const { kind, message, statusCode, isRetryable, retryAfterSeconds } = error;
  return {
    failure: {
      kind,
      message,
      isRetryable,
      ...(statusCode !== undefined ? { statusCode } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    },
  };
}

async function outcomeOf(model: ModelAdapter, call: Partial<ModelCall> = {}): Promise<Outcome> {
  const parts: ModelStreamPart[] = [];
  try {
    for await (const part of model.stream(callOf(call))) parts.push(part);
    return { parts };
  } catch (error) {
    return failureOf(error);
  }
}

/**
 * The same call read with `receive` after its first part, as the SSE writer
 * reads a streamed reply (src/receiving-iterator.ts): each result is handed
 * over exactly once, and only after `receive` returned.
 */
async function receivedOutcomeOf(model: ModelAdapter, call: Partial<ModelCall> = {}): Promise<Outcome> {
  const iterator = model.stream(callOf(call))[Symbol.asyncIterator]();
  assert.ok(canReceive(iterator), 'the reader can receive');
  const parts: ModelStreamPart[] = [];
  try {
    let result = await iterator.next();
    while (result.done !== true) {
      parts.push(result.value);
      const handed: Array<{ result: IteratorResult<ModelStreamPart> } | { error: unknown }> = [];
      let returned = false;
      result = await new Promise<IteratorResult<ModelStreamPart>>((resolve, reject) => {
        iterator.receive({
          received: (received) => {
            assert.ok(returned, 'handed over before receive returned');
            handed.push({ result: received });
            resolve(received);
          },
          failed: (error) => {
            assert.ok(returned, 'failed before receive returned');
            handed.push({ error });
            reject(error);
          },
        });
        returned = true;
      });
      // Anything handed over twice would be here by the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(handed.length, 1, 'one result per receive');
    }
    return { parts };
  } catch (error) {
    return failureOf(error);
  }
}

describe('the Chat Completions reader against the AI SDK model', () => {
  let fake: FakeProviderServer;
  let reader: ModelAdapter;
  let sdk: ModelAdapter;
  before(async () => {
    fake = await startFakeOpenAiServer();
    reader = (
      await createModelAdapters(
        { ...noProviders, openaiCompatible: { baseUrl: fake.baseUrl, apiKey: 'sk-test-compatible' } },
        { builtinWordDelayMs: 0 },
      )
    ).get('openai-compatible')!;
    sdk = sdkModel(fake.baseUrl, 'sk-test-compatible');
  });
  after(() => fake?.close());
  beforeEach(() => fake.reset());

  /**
   * One call through each with the same behaviour; returns both outcomes and both recorded requests. The
   * reader's outcome is also the same when its fetch is another one (the global fetch), whose body it reads
   * through the web stream instead of claiming it.
   */
  async function both(behaviour: FakeBehaviour, call: Partial<ModelCall> = {}) {
    fake.enqueue(behaviour, behaviour, behaviour);
    const ours = await outcomeOf(reader, call);
    const theirs = await outcomeOf(sdk, call);
    const throughWebStream = await outcomeOf(
      new ChatCompletionsModel({
        name: 'openai-compatible',
        fetch: globalThis.fetch,
        baseURL: fake.baseUrl,
        apiKey: 'sk-test-compatible',
      }),
      call,
    );
    assert.deepEqual(throughWebStream, ours, 'the same outcome with the global fetch');
    fake.enqueue(behaviour);
    assert.deepEqual(await receivedOutcomeOf(reader, call), ours, 'the same outcome read with receive');
    const [ourRequest, theirRequest] = fake.requests;
    return { ours, theirs, ourRequest: ourRequest!, theirRequest: theirRequest! };
  }

  it('sends the same request: body, key and settings', async () => {
    const { ours, theirs, ourRequest, theirRequest } = await both(
      { reply: 'Thirty-five.' },
      { settings: { temperature: 0.2, maxOutputTokens: 300, topP: 0.9 }, apiKey: 'sk-agent-own' },
    );
    assert.deepEqual(ours, theirs);
    assert.deepEqual(ourRequest.body, theirRequest.body);
    assert.equal(ourRequest.body.max_tokens, 300);
    assert.equal(ourRequest.authorization, 'Bearer sk-agent-own');
    assert.equal(theirRequest.authorization, 'Bearer sk-agent-own');
    assert.equal(ourRequest.headers['content-type'], theirRequest.headers['content-type']);
    assert.match(String(ourRequest.headers['user-agent']), /^ai-sdk\/openai-compatible\/\S+ ai-sdk\/provider-utils\//);
    // The provider's own part as the SDK model sends it (the transport's part is of the provider-utils each has).
    const providerPart = (request: typeof ourRequest) => String(request.headers['user-agent']).split(' ')[0];
    assert.equal(providerPart(ourRequest), providerPart(theirRequest));
  });

  it('sends the same tools, tool steps (a denied call among them) and images', async () => {
    const step: StoredToolCall[] = [
      { toolCallId: 'call_1', name: 'calculator', input: { expression: '2+3' }, output: 5, durationMs: 1 },
      {
        toolCallId: 'call_2',
        name: 'calculator',
        input: { expression: '1/0' },
        error: 'division by zero',
        durationMs: 1,
      },
      {
        toolCallId: 'call_3',
        name: 'calculator',
        input: { expression: '7' },
        durationMs: 0,
        output: 'The person denied it.',
        approval: { approvalId: 'apr_1', status: 'denied', reason: 'no' },
      },
    ];
    const prompt = promptOf('What is (2+3)*7?', toolStepMessages(step, 'Working on it.'));
    const image = { mediaType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]), width: 1, height: 1 };
    prompt.messages.unshift({ role: 'user', content: 'Look at this.', images: [image] });
    const { ours, theirs, ourRequest, theirRequest } = await both(
      { reply: 'It is 35.' },
      { prompt, tools: [calculator] },
    );
    assert.deepEqual(ours, theirs);
    assert.deepEqual(ourRequest.body, theirRequest.body);
    assert.equal(ourRequest.offeredTools.length, 1);
    assert.equal(ourRequest.toolResults.length, 3);
  });

  it('gives the same parts for text, then tool calls streamed in pieces, then the finish with usage', async () => {
    const { ours, theirs } = await both(
      {
        reply: 'Let me compute both.',
        toolCalls: [
          { id: 'call_a', name: 'calculator', input: { expression: '(2+3)*7' } },
          { id: 'call_b', name: 'calculator', inputText: '{"expression": "9-2"}' },
        ],
        usage: { inputTokens: 40, outputTokens: 9 },
      },
      { tools: [calculator] },
    );
    assert.deepEqual(ours, theirs);
    assert.ok('parts' in ours);
    assert.deepEqual(
      ours.parts.map((part) => part.type),
      ['text-delta', 'text-delta', 'text-delta', 'text-delta', 'tool-call', 'tool-call', 'finish'],
    );
    assert.deepEqual(ours.parts.at(-1), {
      type: 'finish',
      finishReason: 'tool-calls',
      usage: { inputTokens: 40, outputTokens: 9, totalTokens: 49 },
    });
  });

  for (const [label, behaviour] of [
    ['a wrong key (401)', { status: 401, errorMessage: 'Incorrect API key' }],
    ['an unknown model (404)', { status: 404, errorMessage: 'The model does not exist' }],
    ['a rejected request (400)', { status: 400, errorMessage: 'Prompt too long' }],
    [
      'a rate limit with Retry-After (429)',
      { status: 429, errorMessage: 'Slow down', errorHeaders: { 'retry-after': '7' } },
    ],
    ['a server error (500)', { status: 500, errorMessage: 'Internal error' }],
    ['an HTML page with 200', { rawAnswer: { contentType: 'text/html', body: '<html>Bad gateway</html>' } }],
    ['words that come apart', { reply: 'one two three four', tokenDelayMs: 5 }],
    ['a connection broken mid-answer', { reply: 'one two three four', failAfterChunks: 2 }],
    ['a frame that is not JSON', { reply: 'one two three four', garbageAtChunk: 1 }],
    [
      'an error sent as a chunk',
      {
        rawAnswer: {
          contentType: 'text/event-stream',
          body: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"Overloaded"}}\n\n',
        },
      },
    ],
    [
      'an answer that ends without a finish reason',
      {
        rawAnswer: {
          contentType: 'text/event-stream',
          body: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n',
        },
      },
    ],
    [
      'a last event without its blank line',
      {
        rawAnswer: {
          contentType: 'text/event-stream',
          body: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
        },
      },
    ],
  ] satisfies Array<[string, FakeBehaviour]>) {
    it(`fails (or answers) the same way on ${label}`, async () => {
      const { ours, theirs } = await both(behaviour);
      assert.deepEqual(ours, theirs);
    });
  }

  it('ends the call as aborted when its signal aborts while the answer is stalled', async () => {
    for (const model of [reader, sdk]) {
      fake.enqueue({ reply: 'one two three', stallAfterChunks: 1 });
      const controller = new AbortController();
      const parts: ModelStreamPart[] = [];
      await assert.rejects(
        (async () => {
          for await (const part of model.stream({
            modelName: 'test-model',
            settings: {},
            prompt: promptOf('hello'),
            watched: true,
            abortSignal: controller.signal,
          })) {
            parts.push(part);
            controller.abort();
          }
        })(),
        (error: unknown) => error instanceof ProviderError && error.kind === 'aborted',
      );
      assert.deepEqual(parts, [{ type: 'text-delta', text: 'one ' }]);
    }
  });

  it('holds less than half the heap of the SDK model per open call', async () => {
    fake.setDefault({ reply: 'one two three', tokenDelayMs: 60_000 });
    const calls = 200;
    const heapPerCall = async (model: ModelAdapter) => {
      // Two collections each time: what the first frees can let a second free more.
      collect();
      collect();
      const before = v8.getHeapStatistics().used_heap_size;
      const controllers: AbortController[] = [];
      const open = await Promise.all(
        Array.from({ length: calls }, async () => {
          const controller = new AbortController();
          controllers.push(controller);
          const iterator = model
            .stream({
              modelName: 'test-model',
              settings: {},
              prompt: promptOf('Count slowly.'),
              watched: true,
              abortSignal: controller.signal,
            })
            [Symbol.asyncIterator]();
          assert.deepEqual((await iterator.next()).value, { type: 'text-delta', text: 'one ' });
          // Waiting for the next word, as a reply does.
          const waiting = iterator.next().catch(() => undefined);
          return { iterator, waiting };
        }),
      );
      collect();
      collect();
      const perCall = (v8.getHeapStatistics().used_heap_size - before) / calls;
      for (const controller of controllers) controller.abort();
      await Promise.all(open.map(({ waiting }) => waiting));
      return perCall;
    };
    const sdkBytes = await heapPerCall(sdk);
    const ourBytes = await heapPerCall(reader);
    assert.ok(
      ourBytes < sdkBytes / 2,
      `${Math.round(ourBytes / 1024)} KiB per open call, against ${Math.round(sdkBytes / 1024)} KiB through the SDK`,
    );
  });
});
