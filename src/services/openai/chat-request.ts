import { validationError } from '../../errors.js';
import { maxAttachmentsPerMessage, type AttachmentInputValue } from '../../schemas/files.js';
import { messageLimits, type SendMessageInput } from '../../schemas/messages.js';
import type { ChatCompletionInput, ChatMessageValue } from '../../schemas/openai.js';
import type { ModelSettingsOverride } from '../messages/send-message.js';

/**
 * The text of a message: its string, or its text parts joined; other parts
 * (audio, files) are refused, and images too except in the message the agent
 * is sent (`images`).
 */
function textOf(message: ChatMessageValue, index: number, images?: AttachmentInputValue[]): string {
  const { content } = message;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, partIndex) => {
      const pointer = `/body/messages/${index}/content/${partIndex}`;
      if (part.type === 'image_url' && images !== undefined) {
        const url = part.image_url?.url;
        if (typeof url !== 'string') throw validationError(`${pointer}/image_url/url`, 'is required');
        if (images.length >= maxAttachmentsPerMessage) {
          throw validationError(pointer, `at most ${maxAttachmentsPerMessage} images may be sent with a message`);
        }
        images.push(url.startsWith('data:') ? { type: 'image', data: url } : { type: 'image', url });
        return '';
      }
      if (part.type !== 'text' || typeof part.text !== 'string') {
        throw validationError(
          pointer,
          images !== undefined
            ? 'only text and image_url content parts are supported'
            : 'only text content parts are supported',
        );
      }
      return part.text;
    })
    .join('');
}

/**
 * An OpenAI chat request as an agentd message. The agent keeps its own memory
 * of the conversation with `user`, so only the last message, which must be the
 * user's, is sent; `system` and `developer` messages become `context`
 * (for this reply only, not stored); earlier turns are not read, because the
 * agent's own history already holds them (or, without `user`, there is none).
 */
export function messageInputOf(body: ChatCompletionInput): SendMessageInput {
  const lastIndex = body.messages.length - 1;
  const last = body.messages[lastIndex]!;
  if (last.role !== 'user') throw validationError(`/body/messages/${lastIndex}/role`, 'the last message must be user');
  const images: AttachmentInputValue[] = [];
  const text = textOf(last, lastIndex, images);
  if (text.length === 0 || text.length > messageLimits.text) {
    throw validationError(
      `/body/messages/${lastIndex}/content`,
      `must be 1–${messageLimits.text.toLocaleString('en')} characters`,
    );
  }
  const instructions = body.messages
    .map((message, index) => (message.role === 'system' || message.role === 'developer' ? textOf(message, index) : ''))
    .filter((instruction) => instruction !== '');
  const context = instructions.length > 0 ? { instructions } : undefined;
  if (context !== undefined && Buffer.byteLength(JSON.stringify(context), 'utf8') > messageLimits.contextBytes) {
    throw validationError('/body/messages', 'system and developer messages must be at most 16 KiB in all');
  }
  return {
    text,
    ...(body.user !== undefined ? { userId: body.user } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(images.length > 0 ? { attachments: images } : {}),
    stream: body.stream === true,
  };
}

/** `temperature` and `max_tokens` (or its newer name) for this reply, over the agent's own settings. */
export function settingsOf(body: ChatCompletionInput): ModelSettingsOverride {
  const maxOutputTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  return {
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}
