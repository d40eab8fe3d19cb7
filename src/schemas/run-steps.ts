import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, NullableTimestamp } from './common.js';
import { finishReasons, ToolCallView } from './messages.js';

/**
 * A run's steps (docs/runs.md, "A run's steps"): what the run did, in order,
 * read from its journal — each model step with its prompt's make-up, each tool
 * call, each approval and its decision, and where a paused reply went on.
 */

export const RunStepParams = Type.Object(
  {
    agentId: IdString('agent'),
    runId: IdString('run'),
    index: Type.Integer({ minimum: 1, maximum: 100_000, description: "The step's `index` in the run's steps." }),
  },
  { additionalProperties: false },
);

export const promptSectionNames = [
  'system',
  'summary',
  'facts',
  'tools',
  'history',
  'knowledge',
  'recalled',
  'context',
  'notes',
  'message',
  'tool-rounds',
] as const;

export const PromptSection = Type.Object(
  {
    name: Type.Unsafe<(typeof promptSectionNames)[number]>({ type: 'string', enum: [...promptSectionNames] }),
    label: Type.String({ description: 'The section as the dashboard names it.' }),
    tokens: Type.Integer({ description: 'Its size in tokens, estimated as agentd estimates prompts.' }),
    items: Type.Integer({ description: 'How many entries it holds (turns, facts, knowledge hits, tools …).' }),
  },
  {
    description:
      '`system`: the character, goals and instructions; `summary`, `facts`: long-term memory; `tools`: the tools ' +
      'offered (names, descriptions, input schemas); `history`: the recent turns; `knowledge`: the knowledge hits; ' +
      '`recalled`: turns recalled from memory; `context`: the request’s context; `notes`: other notes of this ' +
      'message (tools unavailable); `message`: what the user wrote; `tool-rounds`: the tool calls and results of ' +
      'earlier steps of this reply.',
  },
);

const Usage = Type.Object({
  inputTokens: Type.Integer(),
  outputTokens: Type.Integer(),
  totalTokens: Type.Integer(),
  cachedInputTokens: Type.Optional(Type.Integer()),
});

const RequestedCall = Type.Object({
  toolCallId: Type.String(),
  name: Type.String(),
  input: Type.Unknown({ description: 'The input the model gave (JSON, or its text when it was not JSON).' }),
});

export const ModelStep = Type.Object({
  step: Type.Integer({ description: "The model step's number within the reply, from 1." }),
  provider: Type.String(),
  name: Type.String(),
  finishReason: Type.Unsafe<string>({ type: 'string', enum: [...finishReasons] }),
  text: Type.String({ description: 'What the model said in this step.' }),
  usage: Usage,
  firstTokenMs: Type.Unsafe<number | null>({
    type: ['integer', 'null'],
    description: "Milliseconds from the call to the answer's first part; null for steps recorded before it was.",
  }),
  retries: Type.Integer({ description: 'Attempts that failed (and were retried) before the one that answered.' }),
  toolCalls: Type.Array(RequestedCall, { description: 'The tool calls the model asked for in this step.' }),
  sections: Type.Array(PromptSection, { description: "The prompt's make-up, in the order the model reads it." }),
  promptTokens: Type.Integer({ description: "The sections' tokens summed: the prompt's estimated size." }),
});

export const ApprovalStep = Type.Object({
  approvalId: Type.String(),
  toolCallId: Type.String(),
  toolName: Type.String(),
  input: Type.Unknown(),
  status: Type.Unsafe<string>({ type: 'string', enum: ['pending', 'approved', 'denied', 'expired'] }),
  decidedAt: NullableTimestamp(),
  reason: NullableInResponse('string'),
  resumedRunId: NullableInResponse('string', { description: 'The run (trigger `approval`) the reply went on in.' }),
});

export const ResumeStep = Type.Object({
  reason: Type.Unsafe<'approval'>({ type: 'string', enum: ['approval'] }),
  fromRunId: NullableInResponse('string', { description: 'The run that paused for the decisions.' }),
  calls: Type.Integer({ description: "The paused round's calls this run went on with." }),
});

export const RunStep = Type.Object(
  {
    index: Type.Integer({ description: "The step's place in the run, from 1 (GET …/steps/{index}/prompt)." }),
    kind: Type.Unsafe<'model' | 'tool' | 'approval' | 'resume'>({
      type: 'string',
      enum: ['model', 'tool', 'approval', 'resume'],
    }),
    at: NullableTimestamp('When the step began (for a tool call: when it ended less its duration).'),
    durationMs: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
    model: Type.Optional(ModelStep),
    tool: Type.Optional(Type.Ref(ToolCallView)),
    approval: Type.Optional(ApprovalStep),
    resume: Type.Optional(ResumeStep),
  },
  {
    $id: 'RunStep',
    title: 'RunStep',
    description: 'One step; exactly one of `model`, `tool`, `approval` or `resume` is present, as `kind` says.',
  },
);
export type RunStepView = Static<typeof RunStep>;

export const RunSteps = Type.Object({
  runId: IdString('run'),
  agentVersion: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
  contextTokens: Type.Unsafe<number | null>({
    type: ['integer', 'null'],
    description: "The model's context window in tokens, as agentd knows it (what the sections are measured against).",
  }),
  data: Type.Array(Type.Ref(RunStep)),
});
export type RunStepsView = Static<typeof RunSteps>;

const PromptMessageView = Type.Object({
  role: Type.Unsafe<'user' | 'assistant' | 'tool'>({ type: 'string', enum: ['user', 'assistant', 'tool'] }),
  text: Type.String({ description: 'The text as sent (a tool message: the result, as JSON or text).' }),
  images: Type.Optional(Type.Integer({ description: 'Images sent with the message (not repeated here).' })),
  toolCalls: Type.Optional(Type.Array(RequestedCall)),
  toolCallId: Type.Optional(Type.String()),
  toolName: Type.Optional(Type.String()),
  isError: Type.Optional(Type.Boolean()),
});

export const RunStepPrompt = Type.Object(
  {
    runId: IdString('run'),
    index: Type.Integer(),
    model: Type.Object({ provider: Type.String(), name: Type.String() }),
    contextTokens: Type.Unsafe<number | null>({ type: ['integer', 'null'] }),
    sections: Type.Array(PromptSection),
    system: Type.String({ description: 'The system prompt as sent.' }),
    messages: Type.Array(PromptMessageView, { description: 'The messages as sent, oldest first.' }),
    tools: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), inputSchema: Type.Unknown() }), {
      description: 'The tools offered with this step (none on a last step past the reply’s step limit).',
    }),
  },
  { $id: 'RunStepPrompt', title: 'RunStepPrompt' },
);
export type RunStepPromptView = Static<typeof RunStepPrompt>;
