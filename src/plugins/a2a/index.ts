import { randomUUID } from 'node:crypto';
import { SendMessageRequest, TaskState, type AgentCard, type StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { ToolError, type FetchFunction, type PluginDefinition, type ToolCallContext } from '../plugin.js';
import { redacted } from '../mcp/describe-failure.js';
import { SecretMask } from '../redact-secrets.js';
import { a2aConfigSchema, a2aSecretsSchema, defaultTimeoutMs } from './config.js';

/** Bounds a failure message the model reads, and the answer it is given. */
const messageLimit = 300;
const answerLimit = 100_000;

const toolInputSchema = {
  type: 'object',
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 32_000, description: 'What to ask or tell the remote agent.' },
    contextId: {
      type: 'string',
      maxLength: 200,
      description: 'The contextId of an earlier answer, to continue that conversation; omit to start a new one.',
    },
  },
  required: ['text'],
  additionalProperties: false,
};

/** `a2a_<name>`, with every character providers refuse made `_`, within their 64 characters. */
function defaultToolName(card: AgentCard): string {
  const stem =
    card.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'agent';
  return `a2a_${stem}`.slice(0, 64);
}

/**
 * The SDK's fetch over the plugin's SSRF-safe one, with the entry's headers on
 * every request to one of `secretOrigins` and on no other. The card names the
 * endpoint the SDK calls, and a card can name any address: the entry's
 * credentials are meant for where the operator pointed it, not for wherever
 * the remote says. (A redirect elsewhere drops them in the outbound client.)
 */
function remoteFetch(
  fetch: FetchFunction,
  headers: Record<string, string>,
  secretOrigins: ReadonlySet<string>,
  withheld: (origin: string) => void,
): typeof globalThis.fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : input;
    const { origin } = new URL(url);
    const merged = new Headers(init?.headers);
    if (secretOrigins.has(origin)) {
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    } else if (Object.keys(headers).length > 0) withheld(origin);
    return fetch(url, { ...init, headers: merged });
  };
}

function textOf(parts: ReadonlyArray<{ content?: { $case: string; value: unknown } | undefined }>): string {
  return parts.map((part) => (part.content?.$case === 'text' ? String(part.content.value) : '')).join('');
}

/**
 * Calls a remote A2A agent as a tool: the question is a streamed message to
 * it, and the tool's result is its answer (the text of its artifacts, or of
 * its last status message), with the task and context ids so the model can
 * continue the conversation.
 */
export const a2aPlugin: PluginDefinition<typeof a2aConfigSchema, typeof a2aSecretsSchema> = {
  name: 'a2a',
  description:
    'Lets the agent ask a remote A2A (Agent2Agent) agent, found by its agent card, and gives the model its answer.',
  configSchema: a2aConfigSchema,
  secretsSchema: a2aSecretsSchema,
  // The headers go to the card's origin and to the origins the entry lists (in any order), and to no other.
  secretDestination: (config) => ({ cardUrl: config.cardUrl, secretOrigins: [...(config.secretOrigins ?? [])].sort() }),

  async open(config, secrets, context) {
    const timeoutMs = config.timeoutMs ?? defaultTimeoutMs;
    const secretValues = Object.values(secrets ?? {});
    // The core masks every tool result, but only after this plugin has cut it: what is cut here is masked first,
    // so a secret straddling a cut is masked whole and never shows its first characters.
    const mask = new SecretMask(secretValues);
    let cardUrl: URL;
    try {
      cardUrl = new URL(config.cardUrl);
    } catch {
      throw new Error('The A2A card address is not a valid URL');
    }
    const address = `${cardUrl.origin}${cardUrl.pathname}`;
    const describe = (what: string, error: unknown) =>
      redacted(
        `The A2A agent at ${address} ${what}: ${error instanceof Error ? error.message : String(error)}`,
        secretValues,
        messageLimit,
      );
    // Sent to another origin than the card's only when the entry names it; otherwise the call goes without them.
    const secretOrigins = new Set([
      cardUrl.origin,
      ...(config.secretOrigins ?? []).map((origin) => new URL(origin).origin),
    ]);
    const toldOrigins = new Set<string>();
    const fetchImpl = remoteFetch(context.fetch, secrets ?? {}, secretOrigins, (origin) => {
      if (toldOrigins.has(origin)) return;
      toldOrigins.add(origin);
      context.logger.warn(
        { plugin: 'a2a', card: address, origin },
        'the remote agent’s card names another origin, which gets none of the entry’s headers unless secretOrigins lists it',
      );
    });
    const factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    });
    let client;
    try {
      client = await factory.createFromUrl(cardUrl.origin, `${cardUrl.pathname}${cardUrl.search}`);
    } catch (error) {
      throw new Error(describe('could not be reached', error));
    }
    const card = await client.getAgentCard();
    const description = mask.head(`Ask ${card.name}, a remote agent: ${card.description}`, 1000);

    async function ask(input: unknown, { abortSignal }: ToolCallContext) {
      const { text, contextId } = input as { text: string; contextId?: string };
      const request = SendMessageRequest.fromJSON({
        message: { messageId: randomUUID(), contextId: contextId ?? '', role: 'ROLE_USER', parts: [{ text }] },
      });
      const signal = AbortSignal.any([abortSignal, AbortSignal.timeout(timeoutMs)]);
      let answer = '';
      let statusText = '';
      let taskId = '';
      let remoteContextId = contextId ?? '';
      let state = TaskState.TASK_STATE_UNSPECIFIED;
      try {
        for await (const event of client!.sendMessageStream(request, { signal }) as AsyncIterable<StreamResponse>) {
          const payload = event.payload;
          if (payload?.$case === 'task') {
            taskId = payload.value.id;
            remoteContextId = payload.value.contextId;
            state = payload.value.status?.state ?? state;
            answer += payload.value.artifacts.map((artifact) => textOf(artifact.parts)).join('');
          } else if (payload?.$case === 'artifactUpdate') {
            answer += textOf(payload.value.artifact?.parts ?? []);
          } else if (payload?.$case === 'statusUpdate') {
            state = payload.value.status?.state ?? state;
            statusText = textOf(payload.value.status?.message?.parts ?? []);
          } else if (payload?.$case === 'message') {
            remoteContextId = payload.value.contextId || remoteContextId;
            answer += textOf(payload.value.parts);
          }
          // Read past the limit by the longest form of a secret, so one begun before the cut is seen whole.
          if (answer.length > answerLimit + mask.marginBytes) break;
        }
      } catch (error) {
        throw new ToolError(describe('failed', error));
      }
      if (state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_REJECTED) {
        throw new ToolError(redacted(`${card.name} could not answer: ${statusText}`, secretValues, messageLimit));
      }
      return {
        answer: mask.head(answer === '' ? statusText : answer, answerLimit),
        taskId,
        contextId: remoteContextId,
      };
    }

    return {
      tools: [
        {
          name: config.toolName ?? defaultToolName(card),
          description,
          inputSchema: toolInputSchema,
          // A message to another agent, which may act on it: never sent twice.
          sideEffects: true,
          execute: ask,
        },
      ],
    };
  },
};
