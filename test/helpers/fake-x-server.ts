import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { startLoopbackHttpServer, type LoopbackHttpServer, type ReceivedRequest } from './loopback-http-server.js';

/**
 * A fake X API v2 on loopback for the x connector's tests: GET /2/users/me,
 * GET /2/users/{id}/mentions (newest first, `since_id`, `max_results`,
 * `pagination_token`), GET /2/users/{id}/following and POST /2/tweets (with
 * `reply.in_reply_to_tweet_id`). Requests are authenticated as X does: an
 * OAuth 1.0a header whose HMAC-SHA1 signature this fake recomputes (RFC
 * 5849: the method, the base URL and every query and oauth_ parameter; JSON
 * bodies are not signed), or a user access token as a Bearer. Anything else
 * is answered 401 with X's problem body. The test can answer the next calls of
 * a path with a status (a 429 with `x-rate-limit-reset`), or never answer them
 * (a post X has not taken when its caller dies). Post ids are past 2^53, as
 * X's are.
 */

export interface XCredentials {
  appKey: string;
  appSecret: string;
  accessToken: string;
  accessSecret: string;
}

export interface XAccount {
  id: string;
  username: string;
  oauth1?: XCredentials;
  userAccessToken?: string;
  /** Ids of the accounts it follows. */
  following: string[];
}

export interface XPostRecord {
  id: string;
  text: string;
  authorId: string;
  conversationId: string;
  inReplyTo: string | null;
}

export interface XCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  /** The account the request authenticated as, or null when it was refused. */
  accountId: string | null;
  /** How: `oauth1` (signature checked), `bearer`, or why it was refused. */
  auth: 'oauth1' | 'bearer' | 'bad-signature' | 'unknown';
  at: number;
}

export interface FakeX {
  /** What to give AGENTD_X_API_URL. */
  apiUrl: string;
  calls: XCall[];
  callsTo(pathPattern: RegExp, accountId?: string): XCall[];
  addAccount(account: Omit<XAccount, 'following'> & { following?: string[] }): void;
  /** A post by `authorId` mentioning `mentioned` (by id); returns its id. */
  mention(mentioned: string, post: { authorId: string; text: string; inReplyTo?: string }): string;
  /** Posts the account made (POST /2/tweets), in order. */
  postsBy(accountId: string): XPostRecord[];
  post(id: string): XPostRecord | undefined;
  /** Answers the next `count` requests whose path matches with `status` (and headers). */
  failNext(pathPattern: RegExp, count: number, status: number, headers?: Record<string, string>): void;
  /** Never answers the next `count` requests whose path matches (they are listed in `calls`, and not acted on). */
  holdNext(pathPattern: RegExp, count: number): void;
  close(): Promise<void>;
}

const percent = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

function parseOAuthHeader(header: string): Record<string, string> | null {
  if (!header.startsWith('OAuth ')) return null;
  const fields: Record<string, string> = {};
  for (const part of header.slice(6).split(',')) {
    const match = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part);
    if (match) fields[match[1]!] = decodeURIComponent(match[2]!);
  }
  return fields;
}

