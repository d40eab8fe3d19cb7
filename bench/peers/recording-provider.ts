/**
 * One fake OpenAI-compatible provider for agentd and its peers side by side,
 * listening on loopback only. It speaks the three APIs they use here — Chat
 * Completions (agentd, Mastra through @ai-sdk/openai-compatible), Responses
 * (ElizaOS's OpenAI plugin) and embeddings (ElizaOS, for every message) —
 * streamed or not, and records every model call: who made it, during which user
 * message, what kind of call it was, and how many characters of message content
 * it carried (system or instructions included; tool definitions and request
 * options are not content and are left out).
 *
 * Each kind of call is answered the way its caller parses it, so no system
 * retries or falls back because the fake said something it could not read:
 * ElizaOS's templates ask for XML, agentd's memory tasks for JSON, replies are
 * plain words.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  system: string;
  /** 1-based user message during which the call was made (0 before the first). */
  message: number;
  kind: string;
  model: string;
  characters: number;
  path: string;
  streamed: boolean;
  /** The prompt's first characters, to tell kinds of calls apart when a peer's templates change. */
  opening: string;
}

/** Which kind of call a prompt is, from the text of its instructions (first match wins). */
export interface CallKind {
  kind: string;
  matches: (promptText: string) => boolean;
  answer: (replyWords: string) => string;
}

type ContentPart = { type?: string; text?: string; [key: string]: unknown };
type Content = string | null | undefined | ContentPart[];

function textOfContent(content: Content): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** The texts of a Chat Completions or Responses request, in the order sent. */
function promptTexts(path: string, body: any): string[] {
  if (path.endsWith('/chat/completions'))
    return (body.messages ?? []).map((message: { content: Content }) => textOfContent(message.content));
  const texts: string[] = typeof body.instructions === 'string' ? [body.instructions] : [];
  const input = body.input;
  if (typeof input === 'string') texts.push(input);
  else
    for (const item of input ?? []) {
      if (item.content !== undefined) texts.push(textOfContent(item.content));
      else if (typeof item.output === 'string') texts.push(item.output);
    }
  return texts;
}

export interface RecordingProvider {
  baseUrl: string;
  calls: RecordedCall[];
  embeddingCalls: Array<{ system: string; message: number }>;
  /** Who the next calls are counted for, and during which of its user messages. */
  attribute(system: string, message: number): void;
  /** Resolves once no call has been open nor arrived for `quietMs` (background work of the last message done). */
  whenQuiet(quietMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRecordingProvider(options: {
  kinds: CallKind[];
  replyWords: number;
}): Promise<RecordingProvider> {
  const replyText = Array.from({ length: options.replyWords }, (_, index) => `word${index + 1}`).join(' ');
  const calls: RecordedCall[] = [];
  const embeddingCalls: Array<{ system: string; message: number }> = [];
  let current = { system: '', message: 0 };
  let open = 0;
  let lastActivity = Date.now();

  const answerFor = (texts: string[]): { kind: string; text: string } => {
    const joined = texts.join('\n');
    const kind = options.kinds.find((candidate) => candidate.matches(joined));
    return kind ? { kind: kind.kind, text: kind.answer(replyText) } : { kind: 'reply', text: replyText };
  };

  const server = http.createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      open += 1;
      lastActivity = Date.now();
      response.on('close', () => {
        open -= 1;
        lastActivity = Date.now();
      });
      const path = (request.url ?? '').split('?')[0] as string;
      if (request.method === 'GET' && path.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model' }] }));
        return;
      }
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'not JSON', type: 'invalid_request_error' } }));
        return;
      }
      if (path.endsWith('/embeddings')) {
        embeddingCalls.push({ ...current });
        const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
        const dimensions = Number(body.dimensions ?? 1536);
        const vector = Array.from({ length: dimensions }, (_, index) => (index === 0 ? 1 : 0));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'list',
            data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: vector })),
            model: body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
        return;
      }
      const chat = path.endsWith('/chat/completions');
      if (!chat && !path.endsWith('/responses')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no route ${path}`, type: 'invalid_request_error' } }));
        return;
      }
      const texts = promptTexts(path, body);
      const { kind, text } = answerFor(texts);
      const streamed = body.stream === true;
      calls.push({
        ...current,
        kind,
        model: String(body.model),
        characters: texts.reduce((sum, entry) => sum + entry.length, 0),
        path,
        streamed,
        opening: texts.join('\n').slice(0, 160),
      });
      const usage = { input: 12, output: text.split(' ').length };
      if (chat) answerChat(response, body.model, text, streamed, usage);
      else answerResponses(response, body.model, text, streamed, usage);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    embeddingCalls,
    attribute(system, message) {
      current = { system, message };
    },
    async whenQuiet(quietMs = 400) {
      for (;;) {
        const waited = Date.now() - lastActivity;
        if (open === 0 && waited >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, Math.max(20, quietMs - waited)));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answerChat(
  response: http.ServerResponse,
  model: string,
  text: string,
  streamed: boolean,
  usage: { input: number; output: number },
) {
  const created = Math.floor(Date.now() / 1000);
  const usageFields = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
  };
  if (!streamed) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: usageFields,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const frame = (fields: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created, model, ...fields })}\n\n`;
  let out = frame({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  text.split(' ').forEach((word, index) => {
    out += frame({ choices: [{ index: 0, delta: { content: index === 0 ? word : ` ${word}` }, finish_reason: null }] });
  });
  out += frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  out += frame({ choices: [], usage: usageFields });
  response.end(`${out}data: [DONE]\n\n`);
}

function answerResponses(
  response: http.ServerResponse,
  model: string,
  text: string,
  streamed: boolean,
  usage: { input: number; output: number },
) {
  const created_at = Math.floor(Date.now() / 1000);
  const item = {
    type: 'message',
    id: 'msg_bench',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  const completed = {
    id: 'resp_bench',
    object: 'response',
    created_at,
    status: 'completed',
    model,
    output: [item],
    incomplete_details: null,
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    },
  };
  if (!streamed) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(completed));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (fields: Record<string, unknown>) => `data: ${JSON.stringify(fields)}\n\n`;
  let out = event({ type: 'response.created', response: { ...completed, status: 'in_progress', output: [] } });
  out += event({
    type: 'response.output_item.added',
    output_index: 0,
    item: { ...item, status: 'in_progress', content: [] },
  });
  text.split(' ').forEach((word, index) => {
    out += event({
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: index === 0 ? word : ` ${word}`,
    });
  });
  out += event({ type: 'response.output_item.done', output_index: 0, item });
  out += event({ type: 'response.completed', response: completed });
  response.end(out);
}
