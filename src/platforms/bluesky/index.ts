import type { AtpAgent } from '@atproto/api';
import { takeInOrder } from '../in-order.js';
import { pollUntilStopped } from '../poll-loop.js';
import { answerTaken } from '../taken-items.js';
import {
  PlatformCredentialsRejected,
  PlatformPostFailed,
  type InboundMessage,
  type PlatformConnection,
  type PlatformContext,
  type PlatformDefinition,
  type TakenItem,
} from '../platform.js';
import {
  atproto,
  createBlueskyAgent,
  describeBlueskyFault,
  isRejection,
  rateLimitResetOf,
  rejectionOf,
  requireSecrets,
} from './client.js';
import { blueskySecretsSchema, blueskySettingsSchema, type BlueskySecrets, type BlueskySettings } from './settings.js';
import { splitForBluesky } from './text.js';

/** Notifications read per call, and how many pages back one poll reads at most (1,000 notifications). */
const pageSize = 50;
const maxPages = 20;
/** Notifications answered at a time by one poller, within the agent's in-flight limit (10). */
const answerConcurrency = 4;
const defaultRateWaitMs = 60_000;

interface StrongRef {
  uri: string;
  cid: string;
}

interface PostRecord {
  text?: unknown;
  reply?: { root?: StrongRef; parent?: StrongRef };
}

interface Notification {
  uri: string;
  cid: string;
  author: { did: string; handle: string };
  reason: string;
  record: Record<string, unknown>;
  indexedAt: string;
}

/** A mention's or reply's text without the run of @handles at its start. */
export function notificationContent(text: string): string {
  return text.replace(/^(?:@[a-zA-Z0-9.-]+\s+)+/u, '').trim();
}

/**
 * The reply references of an answer to `post`: its thread's root (the post
 * itself when it starts the thread) and the post as the parent.
 */
export function replyRefsFor(post: StrongRef, record: PostRecord): { root: StrongRef; parent: StrongRef } {
  const root = record.reply?.root;
  const parent = { uri: post.uri, cid: post.cid };
  return {
    root:
      root && typeof root.uri === 'string' && typeof root.cid === 'string' ? { uri: root.uri, cid: root.cid } : parent,
    parent,
  };
}

/**
 * Posts `parts` as a thread: the first under `reply` (or a post of its own),
 * each next one under the previous, all with the same root. Links and
 * @handles become rich text facets (handles resolved to DIDs).
 */
async function postThread(
  agent: AtpAgent,
  parts: string[],
  reply: { root: StrongRef; parent: StrongRef } | null,
  context: PlatformContext,
  source: 'reply' | 'post',
): Promise<void> {
  let refs = reply;
  const { RichText } = await atproto();
  for (const [index, part] of parts.entries()) {
    const text = new RichText({ text: part });
    await text.detectFacets(agent);
    const posted = await agent.post({
      text: text.text,
      ...(text.facets !== undefined && text.facets.length > 0 ? { facets: text.facets } : {}),
      ...(refs !== null ? { reply: refs } : {}),
      createdAt: new Date(context.clock.now()).toISOString(),
    });
    context.recordPost('posted', {
      postId: posted.uri,
      inReplyTo: refs?.parent.uri ?? null,
      part: index + 1,
      parts: parts.length,
      source,
    });
    const self = { uri: posted.uri, cid: posted.cid };
    refs = { root: refs?.root ?? self, parent: self };
  }
}

/** What of a notification is stored with its take, to answer it after a takeover. */
function takenNotification(notification: Notification): string {
  const { uri, cid, author, reason, record, indexedAt } = notification;
  return JSON.stringify({ uri, cid, author: { did: author.did, handle: author.handle }, reason, record, indexedAt });
}

const threadOf = (notification: Notification) => replyRefsFor(notification, notification.record as PostRecord).root.uri;

class NotificationPoller {
  constructor(
    private readonly agent: AtpAgent,
    private readonly did: string,
    private readonly settings: BlueskySettings,
    private readonly secrets: BlueskySecrets,
    private readonly context: PlatformContext,
  ) {}

