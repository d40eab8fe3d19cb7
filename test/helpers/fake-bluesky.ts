import { createHash, randomBytes } from 'node:crypto';
import type http from 'node:http';
import { startLoopbackHttpServer, type LoopbackHttpServer, type ReceivedRequest } from './loopback-http-server.js';

/**
 * A fake Bluesky PDS (XRPC over HTTP) on loopback for the bluesky connector's
 * tests: createSession, refreshSession, listNotifications (newest first, with
 * a cursor), updateSeen, createRecord, getRecord and resolveHandle. Answers
 * are shaped to pass @atproto/api's checks of its lexicons (real CIDs, DIDs,
 * handles, datetimes). createRecord checks the post it receives as the
 * network would: `$type`, text within 300 graphemes, a `createdAt`, reply
 * references whose root and parent are existing posts (the root being the
 * parent's root), and facets whose byte ranges hold the link or @handle they
 * name; posts that fail are refused 400 and listed in `shapeProblems`. The
 * test can fail the next calls of a method, or never answer them.
 */

export interface BlueskyAccount {
  did: string;
  handle: string;
  appPassword: string;
}

export interface StoredPost {
  uri: string;
  cid: string;
  authorDid: string;
  record: Record<string, any>;
  indexedAt: string;
}

export interface BlueskyCall {
  method: string;
  nsid: string;
  query: Record<string, string>;
  body: any;
  /** The account whose session the request used, or null. */
  did: string | null;
  at: number;
}

export interface FakeBluesky {
  /** What to give AGENTD_BLUESKY_SERVICE_URL. */
  serviceUrl: string;
  calls: BlueskyCall[];
  callsTo(nsid: string, did?: string): BlueskyCall[];
  addAccount(account: BlueskyAccount): void;
  /**
   * A post by `from` that mentions `to` (a notification `mention`), or, with
   * `replyTo`, a reply to one of `to`'s posts (a notification `reply`).
   */
  mention(to: string, from: { did: string; handle: string }, text: string, replyTo?: string): StoredPost;
  postsBy(did: string): StoredPost[];
  post(uri: string): StoredPost | undefined;
  /** The `seenAt` each account last sent with updateSeen. */
  seenAt(did: string): string | null;
  shapeProblems: string[];
  failNext(nsid: string, count: number, status: number, headers?: Record<string, string>): void;
  /** Never answers the next `count` calls of `nsid` (they are listed in `calls`, and not acted on). */
  holdNext(nsid: string, count: number): void;
  close(): Promise<void>;
}

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += base32Alphabet[(value << (5 - bits)) & 31];
  return output;
}

