import { createHmac } from 'node:crypto';
import { startLoopbackHttpServer, type LoopbackHttpServer } from './loopback-http-server.js';

/**
 * A fake Slack Web API on loopback, for the Slack connector's tests: it
 * answers `auth.test` (a token other than the one it was given gets
 * `invalid_auth`, as Slack answers) and `chat.postMessage`, and records every
 * message posted. Files users share are served at their `url_private`
 * (`/files-pri/…`) to the bot token only, every download recorded. Slack's Web API answers HTTP 200 with `ok: false` for
 * refused calls; this one does the same.
 */

export interface PostedSlackMessage {
  channel: string;
  text: string;
  thread_ts?: string;
  /** The bearer token the call carried. */
  token: string | undefined;
}

/** A file uploaded through files.getUploadURLExternal, the upload URL and files.completeUploadExternal. */
export interface UploadedSlackFile {
  fileId: string;
  filename: string;
  bytes: Buffer;
  /** Set once files.completeUploadExternal shared it. */
  channel?: string;
  thread_ts?: string;
}

/** A file object as Slack puts it in a message event's `files`. */
export interface SharedSlackFile {
  id: string;
  name: string;
  mimetype: string;
  size: number;
  url_private: string;
  url_private_download: string;
}

/** One request for a shared file, with the Authorization header it carried. */
export interface SlackFileRequest {
  path: string;
  authorization: string | undefined;
}

export interface FakeSlack {
  /** The Web API base to configure (`AGENTD_SLACK_API_URL`), ending in `/api/`. */
  apiUrl: string;
  posted: PostedSlackMessage[];
  uploads: UploadedSlackFile[];
  /** Keeps a file as shared by a user; `size` overrides the size reported (the bytes served stay as given). */
  shareFile(bytes: Buffer, file: { name: string; mimetype: string; size?: number }): SharedSlackFile;
  fileRequests: SlackFileRequest[];
  /** How many times auth.test was called. */
  authTests(): number;
  server: LoopbackHttpServer;
  close(): Promise<void>;
}

export const fakeSlackTeam = 'T0TEAM1';
export const fakeSlackBotUserId = 'U0BOT01';

function parameters(contentType: string | undefined, body: string): Record<string, string> {
  if (contentType?.includes('application/json')) return JSON.parse(body) as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(body));
}

export async function startFakeSlack(options: { botToken: string }): Promise<FakeSlack> {
  const posted: PostedSlackMessage[] = [];
  const uploads: UploadedSlackFile[] = [];
  const shared = new Map<string, Buffer>();
  const fileRequests: SlackFileRequest[] = [];
  let authTests = 0;
  const server = await startLoopbackHttpServer(async (request, response) => {
    const token = request.headers.authorization?.replace(/^Bearer /, '');
    if (request.path.startsWith('/files-pri/')) {
      fileRequests.push({ path: request.path, authorization: request.headers.authorization });
      const bytes = shared.get(request.path);
      // Slack sends a request without the token to its sign-in page: an HTML page, not the file.
      if (token !== options.botToken || bytes === undefined) {
        response.writeHead(302, { location: `${server.origin}/signin` });
        return response.end();
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
      return response.end(bytes);
    }
    if (request.path === '/signin') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<html>Sign in to Slack</html>');
    }
    const respond = (body: Record<string, unknown>) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const method = request.path.replace(/^\/api\//, '').split('?')[0];
    if (token !== options.botToken) return respond({ ok: false, error: 'invalid_auth' });
    const upload = /^\/upload\/(F[0-9]+)$/.exec(request.path);
    if (upload !== null) {
      const file = uploads.find((each) => each.fileId === upload[1]);
      if (file === undefined) return respond({ ok: false, error: 'not_found' });
      // Slack's upload URL takes the bytes raw or as a multipart part; the Web API client sends a part.
      if (request.headers['content-type']?.startsWith('multipart/form-data')) {
        const form = await new Response(request.bytes, {
          headers: { 'content-type': String(request.headers['content-type']) },
        }).formData();
        const part = [...form.values()].find((value) => typeof value !== 'string');
        file.bytes = part && typeof part !== 'string' ? Buffer.from(await part.arrayBuffer()) : Buffer.alloc(0);
      } else {
        file.bytes = request.bytes;
      }
      response.writeHead(200, { 'content-type': 'text/plain' });
      return response.end(`OK - ${file.bytes.length}`);
    }
    if (method === 'files.getUploadURLExternal') {
      const params = parameters(request.headers['content-type'], request.body);
      const fileId = `F${String(uploads.length + 1).padStart(8, '0')}`;
      uploads.push({ fileId, filename: params.filename ?? '', bytes: Buffer.alloc(0) });
      return respond({ ok: true, upload_url: `${server.origin}/upload/${fileId}`, file_id: fileId });
    }
    if (method === 'files.completeUploadExternal') {
      const params = parameters(request.headers['content-type'], request.body);
      const files = JSON.parse(params.files ?? '[]') as Array<{ id: string }>;
      for (const { id } of files) {
        const file = uploads.find((each) => each.fileId === id);
        if (file === undefined) return respond({ ok: false, error: 'file_not_found' });
        file.channel = params.channel_id;
        if (params.thread_ts) file.thread_ts = params.thread_ts;
      }
      return respond({ ok: true, files: files.map(({ id }) => ({ id })) });
    }
    if (method === 'auth.test') {
      authTests += 1;
      return respond({ ok: true, team_id: fakeSlackTeam, user_id: fakeSlackBotUserId, bot_id: 'B0BOT01' });
    }
    if (method === 'chat.postMessage') {
      const params = parameters(request.headers['content-type'], request.body);
      posted.push({
        channel: params.channel ?? '',
        text: params.text ?? '',
        ...(params.thread_ts ? { thread_ts: params.thread_ts } : {}),
        token,
      });
      return respond({ ok: true, channel: params.channel, ts: `${Date.now() / 1000}` });
    }
    respond({ ok: false, error: 'unknown_method' });
  });
  return {
    apiUrl: `${server.origin}/api/`,
    posted,
    uploads,
    shareFile(bytes, file) {
      const id = `F0SHARED${shared.size + 1}`;
      const path = `/files-pri/${fakeSlackTeam}-${id}/${encodeURIComponent(file.name)}`;
      const download = `/files-pri/${fakeSlackTeam}-${id}/download/${encodeURIComponent(file.name)}`;
      shared.set(path, bytes);
      shared.set(download, bytes);
      return {
        id,
        name: file.name,
        mimetype: file.mimetype,
        size: file.size ?? bytes.length,
        url_private: `${server.origin}${path}`,
        url_private_download: `${server.origin}${download}`,
      };
    },
    fileRequests,
    authTests: () => authTests,
    server,
    close: () => server.close(),
  };
}

/** Signs a request body as Slack does: `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>` with the signing secret. */
export function slackSignatureHeaders(
  signingSecret: string,
  body: string,
  timestampSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-slack-request-timestamp': String(timestampSeconds),
    'x-slack-signature': `v0=${signature}`,
  };
}

/** An Events API envelope around `event`, as Slack posts it. */
export function slackEventEnvelope(eventId: string, event: Record<string, unknown>): Record<string, unknown> {
  return {
    token: 'deprecated-verification-token',
    team_id: fakeSlackTeam,
    api_app_id: 'A0APP01',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: fakeSlackTeam, user_id: fakeSlackBotUserId, is_bot: true }],
    event,
  };
}