  async run(): Promise<void> {
    const { context } = this;
    // What an instance took and left unanswered (it died, or stopped) is answered here once taken over.
    context.items.answerTakenOver((taken) => this.#answer(JSON.parse(taken.pending) as Notification, taken.signal));
    await pollUntilStopped({
      platform: 'bluesky',
      notRead: 'Bluesky notifications not read',
      context,
      intervalMs: this.settings.pollIntervalSeconds * 1000,
      pollOnce: () => this.#pollOnce(),
      classify: (error) => {
        if (isRejection(error)) return { kind: 'rejected', failure: rejectionOf(error, this.secrets) };
        const reset = rateLimitResetOf(error);
        if (reset !== undefined) {
          return {
            kind: 'rate-limited',
            waitMs: reset !== null ? Math.max(0, reset - context.clock.now()) : defaultRateWaitMs,
          };
        }
        return { kind: 'fault', described: describeBlueskyFault(error, this.secrets) };
      },
    });
  }

  /** Notifications indexed at or after `since` (epoch ms), newest first, every page back to it. */
  async #read(since: number | null): Promise<Notification[]> {
    const found: Notification[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const response = await this.agent.listNotifications({
        limit: since === null ? 1 : pageSize,
        ...(cursor !== undefined ? { cursor } : {}),
      });
      const notifications = response.data.notifications as Notification[];
      found.push(...notifications);
      cursor = response.data.cursor;
      const oldest = notifications.at(-1);
      if (since === null || cursor === undefined || oldest === undefined) break;
      if (Date.parse(oldest.indexedAt) < since) break;
    }
    return found;
  }

  async #pollOnce(): Promise<void> {
    const { context } = this;
    const since = await context.positions.last();
    const notifications = await this.#read(since);
    if (since === null) {
      // The first start answers from now on: the account's earlier notifications are not news.
      const newest = notifications[0];
      await context.positions.claim(newest ? Date.parse(newest.indexedAt) : context.clock.now());
      return;
    }
    const reasons = this.settings.answerReplies ? ['mention', 'reply'] : ['mention'];
    const due = notifications
      .filter((notification) => reasons.includes(notification.reason) && notification.author.did !== this.did)
      .filter((notification) => Date.parse(notification.indexedAt) >= since)
      .sort((first, second) => Date.parse(first.indexedAt) - Date.parse(second.indexedAt));
    let seenAt: string | null = null;
    // Each is recorded with this instance's claim before it is answered, by its URI and with the notification
    // itself (whichever instance takes it answers it, once; if that one dies first, a live poller takes it over), in
    // order; a thread's posts are answered one after the other. The position moves past a notification another
    // poller took too.
    const takes = new Map<string, TakenItem>();
    await takeInOrder(
      due,
      answerConcurrency,
      context.signal,
      async (notification) => {
        const taken = await context.items.take(notification.uri, takenNotification(notification));
        await context.positions.claim(Date.parse(notification.indexedAt));
        if (taken !== null) takes.set(notification.uri, taken);
        return taken !== null;
      },
      async (notification) => {
        const taken = takes.get(notification.uri)!;
        takes.delete(notification.uri);
        context.markEvent();
        context.recordPost('received', { postId: notification.uri, userId: `bluesky:${notification.author.did}` });
        await answerTaken(taken, () => this.#answer(notification, taken.signal));
        if (seenAt === null || notification.indexedAt > seenAt) seenAt = notification.indexedAt;
      },
      threadOf,
    );
    if (seenAt !== null) await this.agent.updateSeenNotifications(seenAt as `${string}`).catch(() => undefined);
  }

  /**
   * True once the notification is answered or definitively not (nothing to
   * answer, the agent's limits, the PDS refusing the reply): false only when
   * the connector stopped first.
   */
  async #answer(notification: Notification, signal: AbortSignal): Promise<boolean> {
    const { context } = this;
    const record = notification.record as PostRecord;
    const content = typeof record.text === 'string' ? notificationContent(record.text) : '';
    if (content === '') return true;
    const refs = replyRefsFor(notification, record);
    const inbound: InboundMessage = {
      userId: `bluesky:${notification.author.did}`,
      roomId: `bluesky:${refs.root.uri}`,
      content,
    };
    try {
      const reply = await context.handleMessage(inbound, { signal });
      if (signal.aborted) return false;
      // The agent's limits refused it: a public "too many messages" reply would only add to the noise.
      if (reply.limited) {
        context.logger.warn(
          { agentId: context.agentId, platform: 'bluesky', postId: notification.uri },
          'Bluesky notification over the agent’s limits, not answered',
        );
        return true;
      }
      await postThread(this.agent, splitForBluesky(reply.text), refs, context, 'reply');
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      if (isRejection(error)) throw error;
      context.logger.warn(
        {
          agentId: context.agentId,
          platform: 'bluesky',
          postId: notification.uri,
          error: describeBlueskyFault(error, this.secrets),
        },
        'Bluesky notification not answered',
      );
      return true;
    }
  }
}

