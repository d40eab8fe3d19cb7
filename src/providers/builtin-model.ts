import type { AssembledPrompt, PromptImage, PromptToolResult } from '../conversation/prompt.js';
import { estimateTokens } from '../conversation/tokens.js';
import type { ModelAdapter, ModelCall, ModelStreamPart } from './model-adapter.js';
import { ProviderError } from './provider-error.js';
import { abortableDelay } from './abortable-delay.js';

/**
 * The builtin model: offline and deterministic. It is not a language model and
 * says so in every answer; it composes a reply in the agent's character from
 * its profile, the knowledge retrieved for the message and the conversation so
 * far, so that agentd can be tried (and tested) with no provider at all.
 */

function quote(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** What can be known of images offline: their type and pixel size, from their headers. */
export function describeImages(images: readonly PromptImage[]): string {
  const described = images.map((image) => {
    const type = image.mediaType.replace(/^image\//, '').toUpperCase();
    const size =
      image.width !== null && image.height !== null ? `${image.width}×${image.height} pixels` : 'unknown size';
    return `a ${type} image of ${size}`;
  });
  const list = described.length === 1 ? described[0] : `${described.slice(0, -1).join(', ')} and ${described.at(-1)}`;
  return `You sent ${list}; offline I can tell ${images.length === 1 ? 'its' : 'their'} type and size, not what ${images.length === 1 ? 'it shows' : 'they show'}.`;
}

/** The reply, as a pure function of the prompt. */
export function composeBuiltinReply(prompt: AssembledPrompt): string {
  const { character, knowledge, history, message, shared } = prompt;
  const parts: string[] = [];
  const speaker = message.userId ? ` ${message.userId}` : '';
  parts.push(`Hello${speaker}, I'm ${character.name}.`);
  const bio = character.bio[0];
  if (bio) parts.push(sentence(bio));
  if (character.personality.tone) parts.push(`(Tone: ${character.personality.tone}.)`);
  parts.push(`You said: ${quote(message.text)}.`);
  const images = message.images ?? [];
  if (images.length > 0) parts.push(describeImages(images));

  if (knowledge.length > 0) {
    const [first, ...others] = knowledge;
    parts.push(
      `Here is what I know about that: ${sentence(`${first?.title ? `${first.title}: ` : ''}${first?.content ?? ''}`)}`,
    );
    for (const item of others.slice(0, 2)) parts.push(`Also: ${sentence(item.content)}`);
  } else if (character.expertise.length > 0) {
    parts.push(`I don't have notes on that, but I can talk about ${character.expertise.join(', ')}.`);
  } else {
    parts.push("I don't have notes on that.");
  }

  // What long-term memory gave the prompt, said plainly: how memory is seen working without a provider.
  const remembered = prompt.memory?.facts.filter((fact) => fact.userId === message.userId) ?? [];
  if (remembered.length > 0) {
    parts.push(`I remember about you: ${remembered.map((fact) => fact.statement).join('; ')}.`);
  }
  const earlier = [...history].reverse().find((turn) => turn.role === 'user');
  if (earlier) {
    const who =
      shared && earlier.userId !== null && earlier.userId !== message.userId ? `${earlier.userId} said` : 'you said';
    parts.push(`Earlier ${who}: ${quote(earlier.text, 120)}.`);
  }
  const objective = character.goals.objectives[0];
  if (objective) parts.push(`My aim: ${sentence(objective)}`);
  parts.push(
    "(This answer comes from agentd's builtin offline model, which composes replies from the agent's profile and knowledge; it is not a language model. Configure a model provider for real conversations.)",
  );
  return parts.join(' ');
}

/**
 * Tool calls, offline: a line of the message of the form `/tool NAME {json}`
 * (the JSON optional) asks for that tool, once, when the agent offers tools;
 * after the results come back, the reply reports them. This is how tools are
 * tried and tested with no model provider.
 */
const toolLine = /^\/tool[ \t]+([A-Za-z0-9_-]{1,64})[ \t]*(.*)$/gm;

export function requestedToolCalls(text: string): Array<{ toolName: string; input: string }> {
  return [...text.matchAll(toolLine)].map((match) => ({
    toolName: match[1] as string,
    input: (match[2] ?? '').trim() || '{}',
  }));
}

function describeResult(result: PromptToolResult): string {
  const value = typeof result.output === 'string' ? result.output : JSON.stringify(result.output);
  return result.isError ? `${result.toolName} failed: ${value}` : `${result.toolName} returned ${value}`;
}

/** The reply once this message's tools have run: what each gave back. */
export function composeBuiltinToolReport(prompt: AssembledPrompt, results: PromptToolResult[]): string {
  const speaker = prompt.message.userId ? ` ${prompt.message.userId}` : '';
  return [
    `Hello${speaker}, I'm ${prompt.character.name}.`,
    ...results.map((result) => `${sentence(describeResult(result))}`),
    "(This answer comes from agentd's builtin offline model; it is not a language model.)",
  ].join(' ');
}

export interface BuiltinModelOptions {
  /** Pause between streamed words, so a person watching a stream sees it arrive (none for a non-streamed reply). */
  wordDelayMs: number;
}

export class BuiltinModel implements ModelAdapter {
  constructor(private readonly options: BuiltinModelOptions) {}

  async *stream(call: ModelCall): AsyncIterable<ModelStreamPart> {
    const { messages } = call.prompt;
    // The results of this reply's tool rounds follow the message: the last prompt message is then a tool message.
    const last = messages.at(-1);
    const results = last?.role === 'tool' ? last.results : null;
    const requested = results === null && call.tools?.length ? requestedToolCalls(call.prompt.message.text) : [];
    if (requested.length > 0) {
      for (const [index, request] of requested.entries()) {
        yield { type: 'tool-call', toolCallId: `call_builtin_${index + 1}`, ...request };
      }
      const inputTokens = call.prompt.estimatedInputTokens;
      yield {
        type: 'finish',
        finishReason: 'tool-calls',
        usage: { inputTokens, outputTokens: 0, totalTokens: inputTokens },
      };
      return;
    }
    const reply = results !== null ? composeBuiltinToolReport(call.prompt, results) : composeBuiltinReply(call.prompt);
    const words = reply.split(/(?<= )/);
    const limit = call.settings.maxOutputTokens;
    let text = '';
    let finishReason: 'stop' | 'length' = 'stop';
    for (const [index, word] of words.entries()) {
      if (index > 0 && call.watched) await abortableDelay(this.options.wordDelayMs, call.abortSignal);
      if (call.abortSignal.aborted) throw new ProviderError('aborted', 'The model call was aborted.');
      if (limit !== undefined && estimateTokens(text + word) > limit) {
        finishReason = 'length';
        break;
      }
      text += word;
      yield { type: 'text-delta', text: word };
    }
    const inputTokens = call.prompt.estimatedInputTokens;
    const outputTokens = estimateTokens(text);
    yield {
      type: 'finish',
      finishReason,
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    };
  }
}
