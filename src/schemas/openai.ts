import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.js';
import { messageLimits } from './messages.js';

/**
 * The OpenAI-compatible door: the subset of OpenAI's Chat Completions and
 * Models shapes that agentd answers, so that the `openai` client and tools
 * built on it talk to agents unchanged. Requests accept OpenAI's other common
 * fields (they are ignored), because clients send them by default.
 */

const TextPart = Type.Object(
  {
    type: Type.String({
      description:
        '`text` parts, and in the last user message `image_url` parts (at most 4: a `data:` URL or a public http(s) ' +
        'URL, sent to the agent as `attachments`); any other part is a 400.',
    }),
    text: Type.Optional(Type.String()),
    image_url: Type.Optional(Type.Object({ url: Type.String({ minLength: 1 }) }, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

/** A part of an answer's content: its text, then the images the reply produced. */
export const ChatContentPart = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({
    type: Type.Literal('image_url'),
    image_url: Type.Object({ url: Type.String({ description: 'The image at /v1/files/{fileId} (needs the key).' }) }),
  }),
]);
export type ChatContentPart = Static<typeof ChatContentPart>;

export const chatRoles = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

const ChatMessage = Type.Object(
  {
    role: StringEnum(chatRoles),
    content: Type.Optional(Type.Union([Type.String(), Type.Array(TextPart, { maxItems: 100 }), Type.Null()])),
  },
  { additionalProperties: true },
);
export type ChatMessageValue = Static<typeof ChatMessage>;

export const ChatCompletionBody = Type.Object(
  {
    model: Type.String({
      minLength: 1,
      maxLength: 300,
      description:
        'The agent: its id (`agt_…`), or `agent:<name>` when exactly one agent of the account has that name.',
    }),
    messages: Type.Array(ChatMessage, {
      minItems: 1,
      maxItems: 1000,
      description:
        'The last message must be a `user` message: it is what the agent is told. `system` and `developer` ' +
        'messages are given to the model as context with this message only. Earlier `user`, `assistant` and ' +
        '`tool` messages are not used: the agent keeps its own memory of the conversation with `user`.',
    }),
    stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    stream_options: Type.Optional(
      Type.Union([
        Type.Object({ include_usage: Type.Optional(Type.Boolean()) }, { additionalProperties: true }),
        Type.Null(),
      ]),
    ),
    user: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: messageLimits.participantId,
        description: "Becomes the message's `userId`: the agent remembers its private conversation with this user.",
      }),
    ),
    temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
    max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
    max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
  },
  {
    additionalProperties: true,
    title: 'ChatCompletionRequest',
    description:
      'Honoured: `model`, `messages` (see there), `stream`, `stream_options.include_usage`, `user`, `temperature`, ' +
      '`max_tokens` / `max_completion_tokens` (these two override the agent’s own settings for this reply). Accepted ' +
      'and ignored: every other field (`n`, `top_p`, `stop`, `tools`, `tool_choice`, `response_format`, `seed`, …); ' +
      'the agent’s own plugins are its tools, and they run inside agentd.',
  },
);
export type ChatCompletionInput = Static<typeof ChatCompletionBody>;

const Usage = Type.Object({
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
});

export const openAiFinishReasons = ['stop', 'length', 'content_filter'] as const;
export type OpenAiFinishReason = (typeof openAiFinishReasons)[number];

export const ChatCompletion = Type.Object(
  {
    id: Type.String({ description: "The id of the agent's reply (`msg_…`), as in its conversation history." }),
    object: Type.Literal('chat.completion'),
    created: Type.Integer({ description: 'Unix time in seconds.' }),
    model: Type.String({ description: 'The agent id.' }),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        message: Type.Object({
          role: Type.Literal('assistant'),
          content: Type.Union([Type.String(), Type.Array(ChatContentPart)], {
            description:
              'The reply text; when the reply produced images (a tool such as generate_image made them), content ' +
              'parts instead: the text, then one `image_url` part per image.',
          }),
          refusal: Type.Null(),
        }),
        finish_reason: StringEnum(openAiFinishReasons),
        logprobs: Type.Null(),
      }),
    ),
    usage: Usage,
  },
  { title: 'ChatCompletion' },
);
export type ChatCompletionView = Static<typeof ChatCompletion>;

export const ModelView = Type.Object(
  {
    id: Type.String({ description: 'The agent id.' }),
    object: Type.Literal('model'),
    created: Type.Integer({ description: 'When the agent was created, Unix time in seconds.' }),
    owned_by: Type.Literal('agentd'),
  },
  { title: 'Model' },
);
export type ModelViewValue = Static<typeof ModelView>;

export const ModelList = Type.Object({ object: Type.Literal('list'), data: Type.Array(ModelView) });
export type ModelListView = Static<typeof ModelList>;

export const ModelParams = Type.Object({
  model: Type.String({ minLength: 1, maxLength: 300, description: 'An agent id, or `agent:<name>`.' }),
});

/** OpenAI's error body, which this door answers instead of problem+json. */
export const OpenAiErrorSchema = Type.Object(
  {
    error: Type.Object({
      message: Type.String(),
      type: Type.String({
        description: 'invalid_request_error, authentication_error, permission_error, not_found_error, …',
      }),
      param: Type.Union([Type.String(), Type.Null()], { description: 'The offending request field, if one.' }),
      code: Type.String({ description: "agentd's error code (see /docs/errors)." }),
    }),
  },
  { title: 'OpenAiError' },
);
