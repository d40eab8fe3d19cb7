import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Bot API call the fake received. */
export interface TelegramCall {
  token: string;
  method: string;
  /** The JSON body, or the fields of a multipart one (an uploaded file as its bytes, under `<field>`). */
  body: Record<string, any>;
  at: number;
}

/**
 * The parts of a multipart/form-data body (RFC 7578), read as leniently as
 * the Bot API reads them: grammY writes `content-disposition:form-data;name="x"`
 * without spaces and file names unquoted, which stricter parsers refuse.
 * A file part is its bytes; a text part its string.
 */
function multipartFields(raw: Buffer, contentType: string): Record<string, string | Buffer> {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (boundary === undefined) return {};
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string | Buffer> = {};
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const next = raw.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = raw.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const name = /name="?([^";\r\n]+)"?/i.exec(headers)?.[1];
    const content = part.subarray(headerEnd + 4);
    if (name !== undefined) fields[name] = /filename=/i.test(headers) ? Buffer.from(content) : content.toString('utf8');
    start = next;
  }
  // Uploaded files are named in their field by `attach://<part name>`.
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value.startsWith('attach://')) fields[name] = fields[value.slice(9)] ?? value;
  }
  return fields;
}

/** A Bot API request body: JSON, or multipart/form-data (uploads) with files read as bytes. */
async function bodyOf(raw: Buffer, contentType: string | undefined): Promise<Record<string, any>> {
  if (raw.length === 0) return {};
  if (contentType?.startsWith('multipart/form-data')) return multipartFields(raw, contentType);
  try {
    return JSON.parse(raw.toString('utf8')) as Record<string, any>;
  } catch {
    return {};
  }
}

export interface FakeTelegram {
  /** What to give AGENTD_TELEGRAM_API_URL. */
  apiRoot: string;
  calls: TelegramCall[];
  /** Calls of one method (for one token, when given). */
  callsOf(method: string, token?: string): TelegramCall[];
  /** Accepts this token (anything else is answered 401 Unauthorized, as Telegram does). */
  addBot(token: string, username?: string): void;
  /** Queues an update for the bot; returns its update_id. */
  injectMessage(token: string, message: { chatId: number; fromId: number; text: string; chatType?: string }): number;
  /**
   * Queues a photo message (two sizes, as Telegram sends them; the larger one is `photo`), kept in the fake's
   * file storage for getFile and /file/bot<token>/<path>; returns its update_id.
   */
  injectPhoto(
    token: string,
    message: { chatId: number; fromId: number; photo: Buffer; caption?: string; chatType?: string },
  ): number;
  /** Photos sent with sendPhoto to a chat: the uploaded bytes, in order. */
  photosSentTo(token: string, chatId: number): Buffer[];
  /** getUpdates calls that overlapped another one for the same bot (two pollers): Telegram answers them 409. */
  conflicts: number;
  /** Answers the next `count` calls of `method` with `status` (a Bot API outage). */
  failNext(method: string, count: number, status?: number): void;
  /**
   * Closes the connection of the next `count` calls of `method` without an
   * answer (and without recording them): what a client sees when it writes
   * to a kept-alive connection the server has just let go of.
   */
  resetNext(method: string, count: number): void;
  /**
   * Records the next `count` calls of `method` and never answers them (until
   * the caller goes away): a Bot API call that hangs, holding its caller.
   */
  holdNext(method: string, count: number): void;
  /** Whether a long poll of this bot is waiting now. */
  isPolling(token: string): boolean;
  /** Texts sent with sendMessage to a chat, in order. */
  sentTo(token: string, chatId: number): string[];
  close(): Promise<void>;
}

