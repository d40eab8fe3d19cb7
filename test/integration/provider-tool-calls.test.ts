import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { StoredToolCall } from '../../src/conversation/history-window.js';
import { assemblePrompt, toolStepMessages, type PromptMessage } from '../../src/conversation/prompt.js';
import type { ModelAdapter, ModelStreamPart, ToolCallPart, ToolSpec } from '../../src/providers/model-adapter.js';
import { ProviderError } from '../../src/providers/provider-error.js';
import { createModelAdapters } from '../../src/providers/registry.js';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { ChatMessage, FakeProviderServer, RecordedRequest } from '../helpers/fake-provider-server.js';

/**
 * Tool calls through the AI SDK model adapter, as the registry builds it for
 * the `openai-compatible` and `anthropic` providers, against fakes speaking
 * each wire format over loopback: the tools offered reach the provider with
 * their schemas, the provider's streamed calls come back whole, and the calls
 * and results of a step go back to it in its own shape.
 */

const calculator: ToolSpec = {
  name: 'calculator',
  description: 'Evaluates an arithmetic expression exactly.',
  inputSchema: {
    type: 'object',
    properties: { expression: { type: 'string', description: 'e.g. (2+3)*7' } },
    required: ['expression'],
    additionalProperties: false,
  },
};
const fetchPage: ToolSpec = {
  name: 'fetch_page',
  description: 'Fetches a web page and returns its text.',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string', format: 'uri' }, maxCharacters: { type: 'integer', minimum: 1 } },
    required: ['url'],
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

/** The prompt of a message, followed by earlier tool steps of the same reply. */
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

async function partsOf(model: ModelAdapter, prompt: ReturnType<typeof promptOf>, tools: ToolSpec[] = []) {
  const parts: ModelStreamPart[] = [];
  for await (const part of model.stream({
    modelName: 'test-model',
    settings: {},
    prompt,
    tools,
    watched: true,
    abortSignal: new AbortController().signal,
  })) {
    parts.push(part);
  }
  return parts;
}

const toolCallsIn = (parts: ModelStreamPart[]) =>
  parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
const finishReasonIn = (parts: ModelStreamPart[]) => {
  const last = parts.at(-1);
  return last?.type === 'finish' ? last.finishReason : undefined;
};
const textIn = (parts: ModelStreamPart[]) =>
  parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');

/** A finished call, as the tool loop stores it and puts it back into the prompt. */
function stored(call: ToolCallPart, result: { output?: unknown; error?: string }): StoredToolCall {
  return { toolCallId: call.toolCallId, name: call.toolName, input: JSON.parse(call.input), durationMs: 3, ...result };
}

interface WireFormat {
  name: string;
  start(): Promise<FakeProviderServer>;
  model(fake: FakeProviderServer): Promise<ModelAdapter>;
  /** A non-streamed answer through the SDK's own provider, which agentd's adapter never asks for. */
  generate(
    fake: FakeProviderServer,
  ): ReturnType<ReturnType<ReturnType<typeof createOpenAICompatible>['chatModel']>['doGenerate']>;
  /** Checks that the conversation of a request carries one step (calls, then their results) in the native shape. */
  assertNativeStep(request: RecordedRequest, step: StoredToolCall[]): void;
}

const noProviders = { openai: null, anthropic: null, openaiCompatible: null, ollama: null };
const generateOptions = {
  prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is (2+3)*7?' }] }],
  tools: [{ type: 'function' as const, name: 'calculator', inputSchema: calculator.inputSchema as never }],
};

const openAi: WireFormat = {
  name: 'OpenAI Chat Completions (openai-compatible)',
  start: () => startFakeOpenAiServer(),
  model: async (fake) =>
    (
      await createModelAdapters(
        { ...noProviders, openaiCompatible: { baseUrl: fake.baseUrl, apiKey: 'sk-test-compatible' } },
        { builtinWordDelayMs: 0 },
      )
    ).get('openai-compatible')!,
  generate: (fake) =>
    createOpenAICompatible({ name: 'openai-compatible', baseURL: fake.baseUrl })
      .chatModel('test-model')
      .doGenerate(generateOptions),
  assertNativeStep: (request, step) => {
    const messages = request.body.messages;
    const callIndex = messages.findIndex((message) => message.tool_calls !== undefined);
    assert.ok(callIndex > 0, 'an assistant message with tool_calls');
    assert.equal(messages[callIndex]!.role, 'assistant');
    assert.equal(messages[callIndex]!.content, null, 'a step without text has null content');
    assert.deepEqual(
      messages[callIndex]!.tool_calls,
      step.map((call) => ({
        id: call.toolCallId,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      })),
    );
    assert.deepEqual(
      messages
        .slice(callIndex + 1)
        .map(({ role, tool_call_id, content }: ChatMessage) => ({ role, tool_call_id, content })),
      step.map((call) => ({
        role: 'tool',
        tool_call_id: call.toolCallId,
        content: call.error ?? JSON.stringify(call.output),
      })),
      'one tool message per result, after the calls, the error as its text',
    );
  },
};

const anthropic: WireFormat = {
  name: 'Anthropic Messages',
  start: () => startFakeAnthropicServer(),
  model: async (fake) =>
    (
      await createModelAdapters(
        { ...noProviders, anthropic: { apiKey: 'sk-ant-test', baseUrl: fake.origin } },
        { builtinWordDelayMs: 0 },
      )
    ).get('anthropic')!,
  generate: (fake) =>
    createAnthropic({ apiKey: 'sk-ant-test', baseURL: fake.baseUrl })('test-model').doGenerate(generateOptions),
  assertNativeStep: (request, step) => {
    const messages = request.body.messages;
    assert.equal(messages.length, 3, 'the question, the calls, the results');
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: step.map((call) => ({ type: 'tool_use', id: call.toolCallId, name: call.name, input: call.input })),
    });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: step.map((call, index) => ({
        type: 'tool_result',
        tool_use_id: call.toolCallId,
        content: call.error ?? JSON.stringify(call.output),
        ...(call.error !== undefined ? { is_error: true } : {}),
        // The step is the prefix the next step repeats: a cache breakpoint on its last part.
        ...(index === step.length - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
      })),
    });
  },
};

