import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Bot API call the fake received. */
export interface TelegramCall {
  token: string;
  method: string;
  body: Record<string, any>;
  at: number;
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
  /** getUpdates calls that overlapped another one for the same bot (two pollers): Telegram answers them 409. */
  conflicts: number;
  /** Answers the next `count` calls of `method` with `status` (a Bot API outage). */
  failNext(method: string, count: number, status?: number): void;
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

  const server = http.createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.url ?? '');
      if (match === null) return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token = '', method = ''] = match;
      let body: Record<string, any> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
      } catch {
        body = {};
      }
      calls.push({ token, method, body, at: Date.now() });
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
    failNext(method, count, status = 502) {
      failures.set(method, { count, status });
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