interface Bot {
  id: number;
  username: string;
  nextUpdateId: number;
  /** Updates not yet confirmed by an offset past them. */
  pending: Array<{ update_id: number; message: Record<string, unknown> }>;
  /** The long poll waiting now, if any. */
  waiting: { respond: (updates: unknown[] | null) => void; response: http.ServerResponse } | null;
}

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  if (response.writableEnded || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * A Telegram Bot API on loopback: getMe, getUpdates (long polling with
 * offsets, 409 when two pollers overlap), sendMessage, sendChatAction,
 * setWebhook, deleteWebhook. Records every call and lets the test inject
 * updates. Paths are Telegram's: /bot<token>/<method>.
 */
export async function startFakeTelegram(): Promise<FakeTelegram> {
  const bots = new Map<string, Bot>();
  const calls: TelegramCall[] = [];
  let conflicts = 0;
  let messageId = 1000;
  const failures = new Map<string, { count: number; status: number }>();
  const resets = new Map<string, number>();
  const holds = new Map<string, number>();
  /** Files of the fake's storage by path, with the bot they belong to. */
  const files = new Map<string, { token: string; bytes: Buffer; fileId: string }>();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(request.url ?? '');
      if (download !== null) {
        const file = files.get(download[2]!);
        if (file === undefined || file.token !== download[1]) return answer(response, 404, { ok: false });
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file.bytes);
        return;
      }
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.url ?? '');
      if (match === null) return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token = '', method = ''] = match;
      const body = await bodyOf(Buffer.concat(chunks), request.headers['content-type']);
      // Not recorded: the call was never answered, as if the server had closed the connection first.
      const resetsLeft = resets.get(method) ?? 0;
      if (resetsLeft > 0) {
        resets.set(method, resetsLeft - 1);
        request.socket.destroy();
        return;
      }
      calls.push({ token, method, body, at: Date.now() });
      const holdsLeft = holds.get(method) ?? 0;
      if (holdsLeft > 0) {
        holds.set(method, holdsLeft - 1);
        return;
      }
      const failure = failures.get(method);
      if (failure !== undefined && failure.count > 0) {
        failure.count -= 1;
        return answer(response, failure.status, { ok: false, error_code: failure.status, description: 'Bad Gateway' });
      }
      const bot = bots.get(token);
      if (bot === undefined) return answer(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      switch (method) {
        case 'getMe':
          return answer(response, 200, {
            ok: true,
            result: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username },
          });
        case 'getUpdates': {
          const offset = typeof body.offset === 'number' ? body.offset : 0;
          bot.pending = bot.pending.filter((update) => update.update_id >= offset);
          if (bot.waiting !== null) {
            // Telegram: "Conflict: terminated by other getUpdates request".
            conflicts += 1;
            const previous = bot.waiting;
            bot.waiting = null;
            answer(previous.response, 409, {
              ok: false,
              error_code: 409,
              description: 'Conflict: terminated by other getUpdates request',
            });
          }
          if (bot.pending.length > 0) return answer(response, 200, { ok: true, result: bot.pending });
          const timeoutMs = Math.min(Number(body.timeout ?? 0), 50) * 1000;
          const waiting = {
            response,
            respond: (updates: unknown[] | null) => {
              clearTimeout(timer);
              if (bot.waiting === waiting) bot.waiting = null;
              if (updates !== null) answer(response, 200, { ok: true, result: updates });
            },
          };
          const timer = setTimeout(() => waiting.respond([]), timeoutMs);
          bot.waiting = waiting;
          // A poller that went away (aborted, killed) is no longer waiting.
          response.once('close', () => waiting.respond(null));
          return;
        }
        case 'sendMessage':
          messageId += 1;
          return answer(response, 200, {
            ok: true,
            result: { message_id: messageId, date: 0, chat: { id: body.chat_id, type: 'private' }, text: body.text },
          });
        case 'sendPhoto':
          messageId += 1;
          return answer(response, 200, {
            ok: true,
            result: { message_id: messageId, date: 0, chat: { id: Number(body.chat_id), type: 'private' }, photo: [] },
          });
        case 'getFile': {
          const stored = [...files.entries()].find(([, file]) => file.fileId === body.file_id && file.token === token);
          if (stored === undefined)
            return answer(response, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' });
          return answer(response, 200, {
            ok: true,
            result: {
              file_id: body.file_id,
              file_unique_id: body.file_id,
              file_size: stored[1].bytes.length,
              file_path: stored[0],
            },
          });
        }
        case 'sendChatAction':
        case 'setWebhook':
        case 'deleteWebhook':
          return answer(response, 200, { ok: true, result: true });
        default:
          return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    get conflicts() {
      return conflicts;
    },
    callsOf: (method, token) =>
      calls.filter((call) => call.method === method && (token === undefined || call.token === token)),
    addBot(token, username = 'agentd_test_bot') {
      bots.set(token, { id: 7_000_000 + bots.size, username, nextUpdateId: 500, pending: [], waiting: null });
    },
    injectMessage(token, { chatId, fromId, text, chatType }) {
      const bot = bots.get(token);
      if (bot === undefined) throw new Error('unknown bot');
      bot.nextUpdateId += 1;
      const update = {
        update_id: bot.nextUpdateId,
        message: {
          message_id: bot.nextUpdateId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: chatType ?? 'private' },
          from: { id: fromId, is_bot: false, first_name: 'Test' },
          text,
        },
      };
      bot.pending.push(update);
      bot.waiting?.respond([update]);
      return update.update_id;
    },
    injectPhoto(token, { chatId, fromId, photo, caption, chatType }) {
      const bot = bots.get(token);
      if (bot === undefined) throw new Error('unknown bot');
      bot.nextUpdateId += 1;
      const fileId = `photo-${bot.nextUpdateId}`;
      files.set(`photos/file_${bot.nextUpdateId}.jpg`, { token, bytes: photo, fileId });
      const update = {
        update_id: bot.nextUpdateId,
        message: {
          message_id: bot.nextUpdateId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: chatType ?? 'private' },
          from: { id: fromId, is_bot: false, first_name: 'Test' },
          photo: [
            { file_id: `${fileId}-thumb`, file_unique_id: 'thumb', width: 90, height: 90, file_size: 1200 },
            { file_id: fileId, file_unique_id: fileId, width: 800, height: 600, file_size: photo.length },
          ],
          ...(caption !== undefined ? { caption } : {}),
        },
      };
      bot.pending.push(update);
      bot.waiting?.respond([update]);
      return update.update_id;
    },
    photosSentTo: (token, chatId) =>
      calls
        .filter((call) => call.method === 'sendPhoto' && call.token === token && Number(call.body.chat_id) === chatId)
        .map((call) => call.body.photo as Buffer),
    failNext(method, count, status = 502) {
      failures.set(method, { count, status });
    },
    resetNext(method, count) {
      resets.set(method, count);
    },
    holdNext(method, count) {
      holds.set(method, count);
    },
    isPolling: (token) => bots.get(token)?.waiting != null,
    sentTo: (token, chatId) =>
      calls
        .filter((call) => call.method === 'sendMessage' && call.token === token && call.body.chat_id === chatId)
        .map((call) => String(call.body.text)),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