/** A CIDv1 (dag-cbor, sha2-256) in base32, as the network names records; over the JSON here, for uniqueness. */
export function cidOf(content: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(content)).update(randomBytes(8)).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, 0x71, 0x12, 0x20]), digest]))}`;
}

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** ASCII without CR LF is a grapheme a character; segmenting it was most of this fake's time under load. */
function graphemes(text: string): number {
  if (/^[\x00-\x7f]*$/.test(text) && !text.includes('\r\n')) return text.length;
  let count = 0;
  for (const _ of graphemeSegmenter.segment(text)) count += 1;
  return count;
}

function send(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (response.writableEnded || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

export async function startFakeBluesky(): Promise<FakeBluesky> {
  const accounts = new Map<string, BlueskyAccount>();
  const sessions = new Map<string, string>(); // access or refresh token → did
  const posts: StoredPost[] = [];
  /** The same posts by URI: the checks of every reply look up its root and parent. */
  const postsByUri = new Map<string, StoredPost>();
  const notifications = new Map<string, Array<{ post: StoredPost; reason: string }>>();
  const seen = new Map<string, string>();
  const calls: BlueskyCall[] = [];
  const shapeProblems: string[] = [];
  const failures: Array<{ nsid: string; count: number; status: number; headers: Record<string, string> }> = [];
  const holds = new Map<string, number>();
  let clock = Date.now();
  let rkeys = 0;
  // Strictly increasing index times, as a PDS's are in practice at this rate.
  const indexedAt = () => new Date((clock = Math.max(clock + 1, Date.now()))).toISOString();
  let server: LoopbackHttpServer;

  const profile = (did: string) => {
    const account = accounts.get(did);
    return { did, handle: account?.handle ?? `${did.slice(-8)}.test` };
  };

  function store(authorDid: string, record: Record<string, any>): StoredPost {
    rkeys += 1;
    const rkey = `3l${String(rkeys).padStart(11, '0')}`;
    const post = {
      uri: `at://${authorDid}/app.bsky.feed.post/${rkey}`,
      cid: cidOf(record),
      authorDid,
      record,
      indexedAt: indexedAt(),
    };
    posts.push(post);
    postsByUri.set(post.uri, post);
    return post;
  }

  /** The network's checks of a post record; empty when it is well formed. */
  function problemsOf(record: Record<string, any>): string[] {
    const problems: string[] = [];
    if (record.$type !== 'app.bsky.feed.post') problems.push('$type is not app.bsky.feed.post');
    if (typeof record.text !== 'string') problems.push('text is missing');
    else if (graphemes(record.text) > 300) problems.push(`text is ${graphemes(record.text)} graphemes`);
    if (typeof record.createdAt !== 'string' || Number.isNaN(Date.parse(record.createdAt)))
      problems.push('createdAt is missing');
    if (record.reply !== undefined) {
      const { root, parent } = record.reply;
      const existing = (ref: { uri?: string; cid?: string } | undefined) => {
        const post = ref?.uri === undefined ? undefined : postsByUri.get(ref.uri);
        return post !== undefined && post.cid === ref?.cid ? post : undefined;
      };
      const rootPost = existing(root);
      const parentPost = existing(parent);
      if (rootPost === undefined) problems.push('reply.root is not an existing post (uri and cid)');
      if (parentPost === undefined) problems.push('reply.parent is not an existing post (uri and cid)');
      const parentRoot = parentPost?.record.reply?.root?.uri ?? parentPost?.uri;
      if (parentPost && rootPost && parentRoot !== rootPost.uri) problems.push("reply.root is not the parent's root");
    }
    const bytes = Buffer.from(typeof record.text === 'string' ? record.text : '', 'utf8');
    for (const facet of record.facets ?? []) {
      const { byteStart, byteEnd } = facet.index ?? {};
      const slice = bytes.subarray(byteStart, byteEnd).toString('utf8');
      for (const feature of facet.features ?? []) {
        if (feature.$type === 'app.bsky.richtext.facet#link' && slice !== feature.uri && !feature.uri.endsWith(slice))
          problems.push(`link facet [${byteStart}, ${byteEnd}) holds "${slice}", not ${feature.uri}`);
        if (feature.$type === 'app.bsky.richtext.facet#mention') {
          const handle = slice.replace(/^@/, '');
          const account = [...accounts.values()].find((candidate) => candidate.handle === handle);
          if (account?.did !== feature.did) problems.push(`mention facet of ${slice} names ${feature.did}`);
        }
      }
    }
    return problems;
  }

  function handle(request: ReceivedRequest, response: http.ServerResponse) {
    const url = new URL(request.path, server.origin);
    const nsid = url.pathname.replace(/^\/xrpc\//, '');
    const query = Object.fromEntries(url.searchParams.entries());
    let body: any = null;
    try {
      body = request.body ? JSON.parse(request.body) : null;
    } catch {
      body = null;
    }
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const did = sessions.get(token) ?? null;
    calls.push({ method: request.method, nsid, query, body, did, at: Date.now() });
    const holdsLeft = holds.get(nsid) ?? 0;
    if (holdsLeft > 0) {
      holds.set(nsid, holdsLeft - 1);
      return;
    }
    const failure = failures.find((candidate) => candidate.count > 0 && candidate.nsid === nsid);
    if (failure) {
      failure.count -= 1;
      return send(
        response,
        failure.status,
        { error: failure.status === 429 ? 'RateLimitExceeded' : 'InternalServerError', message: 'Failure' },
        failure.headers,
      );
    }
    if (nsid === 'com.atproto.server.createSession') {
      const account = [...accounts.values()].find(
        (candidate) =>
          (candidate.handle === body?.identifier || candidate.did === body?.identifier) &&
          candidate.appPassword === body?.password,
      );
      if (account === undefined) {
        return send(response, 401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
      }
      const accessJwt = `access-${randomBytes(12).toString('hex')}`;
      const refreshJwt = `refresh-${randomBytes(12).toString('hex')}`;
      sessions.set(accessJwt, account.did);
      sessions.set(refreshJwt, account.did);
      return send(response, 200, { accessJwt, refreshJwt, handle: account.handle, did: account.did, active: true });
    }
    if (nsid === 'com.atproto.identity.resolveHandle') {
      const account = [...accounts.values()].find((candidate) => candidate.handle === query.handle);
      if (account === undefined)
        return send(response, 400, { error: 'InvalidRequest', message: 'Unable to resolve handle' });
      return send(response, 200, { did: account.did });
    }
    if (did === null)
      return send(response, 401, { error: 'AuthenticationRequired', message: 'Authentication Required' });
    if (nsid === 'app.bsky.notification.listNotifications') {
      const limit = Math.min(100, Number(query.limit ?? 50));
      const all = [...(notifications.get(did) ?? [])].reverse();
      const start = query.cursor ? Number(query.cursor) : 0;
      const page = all.slice(start, start + limit);
      const lastSeen = seen.get(did);
      return send(response, 200, {
        notifications: page.map(({ post, reason }) => ({
          uri: post.uri,
          cid: post.cid,
          author: profile(post.authorDid),
          reason,
          record: post.record,
          isRead: lastSeen !== undefined && post.indexedAt <= lastSeen,
          indexedAt: post.indexedAt,
        })),
        ...(start + limit < all.length ? { cursor: String(start + limit) } : {}),
        ...(lastSeen ? { seenAt: lastSeen } : {}),
      });
    }
    if (nsid === 'app.bsky.notification.updateSeen') {
      seen.set(did, body?.seenAt);
      response.writeHead(200).end();
      return;
    }
    if (nsid === 'com.atproto.repo.createRecord') {
      if (body?.repo !== did || body?.collection !== 'app.bsky.feed.post') {
        shapeProblems.push(`createRecord in ${body?.repo}/${body?.collection} by ${did}`);
        return send(response, 400, { error: 'InvalidRequest', message: 'repo or collection' });
      }
      const problems = problemsOf(body.record ?? {});
      if (problems.length > 0) {
        shapeProblems.push(...problems);
        return send(response, 400, { error: 'InvalidRequest', message: problems.join('; ') });
      }
      const post = store(did, body.record);
      const parentAuthor = postsByUri.get(body.record.reply?.parent?.uri)?.authorDid;
      if (parentAuthor !== undefined && parentAuthor !== did) {
        notifications.set(parentAuthor, [...(notifications.get(parentAuthor) ?? []), { post, reason: 'reply' }]);
      }
      return send(response, 200, { uri: post.uri, cid: post.cid, validationStatus: 'valid' });
    }
    if (nsid === 'com.atproto.repo.getRecord') {
      const post = postsByUri.get(`at://${query.repo}/${query.collection}/${query.rkey}`);
      if (post === undefined)
        return send(response, 400, { error: 'RecordNotFound', message: 'Could not locate record' });
      return send(response, 200, { uri: post.uri, cid: post.cid, value: post.record });
    }
    return send(response, 501, { error: 'MethodNotImplemented', message: `${nsid} is not implemented` });
  }

  server = await startLoopbackHttpServer(handle);
  return {
    serviceUrl: server.origin,
    calls,
    callsTo: (nsid, did) => calls.filter((call) => call.nsid === nsid && (did === undefined || call.did === did)),
    addAccount(account) {
      accounts.set(account.did, account);
    },
    mention(to, from, text, replyTo) {
      const parent = replyTo === undefined ? undefined : postsByUri.get(replyTo);
      const record: Record<string, any> = { $type: 'app.bsky.feed.post', text, createdAt: new Date().toISOString() };
      if (parent !== undefined) {
        const root = parent.record.reply?.root ?? { uri: parent.uri, cid: parent.cid };
        record.reply = { root, parent: { uri: parent.uri, cid: parent.cid } };
      } else {
        const handle = accounts.get(to)?.handle ?? '';
        const at = Buffer.from(text, 'utf8').indexOf(`@${handle}`);
        if (at >= 0) {
          record.facets = [
            {
              index: { byteStart: at, byteEnd: at + Buffer.byteLength(`@${handle}`) },
              features: [{ $type: 'app.bsky.richtext.facet#mention', did: to }],
            },
          ];
        }
      }
      const post = store(from.did, record);
      const reason = parent !== undefined && parent.authorDid === to ? 'reply' : 'mention';
      notifications.set(to, [...(notifications.get(to) ?? []), { post, reason }]);
      return post;
    },
    postsBy: (did) => posts.filter((post) => post.authorDid === did),
    post: (uri) => postsByUri.get(uri),
    seenAt: (did) => seen.get(did) ?? null,
    shapeProblems,
    failNext(nsid, count, status, headers = {}) {
      failures.push({ nsid, count, status, headers });
    },
    holdNext(nsid, count) {
      holds.set(nsid, count);
    },
    close: () => server.close(),
  };
}