/** RFC 5849 §3.4: the signature base string and HMAC-SHA1 with consumer and token secrets. */
function oauthSignature(
  method: string,
  baseUrl: string,
  parameters: Array<[string, string]>,
  consumerSecret: string,
  tokenSecret: string,
): string {
  const normalized = parameters
    .map(([key, value]) => [percent(key), percent(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const base = [method.toUpperCase(), percent(baseUrl), percent(normalized)].join('&');
  return createHmac('sha1', `${percent(consumerSecret)}&${percent(tokenSecret)}`)
    .update(base)
    .digest('base64');
}

function send(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (response.writableEnded || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

const problem = (status: number, title: string, detail = title) => ({ title, detail, type: 'about:blank', status });

export async function startFakeX(): Promise<FakeX> {
  const accounts = new Map<string, XAccount>();
  const posts: XPostRecord[] = [];
  const mentions = new Map<string, string[]>(); // account id → post ids mentioning it, oldest first
  const calls: XCall[] = [];
  const failures: Array<{ pattern: RegExp; count: number; status: number; headers: Record<string, string> }> = [];
  const holds: Array<{ pattern: RegExp; count: number }> = [];
  let nextId = 1_800_000_000_000_000_000n;
  const newId = () => String((nextId += 1_000n));
  let server: LoopbackHttpServer;

  function authenticate(request: ReceivedRequest, url: URL): { account: XAccount | null; auth: XCall['auth'] } {
    const header = request.headers.authorization ?? '';
    if (header.startsWith('Bearer ')) {
      const token = header.slice(7);
      const account = [...accounts.values()].find((candidate) => candidate.userAccessToken === token) ?? null;
      return { account, auth: account ? 'bearer' : 'unknown' };
    }
    const oauth = parseOAuthHeader(header);
    if (oauth === null) return { account: null, auth: 'unknown' };
    const account =
      [...accounts.values()].find(
        (candidate) =>
          candidate.oauth1?.appKey === oauth.oauth_consumer_key && candidate.oauth1?.accessToken === oauth.oauth_token,
      ) ?? null;
    if (account === null || account.oauth1 === undefined) return { account: null, auth: 'unknown' };
    const parameters: Array<[string, string]> = [...url.searchParams.entries()];
    for (const [key, value] of Object.entries(oauth)) if (key !== 'oauth_signature') parameters.push([key, value]);
    const expected = oauthSignature(
      request.method,
      `${url.origin}${url.pathname}`,
      parameters,
      account.oauth1.appSecret,
      account.oauth1.accessSecret,
    );
    const given = Buffer.from(oauth.oauth_signature ?? '');
    const valid = given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
    return valid ? { account, auth: 'oauth1' } : { account: null, auth: 'bad-signature' };
  }

  const postView = (post: XPostRecord) => ({
    id: post.id,
    text: post.text,
    author_id: post.authorId,
    conversation_id: post.conversationId,
    edit_history_tweet_ids: [post.id],
  });

  function handle(request: ReceivedRequest, response: http.ServerResponse) {
    const url = new URL(request.path, server.origin);
    const query = Object.fromEntries(url.searchParams.entries());
    let body: any = null;
    try {
      body = request.body ? JSON.parse(request.body) : null;
    } catch {
      body = null;
    }
    const { account, auth } = authenticate(request, url);
    calls.push({
      method: request.method,
      path: url.pathname,
      query,
      body,
      accountId: account?.id ?? null,
      auth,
      at: Date.now(),
    });
    if (account === null) return send(response, 401, problem(401, 'Unauthorized'));
    const hold = holds.find((candidate) => candidate.count > 0 && candidate.pattern.test(url.pathname));
    if (hold) {
      hold.count -= 1;
      return;
    }
    const failure = failures.find((candidate) => candidate.count > 0 && candidate.pattern.test(url.pathname));
    if (failure) {
      failure.count -= 1;
      return send(
        response,
        failure.status,
        problem(failure.status, failure.status === 429 ? 'Too Many Requests' : 'Failure'),
        failure.headers,
      );
    }
    const limits = {
      'x-rate-limit-limit': '450',
      'x-rate-limit-remaining': '449',
      'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + 900),
    };
    if (request.method === 'GET' && url.pathname === '/2/users/me') {
      return send(
        response,
        200,
        { data: { id: account.id, name: account.username, username: account.username } },
        limits,
      );
    }
    let match = /^\/2\/users\/([0-9]+)\/mentions$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      if (match[1] !== account.id) return send(response, 403, problem(403, 'Forbidden'));
      const since = query.since_id ? BigInt(query.since_id) : null;
      const size = Math.min(100, Math.max(5, Number(query.max_results ?? 10)));
      const newestFirst = [...(mentions.get(account.id) ?? [])]
        .reverse()
        .filter((id) => since === null || BigInt(id) > since);
      const start = query.pagination_token ? Number(query.pagination_token) : 0;
      const page = newestFirst.slice(start, start + size);
      const data = page.map((id) => postView(posts.find((post) => post.id === id)!));
      const meta: Record<string, unknown> = { result_count: data.length };
      if (data.length > 0) Object.assign(meta, { newest_id: data[0]!.id, oldest_id: data.at(-1)!.id });
      if (start + size < newestFirst.length) meta.next_token = String(start + size);
      return send(response, 200, data.length > 0 ? { data, meta } : { meta }, limits);
    }
    match = /^\/2\/users\/([0-9]+)\/following$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      const data = account.following.map((id) => ({ id, name: id, username: `user${id}` }));
      return send(response, 200, { data, meta: { result_count: data.length } }, limits);
    }
    if (request.method === 'POST' && url.pathname === '/2/tweets') {
      if (typeof body?.text !== 'string' || body.text === '')
        return send(response, 400, problem(400, 'Invalid Request'));
      const inReplyTo: string | null = body.reply?.in_reply_to_tweet_id ?? null;
      const parent = inReplyTo === null ? undefined : posts.find((post) => post.id === inReplyTo);
      if (inReplyTo !== null && parent === undefined)
        return send(response, 400, problem(400, 'Invalid Request', 'reply target not found'));
      const id = newId();
      posts.push({
        id,
        text: body.text,
        authorId: account.id,
        conversationId: parent?.conversationId ?? id,
        inReplyTo,
      });
      return send(response, 201, { data: { id, text: body.text, edit_history_tweet_ids: [id] } });
    }
    return send(response, 404, problem(404, 'Not Found'));
  }

  server = await startLoopbackHttpServer(handle);
  return {
    apiUrl: server.origin,
    calls,
    callsTo: (pattern, accountId) =>
      calls.filter((call) => pattern.test(call.path) && (accountId === undefined || call.accountId === accountId)),
    addAccount(account) {
      accounts.set(account.id, { following: [], ...account });
    },
    mention(mentioned, post) {
      const id = newId();
      const parent = post.inReplyTo ? posts.find((candidate) => candidate.id === post.inReplyTo) : undefined;
      posts.push({
        id,
        text: post.text,
        authorId: post.authorId,
        conversationId: parent?.conversationId ?? id,
        inReplyTo: post.inReplyTo ?? null,
      });
      mentions.set(mentioned, [...(mentions.get(mentioned) ?? []), id]);
      return id;
    },
    postsBy: (accountId) => posts.filter((post) => post.authorId === accountId),
    post: (id) => posts.find((post) => post.id === id),
    failNext(pattern, count, status, headers = {}) {
      failures.push({ pattern, count, status, headers });
    },
    holdNext(pattern, count) {
      holds.push({ pattern, count });
    },
    close: () => server.close(),
  };
}
