import type { TwitterApi } from 'twitter-api-v2';
import { abortableDelay } from '../../providers/abortable-delay.js';
import { takeInOrder } from '../in-order.js';
import { pollUntilStopped } from '../poll-loop.js';
import { answerTaken } from '../taken-items.js';
import {
  PlatformPostFailed,
  type PlatformConnection,
  type PlatformContext,
  type PlatformDefinition,
  type TakenItem,
} from '../platform.js';
import { createXClient, credentialsRejected, describeXFault, XApiError } from './client.js';
import { byIdAscending, inboundFromMention, type XPost } from './mentions.js';
import { xSecretsSchema, xSettingsSchema, type XSecrets, type XSettings } from './settings.js';
import { splitForX } from './text.js';

/** X keeps the 800 newest mentions readable: eight pages of 100 reach back as far as it lets anyone. */
const maxPages = 8;
const followingRefreshMs = 15 * 60_000;
/**
 * Mentions answered at a time by one poller: a burst is answered by the
 * model in parallel, within the agent's in-flight limit (10).
 */
export const answerConcurrency = 4;
/** Without a reset header, a 429 waits this long. */
const defaultRateWaitMs = 60_000;

interface XAccount {
  id: string;
  username: string;
}

interface MentionsPage {
  data?: XPost[];
  meta?: { next_token?: string; newest_id?: string; result_count?: number };
}

/**
 * Runs `call`; on a 429 waits until the reset X names (or a minute), then
 * tries once more, up to `attempts` times: never a request inside a window X
 * said is spent.
 */
async function rateLimited<T>(call: () => Promise<T>, context: PlatformContext, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof XApiError) || error.status !== 429 || attempt >= attempts || context.signal.aborted) {
        throw error;
      }
      await waitForReset(error, context);
    }
  }
}

/** How long until the window X named in its 429 resets (or a minute without one). */
function resetWaitMs(error: XApiError, context: PlatformContext): number {
  return error.resetAt !== null ? Math.max(0, error.resetAt - context.clock.now()) : defaultRateWaitMs;
}

async function waitForReset(error: XApiError, context: PlatformContext): Promise<void> {
  const waitMs = resetWaitMs(error, context);
  context.logger.warn(
    { agentId: context.agentId, platform: 'x', waitMs, resetAt: error.resetAt },
    'X rate limit reached; waiting for its reset',
  );
  await abortableDelay(waitMs, context.signal);
}

/**
 * Posts `parts` as a thread: each part a reply to the previous one (the
 * first to `replyTo`, or a post of its own), each one of the day's posts
 * under the cap. Resolves with the ids posted.
 */
async function postThread(
  client: TwitterApi,
  parts: string[],
  replyTo: string | null,
  settings: XSettings,
  context: PlatformContext,
  source: 'reply' | 'post',
): Promise<string[]> {
  const posted: string[] = [];
  let previous = replyTo;
  for (const [index, part] of parts.entries()) {
    if (!(await context.dailyPosts.take(settings.dailyPostCap))) {
      throw new PlatformPostFailed(
        'refused',
        `the x platform's daily post cap (${settings.dailyPostCap}) is reached; it resets at 00:00 UTC`,
      );
    }
    const parent = previous;
    // A reply waits for X's reset; a post asked for now reports the limit to whoever asked instead.
    const result = await rateLimited(
      () => client.v2.tweet({ text: part, ...(parent !== null ? { reply: { in_reply_to_tweet_id: parent } } : {}) }),
      context,
      source === 'reply' ? 3 : 1,
    );
    previous = result.data.id;
    posted.push(result.data.id);
    context.recordPost('posted', {
      postId: result.data.id,
      inReplyTo: parent,
      part: index + 1,
      parts: parts.length,
      source,
    });
  }
  return posted;
}

/** What of a mention is stored with its take, to answer it after a takeover. */
function takenMention(mention: XPost): string {
  const { id, text, author_id, conversation_id } = mention;
  return JSON.stringify({ id, text, author_id, conversation_id });
}

class MentionPoller {
  #following: { ids: Set<string>; readAt: number } | null = null;

  constructor(
    private readonly client: TwitterApi,
    private readonly account: XAccount,
    private readonly settings: XSettings,
    private readonly context: PlatformContext,
  ) {}

