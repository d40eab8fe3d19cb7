import type { ChatCompletionInput } from '../../schemas/openai.js';
import { requireScope, type ServiceContext } from '../context.js';
import type { Reply } from '../messages/reply.js';
import { sendMessage } from '../messages/send-message.js';
import { messageInputOf, settingsOf } from './chat-request.js';

/**
 * An OpenAI chat completion is a message to the agent (`agentId`, already
 * found from the request's `model`): the same checks, limits, memory, tools
 * and storage as the native door.
 */
export async function startChatCompletion({
  ctx,
  agentId,
  input,
  signal,
}: {
  ctx: ServiceContext;
  agentId: string;
  input: ChatCompletionInput;
  signal: AbortSignal;
}): Promise<Reply> {
  requireScope(ctx, 'messages:send');
  return sendMessage({
    ctx,
    agentId,
    input: messageInputOf(input),
    settings: settingsOf(input),
    signal,
    trigger: 'door',
  });
}
