import type { FinishReason } from '../../providers/model-adapter.js';
import type { MessageReplyView, MessageStartedView } from '../../schemas/messages.js';
import type { ChatCompletionView, ChatContentPart, OpenAiFinishReason } from '../../schemas/openai.js';

/**
 * agentd's reply in OpenAI's shapes. Tool calls are not passed on: the agent's
 * tools ran inside agentd, and a client shown them would try to run them itself.
 * Images the reply produced are: as `image_url` content parts after the text
 * (a reply without images keeps OpenAI's plain string content).
 */

/** The reply's images as OpenAI content parts, their URLs absolute on `origin` (the server as the client reached it). */
function imageParts(reply: MessageReplyView, origin: string): ChatContentPart[] {
  return reply.attachments.map((attachment) => ({
    type: 'image_url' as const,
    image_url: { url: `${origin}${attachment.url}` },
  }));
}

function contentOf(reply: MessageReplyView, origin: string): string | ChatContentPart[] {
  if (reply.attachments.length === 0) return reply.text;
  return [...(reply.text !== '' ? [{ type: 'text' as const, text: reply.text }] : []), ...imageParts(reply, origin)];
}

export function openAiFinishReason(reason: FinishReason | MessageReplyView['finishReason']): OpenAiFinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'content-filter') return 'content_filter';
  return 'stop';
}

function seconds(timestamp: string): number {
  return Math.floor(Date.parse(timestamp) / 1000);
}

function usageOf(reply: MessageReplyView) {
  return {
    prompt_tokens: reply.usage.inputTokens,
    completion_tokens: reply.usage.outputTokens,
    total_tokens: reply.usage.totalTokens,
  };
}

export function toChatCompletion(reply: MessageReplyView, origin: string): ChatCompletionView {
  return {
    id: reply.id,
    object: 'chat.completion',
    created: seconds(reply.createdAt),
    model: reply.agentId,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: contentOf(reply, origin), refusal: null },
        finish_reason: openAiFinishReason(reply.finishReason),
        logprobs: null,
      },
    ],
    usage: usageOf(reply),
  };
}

/** The pieces of a `chat.completion.chunk` stream, all bearing the reply's id, time and agent. */
export function chunkWriter(started: MessageStartedView, origin: string) {
  const base = {
    id: started.id,
    object: 'chat.completion.chunk' as const,
    created: seconds(started.createdAt),
    model: started.agentId,
  };
  const choice = (delta: Record<string, unknown>, finishReason: OpenAiFinishReason | null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  });
  return {
    opening: () => choice({ role: 'assistant', content: '' }, null),
    delta: (text: string) => choice({ content: text }, null),
    /** The reply's images, as one delta of content parts before the closing chunk; null when it made none. */
    images: (reply: MessageReplyView) =>
      reply.attachments.length > 0 ? choice({ content: imageParts(reply, origin) }, null) : null,
    closing: (reply: MessageReplyView) => choice({}, openAiFinishReason(reply.finishReason)),
    usage: (reply: MessageReplyView) => ({ ...base, choices: [], usage: usageOf(reply) }),
  };
}