  async run(): Promise<void> {
    // What an instance took and left unanswered (it died, or stopped) is answered here once taken over.
    this.context.items.answerTakenOver((taken) => this.#answerTaken(JSON.parse(taken.pending) as XPost, taken.signal));
    await pollUntilStopped({
      platform: 'x',
      notRead: 'X mentions not read',
      context: this.context,
      intervalMs: this.settings.pollIntervalSeconds * 1000,
      pollOnce: () => this.#pollOnce(),
      classify: (error) => {
        if (error instanceof XApiError && (error.status === 401 || error.status === 403)) {
          return { kind: 'rejected', failure: credentialsRejected(error) };
        }
        if (error instanceof XApiError && error.status === 429) {
          return { kind: 'rate-limited', waitMs: resetWaitMs(error, this.context) };
        }
        return { kind: 'fault', described: describeXFault(error) };
      },
    });
  }

  /** Mentions newer than the stored position, oldest first (every page of them). */
  async #newMentions(since: string): Promise<XPost[]> {
    const mentions: XPost[] = [];
    let token: string | undefined;
    for (let page = 0; page < maxPages; page += 1) {
      const result = await this.client.v2.get<MentionsPage>(`users/${this.account.id}/mentions`, {
        // '0': the account had no mentions when the connector first started, so every one is new.
        ...(since !== '0' ? { since_id: since } : {}),
        max_results: 100,
        'tweet.fields': 'author_id,conversation_id,created_at',
        ...(token !== undefined ? { pagination_token: token } : {}),
      });
      mentions.push(...(result.data ?? []));
      token = result.meta?.next_token;
      if (token === undefined) break;
    }
    return mentions.sort(byIdAscending);
  }

  async #pollOnce(): Promise<void> {
    const { context } = this;
    const since = await context.positions.lastText();
    if (since === null) {
      // The first start answers from now on: the account's earlier mentions are not news.
      const newest = await this.client.v2.get<MentionsPage>(`users/${this.account.id}/mentions`, { max_results: 5 });
      await context.positions.claim(newest.meta?.newest_id ?? newest.data?.[0]?.id ?? '0');
      return;
    }
    const mentions = await this.#newMentions(since);
    if (mentions.length > 0) context.markEvent();
    // Each is recorded with this instance's claim before it is answered, by its id and with the mention itself
    // (whichever instance takes it answers it, once; if that one dies first, a live poller takes it over), in id
    // order; a thread's mentions are answered one after the other. The position (the next read's since_id) moves
    // past a mention taken by another poller too: it is answered there.
    const takes = new Map<string, TakenItem>();
    await takeInOrder(
      mentions,
      answerConcurrency,
      context.signal,
      async (mention) => {
        const taken = await context.items.take(mention.id, takenMention(mention));
        await context.positions.claim(mention.id);
        if (taken !== null) takes.set(mention.id, taken);
        return taken !== null;
      },
      async (mention) => {
        const taken = takes.get(mention.id)!;
        takes.delete(mention.id);
        if (mention.author_id !== this.account.id) {
          context.recordPost('received', { postId: mention.id, userId: `x:${mention.author_id ?? ''}` });
        }
        await answerTaken(taken, () => this.#answerTaken(mention, taken.signal));
      },
      (mention) => mention.conversation_id ?? mention.id,
    );
  }

