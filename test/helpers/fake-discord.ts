import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { startLoopbackHttpServer, type LoopbackHttpServer, type ReceivedRequest } from './loopback-http-server.js';

/**
 * A fake Discord for the Discord connector's tests, on loopback: a REST API
 * (GET /gateway/bot, GET /users/@me, POST /channels/{id}/messages and
 * /channels/{id}/typing, under /api/v10) and a gateway (WebSocket, JSON
 * encoding: HELLO, IDENTIFY → READY and GUILD_CREATE for one server, heartbeats
 * acknowledged, MESSAGE_CREATE dispatched on the test's demand). A token other
 * than the one it was given gets a 401 from REST; with `closeOnIdentify` REST
 * accepts it and the gateway closes with that code instead (4004: a token that
 * became invalid between the two; 4014: the Message Content intent not allowed). A client that lost its connection and
 * sends RESUME with a session this fake opened gets RESUMED. A message's
 * attachments are served from the REST server at their `url` (no token, as
 * Discord's CDN), every download recorded in `rest.received`. It records what
 * it received.
 */

export const fakeDiscordBot = { id: '900000000000000001', username: 'agentd-bot', discriminator: '0', bot: true };
export const fakeDiscordGuildId = '900000000000000100';
export const fakeDiscordChannelId = '900000000000000200';
export const fakeDiscordDirectChannelId = '900000000000000300';

export interface DiscordUser {
  id: string;
  username: string;
  bot?: boolean;
}

export interface SentDiscordMessage {
  channelId: string;
  content: string;
  /** Files uploaded with the message (multipart `files[n]` parts): their names and bytes. */
  files?: Array<{ name: string; bytes: Buffer }>;
  /** The message this one replies to. */
  replyTo?: string;
  allowedMentions?: unknown;
}

export interface FakeDiscord {
  /** The REST base to configure (`AGENTD_DISCORD_API_URL`): discord.js adds `/v10`. */
  apiUrl: string;
  rest: LoopbackHttpServer;
  sent: SentDiscordMessage[];
  /** Channel ids a typing indicator was sent to, in order. */
  typing: string[];
  identifies: Array<{ token: string; intents: number }>;
  heartbeats(): number;
  /** Open gateway sockets that identified or resumed. */
  openSockets(): number;
  /** How many RESUMEs of a known session were accepted. */
  resumes(): number;
  /** Cuts every gateway connection without a close frame, as a network fault would. */
  dropConnections(): void;
  /** Closes every gateway connection with `code` (4004: the token was reset while the bot was connected). */
  closeConnections(code: number, reason: string): void;
  /** Close codes of gateway sockets the client closed, in order. */
  clientCloses: number[];
  /** Sends MESSAGE_CREATE to every identified connection; returns the message id. */
  dispatchMessage(message: DispatchedMessage): string;
  /** Ids of the messages sent on IDENTIFY (`messageOnIdentify`), in order. */
  onIdentifyMessageIds: string[];
  close(): Promise<void>;
}

export interface DispatchedMessage {
  author: DiscordUser;
  content: string;
  channelId?: string;
  direct?: boolean;
  mentions?: DiscordUser[];
  /** Files attached to the message; `size` overrides the size reported. */
  attachments?: Array<{ name: string; contentType: string; bytes: Buffer; size?: number }>;
}

let nextId = 910_000_000_000_000_000n;
const snowflake = () => String((nextId += 1n));

function userObject(user: DiscordUser) {
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: null,
    avatar: null,
    bot: user.bot ?? false,
  };
}