/** Logs in with the app password; the session's tokens stay in memory (AtpAgent refreshes them). */
async function login(settings: BlueskySettings, secrets: BlueskySecrets, context: PlatformContext) {
  const credentials = requireSecrets(secrets);
  const agent = await createBlueskyAgent(settings, context);
  try {
    const session = await agent.login({ identifier: credentials.identifier, password: credentials.password });
    return { agent, did: session.data.did };
  } catch (error) {
    if (isRejection(error)) throw rejectionOf(error, secrets);
    throw new Error(describeBlueskyFault(error, secrets));
  }
}

export const blueskyPlatform: PlatformDefinition<typeof blueskySettingsSchema, typeof blueskySecretsSchema> = {
  type: 'bluesky',
  description:
    'A Bluesky account (AT Protocol, @atproto/api) with an app password: answers mentions and replies (notifications ' +
    'read on one instance at a time) in their thread with correct root and parent references, long answers as a ' +
    'numbered thread within 300 graphemes a post, links and @handles as rich text; posts task outputs. The speaker ' +
    'is `bluesky:<did>`, the thread the room `bluesky:<root post URI>`.',
  settingsSchema: blueskySettingsSchema,
  secretsSchema: blueskySecretsSchema,
  runsOnLease: () => true,
  // The identifier and app password go to this PDS (unset: the operator's); another one is a new destination.
  secretDestination: (settings) => ({ serviceUrl: settings.serviceUrl }),

  async start(settings, secrets, context): Promise<PlatformConnection> {
    const { agent, did } = await login(settings, secrets, context);
    const polling = new NotificationPoller(agent, did, settings, secrets, context).run();
    return {
      stop: async () => {
        await polling;
      },
    };
  },

  /** `target` `timeline` makes a post of its own; an at:// post URI makes the text a reply in its thread. */
  async postText(target, text, settings, secrets, context): Promise<void> {
    if (target !== 'timeline' && !/^at:\/\/[^/]+\/app\.bsky\.feed\.post\/[A-Za-z0-9._~:-]+$/.test(target)) {
      throw new PlatformPostFailed('refused', 'a bluesky target is `timeline` or the at:// URI of a post to reply to');
    }
    const parts = splitForBluesky(text);
    if (parts.length === 0) throw new PlatformPostFailed('refused', 'there is nothing to post');
    try {
      const { agent } = await login(settings, secrets, context);
      let reply: { root: StrongRef; parent: StrongRef } | null = null;
      if (target !== 'timeline') {
        const [, repo = '', , rkey = ''] = target.slice('at://'.length).split('/');
        const found = await agent.com.atproto.repo.getRecord({ repo, collection: 'app.bsky.feed.post', rkey });
        if (found.data.cid === undefined) throw new PlatformPostFailed('refused', 'the post to reply to has no cid');
        reply = replyRefsFor({ uri: found.data.uri, cid: found.data.cid }, found.data.value as PostRecord);
      }
      await postThread(agent, parts, reply, context, 'post');
    } catch (error) {
      if (error instanceof PlatformPostFailed) throw error;
      if (error instanceof PlatformCredentialsRejected) throw new PlatformPostFailed('refused', error.message);
      const reset = rateLimitResetOf(error);
      if (reset !== undefined) {
        throw new PlatformPostFailed('rate_limited', describeBlueskyFault(error, secrets), reset);
      }
      throw new PlatformPostFailed(
        error instanceof Error && error.name === 'XRPCError' ? 'refused' : 'unreachable',
        describeBlueskyFault(error, secrets),
      );
    }
  },
};