for (const format of [openAi, anthropic]) {
  describe(`tool calls over ${format.name}`, () => {
    let fake: FakeProviderServer;
    let model: ModelAdapter;
    before(async () => {
      fake = await format.start();
      model = await format.model(fake);
    });
    after(() => fake?.close());
    beforeEach(() => fake.reset());

    it('offers the tools to the provider with their names, descriptions and input schemas', async () => {
      fake.enqueue({ reply: 'No tool needed.' });
      const parts = await partsOf(model, promptOf('hello'), [calculator, fetchPage]);
      assert.equal(textIn(parts), 'No tool needed.');
      assert.deepEqual(fake.requests[0]!.offeredTools, [
        { name: 'calculator', description: calculator.description, parameters: calculator.inputSchema },
        { name: 'fetch_page', description: fetchPage.description, parameters: fetchPage.inputSchema },
      ]);
    });

    it('offers no tools when the agent has none', async () => {
      await partsOf(model, promptOf('hello'));
      assert.deepEqual(fake.requests[0]!.offeredTools, []);
      assert.equal(fake.requests[0]!.body.tools, undefined);
    });

    it('turns a streamed tool call into one tool-call part with its whole input, then finishes with tool-calls', async () => {
      const input = { expression: '(2+3)*7', note: 'the input arrives in several pieces' };
      fake.enqueue({ toolCalls: [{ id: 'call_exact_01', name: 'calculator', input }] });
      const parts = await partsOf(model, promptOf('What is (2+3)*7?'), [calculator]);
      assert.deepEqual(
        parts.map((part) => part.type),
        ['tool-call', 'finish'],
      );
      assert.deepEqual(parts[0], {
        type: 'tool-call',
        toolCallId: 'call_exact_01',
        toolName: 'calculator',
        input: JSON.stringify(input),
      });
      assert.equal(finishReasonIn(parts), 'tool-calls');
    });

    it('sends the step back in the provider’s own shape and streams the text answer to it', async () => {
      // Chosen by what the request carries, as a model would: no result yet, call the tool; a result, answer.
      fake.setDefault((request) =>
        request.toolResults.length === 0
          ? { toolCalls: [{ name: 'calculator', input: { expression: '(2+3)*7' } }] }
          : { reply: `The answer is ${request.toolResults[0]!.content}.` },
      );
      const question = promptOf('What is (2+3)*7?');
      const [call] = toolCallsIn(await partsOf(model, question, [calculator]));
      assert.ok(call, 'the model called the calculator');
      const step = [stored(call, { output: 35 })];

      const parts = await partsOf(model, promptOf('What is (2+3)*7?', toolStepMessages(step)), [calculator]);
      assert.equal(textIn(parts), 'The answer is 35.');
      assert.deepEqual(parts.at(-1), {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 12, outputTokens: 4, totalTokens: 16 },
      });
      const request = fake.requests[1]!;
      assert.deepEqual(request.toolCalls, [
        { id: call.toolCallId, name: 'calculator', input: { expression: '(2+3)*7' } },
      ]);
      assert.deepEqual(
        request.toolResults.map(({ toolCallId, content }) => ({ toolCallId, content })),
        [{ toolCallId: call.toolCallId, content: '35' }],
      );
      format.assertNativeStep(request, step);
    });

    it('streams text then two tool calls of one answer, each whole and in order, and takes both results back', async () => {
      fake.enqueue(
        {
          reply: 'Let me look at both pages.',
          toolCalls: [
            { name: 'fetch_page', input: { url: 'https://example.com/a', maxCharacters: 2000 } },
            { name: 'fetch_page', input: { url: 'https://example.com/b' } },
          ],
        },
        { reply: 'Both pages agree.' },
      );
      const first = await partsOf(model, promptOf('Compare a and b'), [fetchPage]);
      assert.equal(textIn(first), 'Let me look at both pages.');
      const calls = toolCallsIn(first);
      assert.deepEqual(
        calls.map((call) => [call.toolName, JSON.parse(call.input)]),
        [
          ['fetch_page', { url: 'https://example.com/a', maxCharacters: 2000 }],
          ['fetch_page', { url: 'https://example.com/b' }],
        ],
      );
      assert.notEqual(calls[0]!.toolCallId, calls[1]!.toolCallId);
      assert.ok(
        first.findIndex((part) => part.type === 'tool-call') >
          first.findLastIndex((part) => part.type === 'text-delta'),
        'the text comes before the calls',
      );
      assert.equal(finishReasonIn(first), 'tool-calls');

      const step = [stored(calls[0]!, { output: 'Page a' }), stored(calls[1]!, { output: 'Page b' })];
      const second = await partsOf(model, promptOf('Compare a and b', toolStepMessages(step)), [fetchPage]);
      assert.equal(textIn(second), 'Both pages agree.');
      assert.deepEqual(
        fake.requests[1]!.toolResults.map(({ toolCallId, content }) => ({ toolCallId, content })),
        [
          { toolCallId: calls[0]!.toolCallId, content: 'Page a' },
          { toolCallId: calls[1]!.toolCallId, content: 'Page b' },
        ],
      );
    });

    it('tells the provider which result is an error, in the way its API can say it', async () => {
      const step: StoredToolCall[] = [
        { toolCallId: 'call_ok_1', name: 'calculator', input: { expression: '1+1' }, output: 2, durationMs: 1 },
        {
          toolCallId: 'call_failed_2',
          name: 'fetch_page',
          input: { url: 'https://example.com/missing' },
          error: 'The page could not be fetched: 404 Not Found',
          durationMs: 5,
        },
      ];
      fake.enqueue({ reply: 'The page is missing.' });
      const parts = await partsOf(model, promptOf('Fetch it', toolStepMessages(step)), [calculator, fetchPage]);
      assert.equal(textIn(parts), 'The page is missing.');
      const results = fake.requests[0]!.toolResults;
      assert.deepEqual(
        results.map(({ toolCallId, content }) => ({ toolCallId, content })),
        [
          { toolCallId: 'call_ok_1', content: '2' },
          { toolCallId: 'call_failed_2', content: 'The page could not be fetched: 404 Not Found' },
        ],
      );
      if (format === anthropic) {
        assert.deepEqual(
          results.map((result) => result.isError),
          [undefined, true],
          'Anthropic marks only the failed result with is_error',
        );
      }
      format.assertNativeStep(fake.requests[0]!, step);
    });

    it('yields no half-made tool call when the stream breaks in the middle of its input', async () => {
      fake.enqueue({
        toolCalls: [{ name: 'calculator', input: { expression: '1+2+3+4+5+6+7+8+9' } }],
        failAfterChunks: 3,
      });
      const parts: ModelStreamPart[] = [];
      await assert.rejects(async () => {
        for await (const part of model.stream({
          modelName: 'test-model',
          settings: {},
          prompt: promptOf('Add them up'),
          tools: [calculator],
          watched: true,
          abortSignal: new AbortController().signal,
        })) {
          parts.push(part);
        }
      }, ProviderError);
      assert.deepEqual(parts, []);
    });

    it('answers a request that did not ask for a stream with the tool calls in the whole answer', async () => {
      fake.enqueue({
        reply: 'Calculating.',
        toolCalls: [{ id: 'call_whole_1', name: 'calculator', input: { expression: '6*7' } }],
      });
      const result = await format.generate(fake);
      assert.equal(fake.requests[0]!.body.stream ?? false, false);
      assert.equal(result.finishReason.unified, 'tool-calls');
      assert.deepEqual(
        result.content.map((part) =>
          part.type === 'text'
            ? { type: 'text', text: part.text }
            : part.type === 'tool-call'
              ? { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }
              : { type: part.type },
        ),
        [
          { type: 'text', text: 'Calculating.' },
          { type: 'tool-call', toolCallId: 'call_whole_1', toolName: 'calculator', input: '{"expression":"6*7"}' },
        ],
      );
    });
  });
}