export async function startFakeDiscord(options: {
  botToken: string;
  /** The gateway closes the connection with this code on IDENTIFY: 4004 (token refused), 4014 (disallowed intents). */
  closeOnIdentify?: 4004 | 4014;
  heartbeatIntervalMs?: number;
  /** Sent right after GUILD_CREATE on each IDENTIFY, as a message posted while the bot connects; its id goes to `onIdentifyMessageIds`. */
  messageOnIdentify?: DispatchedMessage;
}): Promise<FakeDiscord> {
  const sent: SentDiscordMessage[] = [];
  const typing: string[] = [];
  const identifies: Array<{ token: string; intents: number }> = [];
  const clientCloses: number[] = [];
  let heartbeats = 0;
  let resumes = 0;
  const sessions = new Set<string>();
  const attachmentFiles = new Map<string, Buffer>();
  const identified = new Set<WebSocket>();
  const onIdentifyMessageIds: string[] = [];
  const sequence = new Map<WebSocket, number>();

  const gateway = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(gateway, 'listening');
  const gatewayUrl = `ws://127.0.0.1:${(gateway.address() as AddressInfo).port}`;

  const dispatch = (socket: WebSocket, type: string, data: unknown) => {
    const next = (sequence.get(socket) ?? 0) + 1;
    sequence.set(socket, next);
    socket.send(JSON.stringify({ op: 0, t: type, s: next, d: data }));
  };

  gateway.on('connection', (socket) => {
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: options.heartbeatIntervalMs ?? 1_000 } }));
    socket.on('close', (code) => {
      identified.delete(socket);
      clientCloses.push(code);
    });
    socket.on('message', (raw) => {
      const payload = JSON.parse(String(raw)) as {
        op: number;
        d: { token: string; intents: number; session_id?: string; seq?: number };
      };
      if (payload.op === 1) {
        heartbeats += 1;
        socket.send(JSON.stringify({ op: 11 }));
      } else if (payload.op === 2) {
        identifies.push({ token: payload.d.token, intents: payload.d.intents });
        if (payload.d.token !== options.botToken) {
          socket.close(4004, 'Authentication failed.');
          return;
        }
        if (options.closeOnIdentify) {
          socket.close(
            options.closeOnIdentify,
            options.closeOnIdentify === 4004 ? 'Authentication failed.' : 'Disallowed intent(s).',
          );
          return;
        }
        identified.add(socket);
        const sessionId = `session-${snowflake()}`;
        sessions.add(sessionId);
        dispatch(socket, 'READY', {
          v: 10,
          user: { ...userObject(fakeDiscordBot), bot: true, verified: true, flags: 0 },
          guilds: [{ id: fakeDiscordGuildId, unavailable: true }],
          session_id: sessionId,
          resume_gateway_url: gatewayUrl,
          shard: [0, 1],
          application: { id: '900000000000000002', flags: 0 },
          private_channels: [],
        });
        dispatch(socket, 'GUILD_CREATE', {
          id: fakeDiscordGuildId,
          name: 'Test server',
          owner_id: '900000000000000009',
          unavailable: false,
          member_count: 2,
          large: false,
          joined_at: new Date().toISOString(),
          roles: [{ id: fakeDiscordGuildId, name: '@everyone', permissions: '68608', position: 0, color: 0 }],
          channels: [{ id: fakeDiscordChannelId, type: 0, name: 'general', position: 0, permission_overwrites: [] }],
          threads: [],
          members: [],
          presences: [],
          voice_states: [],
          emojis: [],
          stickers: [],
          features: [],
        });
        if (options.messageOnIdentify) {
          const id = snowflake();
          onIdentifyMessageIds.push(id);
          dispatch(socket, 'MESSAGE_CREATE', messageData(id, options.messageOnIdentify));
        }
      } else if (payload.op === 6) {
        if (payload.d.token === options.botToken && payload.d.session_id && sessions.has(payload.d.session_id)) {
          resumes += 1;
          identified.add(socket);
          sequence.set(socket, payload.d.seq ?? 0);
          dispatch(socket, 'RESUMED', {});
        } else {
          socket.send(JSON.stringify({ op: 9, d: false }));
        }
      }
    });
  });

  /** The MESSAGE_CREATE payload of a message, its attachments served by the REST fake. */
  function messageData(id: string, message: DispatchedMessage) {
    const direct = message.direct ?? false;
    return {
      id,
      channel_id: message.channelId ?? (direct ? fakeDiscordDirectChannelId : fakeDiscordChannelId),
      ...(direct ? { channel_type: 1 } : { guild_id: fakeDiscordGuildId, channel_type: 0 }),
      author: userObject(message.author),
      content: message.content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: (message.mentions ?? []).map(userObject),
      mention_roles: [],
      attachments: (message.attachments ?? []).map((attachment) => {
        const attachmentId = snowflake();
        const path = `/attachments/${message.channelId ?? fakeDiscordChannelId}/${attachmentId}/${attachment.name}`;
        attachmentFiles.set(path, attachment.bytes);
        // Discord's CDN URLs are signed with query parameters (ex, is, hm).
        const url = `${rest.origin}${path}?ex=1&is=2&hm=signature`;
        return {
          id: attachmentId,
          filename: attachment.name,
          content_type: attachment.contentType,
          size: attachment.size ?? attachment.bytes.length,
          url,
          proxy_url: url,
        };
      }),
      embeds: [],
      pinned: false,
      type: 0,
    };
  }

  /** A message with uploads, as discord.js sends it: `payload_json` and `files[n]` parts. */
  async function multipartMessage(request: ReceivedRequest) {
    const form = await new Response(request.bytes, {
      headers: { 'content-type': String(request.headers['content-type']) },
    }).formData();
    const files: Array<{ name: string; bytes: Buffer }> = [];
    for (const [name, value] of form.entries()) {
      if (name.startsWith('files[') && typeof value !== 'string') {
        files.push({ name: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
      }
    }
    return { payload: JSON.parse(String(form.get('payload_json') ?? '{}')) as unknown, files };
  }

  const rest = await startLoopbackHttpServer(async (request: ReceivedRequest, response) => {
    const json = (status: number, body?: unknown) => {
      response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      response.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const file = attachmentFiles.get(request.path.split('?')[0] ?? '');
    if (request.method === 'GET' && file !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length });
      return response.end(file);
    }
    if (request.headers.authorization !== `Bot ${options.botToken}`) {
      return json(401, { message: '401: Unauthorized', code: 0 });
    }
    const path = request.path.replace(/^\/api\/v10/, '').split('?')[0] ?? '';
    if (request.method === 'GET' && path === '/gateway/bot') {
      return json(200, {
        url: gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    if (request.method === 'GET' && path === '/users/@me') return json(200, userObject(fakeDiscordBot));
    const typingMatch = /^\/channels\/(\d+)\/typing$/.exec(path);
    if (request.method === 'POST' && typingMatch) {
      typing.push(typingMatch[1]!);
      return json(204);
    }
    const messageMatch = /^\/channels\/(\d+)\/messages$/.exec(path);
    if (request.method === 'POST' && messageMatch) {
      const multipart = request.headers['content-type']?.startsWith('multipart/form-data') === true;
      const { payload, files } = multipart
        ? await multipartMessage(request)
        : { payload: JSON.parse(request.body), files: [] };
      const body = payload as {
        content: string;
        message_reference?: { message_id: string };
        allowed_mentions?: unknown;
      };
      const channelId = messageMatch[1]!;
      sent.push({
        channelId,
        content: body.content ?? '',
        ...(files.length > 0 ? { files } : {}),
        ...(body.message_reference ? { replyTo: body.message_reference.message_id } : {}),
        allowedMentions: body.allowed_mentions,
      });
      return json(200, {
        id: snowflake(),
        channel_id: channelId,
        author: userObject(fakeDiscordBot),
        content: body.content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
        type: body.message_reference ? 19 : 0,
      });
    }
    json(404, { message: '404: Not Found', code: 0 });
  });

  return {
    apiUrl: `${rest.origin}/api`,
    rest,
    sent,
    typing,
    identifies,
    heartbeats: () => heartbeats,
    openSockets: () => identified.size,
    resumes: () => resumes,
    dropConnections() {
      for (const socket of gateway.clients) socket.terminate();
    },
    closeConnections(code, reason) {
      for (const socket of gateway.clients) socket.close(code, reason);
    },
    clientCloses,
    onIdentifyMessageIds,
    dispatchMessage(message) {
      const id = snowflake();
      const data = messageData(id, message);
      for (const socket of identified) dispatch(socket, 'MESSAGE_CREATE', data);
      return id;
    },
    async close() {
      for (const client of gateway.clients) client.terminate();
      await new Promise<void>((resolve) => gateway.close(() => resolve()));
      await rest.close();
    },
  };
}