  /** Answers a mention taken: false when `signal` aborted first (its claim is given back). */
  async #answerTaken(mention: XPost, signal: AbortSignal): Promise<boolean> {
    if (mention.author_id === this.account.id) return true;
    return this.#answer(mention, signal);
  }

  async #mayAnswer(authorId: string): Promise<boolean> {
    if (this.settings.answerMentions === 'everyone') return true;
    if (this.settings.answerMentions === 'none') return false;
    const now = this.context.clock.now();
    if (this.#following === null || now - this.#following.readAt > followingRefreshMs) {
      try {
        const ids = new Set<string>();
        let token: string | undefined;
        for (let page = 0; page < 5; page += 1) {
          const result = await this.client.v2.following(this.account.id, {
            max_results: 1000,
            ...(token !== undefined ? { pagination_token: token } : {}),
          });
          for (const user of result.data ?? []) ids.add(user.id);
          token = result.meta?.next_token;
          if (token === undefined) break;
        }
        this.#following = { ids, readAt: now };
      } catch (error) {
        // The list read last stays in use; without one, nobody is answered until it can be read.
        this.context.logger.warn(
          { agentId: this.context.agentId, platform: 'x', error: describeXFault(error) },
          'X following list not read',
        );
        if (this.#following === null) return false;
        this.#following.readAt = now;
      }
    }
    return this.#following.ids.has(authorId);
  }

  /**
   * True once the mention is answered or definitively not (an author not
   * answered, the agent's limits, the daily cap, X refusing the reply): false
   * only when the connector stopped first.
   */
  async #answer(mention: XPost, signal: AbortSignal): Promise<boolean> {
    const { context } = this;
    const inbound = inboundFromMention(mention);
    if (inbound === null) return true;
    const allowed = await this.#mayAnswer(mention.author_id!);
    if (signal.aborted) return false;
    if (!allowed) return true;
    try {
      const reply = await context.handleMessage(inbound, { signal });
      if (signal.aborted) return false;
      // The agent's limits refused it: a public "too many messages" reply would only add to the noise.
      if (reply.limited) {
        context.logger.warn(
          { agentId: context.agentId, platform: 'x', postId: mention.id },
          'X mention over the agent’s limits, not answered',
        );
        return true;
      }
      await postThread(this.client, splitForX(reply.text), mention.id, this.settings, context, 'reply');
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      if (error instanceof XApiError && error.status === 401) throw error;
      context.logger.warn(
        {
          agentId: context.agentId,
          platform: 'x',
          postId: mention.id,
          error: error instanceof PlatformPostFailed ? error.message : describeXFault(error),
        },
        'X mention not answered',
      );
      return true;
    }
  }
}

async function accountOf(client: TwitterApi): Promise<XAccount> {
  const me = await client.v2.me();
  return { id: me.data.id, username: me.data.username };
}

function postFailure(error: unknown): PlatformPostFailed {
  if (error instanceof PlatformPostFailed) return error;
  if (error instanceof XApiError) {
    if (error.status === 429) return new PlatformPostFailed('rate_limited', error.message, error.resetAt);
    return new PlatformPostFailed('refused', error.message);
  }
  return new PlatformPostFailed('unreachable', describeXFault(error));
}

export const xPlatform: PlatformDefinition<typeof xSettingsSchema, typeof xSecretsSchema> = {
  type: 'x',
  description:
    'An X account (API v2, twitter-api-v2) with user-context credentials: answers mentions (read from the mentions ' +
    'timeline on one instance at a time) as replies in their thread, long answers as a numbered thread, and posts ' +
    'task outputs. The speaker is `x:<user id>`, the thread the room `x:<conversation id>`.',
  settingsSchema: xSettingsSchema,
  secretsSchema: xSecretsSchema,
  runsOnLease: () => true,
  // Only the operator's API address (PlatformContext.apiBaseUrl) decides where the secrets go, never the settings.
  secretDestination: () => null,

  async start(settings, secrets, context): Promise<PlatformConnection> {
    const client = await createXClient(secrets, context.apiBaseUrl, context.signal);
    let account: XAccount;
    try {
      account = await rateLimited(() => accountOf(client), context);
    } catch (error) {
      if (error instanceof XApiError && (error.status === 401 || error.status === 403)) {
        throw credentialsRejected(error);
      }
      throw new Error(describeXFault(error));
    }
    if (settings.answerMentions === 'none') return { stop: async () => undefined };
    const polling = new MentionPoller(client, account, settings, context).run();
    return {
      stop: async () => {
        await polling;
      },
    };
  },

  /**
   * `target` `timeline` makes a post of its own; a post id makes the text a
   * reply in that post's thread. A long text becomes a numbered thread.
   */
  async postText(target, text, settings: XSettings, secrets: XSecrets, context): Promise<void> {
    if (target !== 'timeline' && !/^[0-9]{1,20}$/.test(target)) {
      throw new PlatformPostFailed('refused', 'an x target is `timeline` or the id of a post to reply to');
    }
    const parts = splitForX(text);
    if (parts.length === 0) throw new PlatformPostFailed('refused', 'there is nothing to post');
    try {
      const client = await createXClient(secrets, context.apiBaseUrl, context.signal);
      await postThread(client, parts, target === 'timeline' ? null : target, settings, context, 'post');
    } catch (error) {
      throw postFailure(error);
    }
  },
};
