import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { FetchFunction } from '../plugins/plugin.js';
import type { AttachmentView } from '../schemas/files.js';

/**
 * What a platform connector is to agentd's core: a named type whose `settings`
 * and `secrets` are checked by TypeBox schemas, started while its agent is
 * `active` and the platform `enabled`, stopped otherwise. Each connector lives
 * in its own folder under src/platforms/ and is listed in the platform catalog.
 */

/** A message that arrived on a platform, mapped to the agent's conversation keys. */
export interface InboundMessage {
  /** The platform user, prefixed by the platform type (e.g. `telegram:12345`). */
  userId: string;
  /** Set for group conversations (a group chat, a channel, a thread), prefixed like `userId`. */
  roomId?: string;
  content: string;
  /** Images the platform user sent (a photo), as downloaded from the platform: checked by the core like any. */
  images?: Uint8Array[];
  /**
   * True when the user sent a file the connector did not fetch (not an image,
   * or larger than it reads): the user is told which images can be read, and
   * the message goes no further.
   */
  unreadableFile?: boolean;
  /**
   * Where the answer to this message is posted (a `postText` target: the
   * chat, or the channel and thread), when the connector can name it: a
   * reply that pauses for approvals goes on there once decided.
   */
  replyTarget?: string;
}

/** What the core answered to an inbound message. */
export interface InboundReply {
  text: string;
  /** True when the message was refused by the agent's limits and `text` is the short polite answer. */
  limited: boolean;
  /** Images the reply produced (a tool made them), to send after the text; read their bytes with `readFile`. */
  attachments?: AttachmentView[];
}

/** What a connector may use of the service, for the agent it serves. */
export interface PlatformContext {
  agentId: string;
  accountId: string;
  /** The platform's API base URL the operator configured (tests point it at a fake on loopback), if any. */
  apiBaseUrl?: string;
  /** The public base URL of this service, when the operator set one (webhook modes). */
  publicBaseUrl?: string;
  /** Every outgoing HTTP call to a user-given address (callback URLs) goes through this. */
  fetch: FetchFunction;
  clock: Clock;
  logger: Logger;
  /** Aborted when the connector must stop (agent inactive, platform disabled, agent deleted, shutdown). */
  signal: AbortSignal;
  /**
   * Sends the message through the same path as POST /v1/agents/{id}/messages
   * (memory, rate and concurrency limits, tools) and resolves with the reply.
   */
  handleMessage(message: InboundMessage, options?: { signal?: AbortSignal }): Promise<InboundReply>;
  /**
   * The connector's durable read position, shared by every instance
   * (Telegram: the last update id read; X: the newest mention id): where the
   * next read starts. It says nothing of what was answered: `items` does.
   */
  positions: {
    last(): Promise<number | null>;
    /** The last position as decimal text: ids past 2^53 (X's post ids) keep every digit. */
    lastText(): Promise<string | null>;
    /** Moves the position forward (a number, or a decimal integer of up to 20 digits as text); true when it moved. */
    claim(position: number | string): Promise<boolean>;
  };
  /**
   * The one dedup of inbound items (docs/platform-input.md): each item the
   * platform delivers (an update, an event, a message, a mention) is
   * recorded by its platform id with this instance's claim before it is
   * answered, whichever instance it reached and however many times.
   */
  items: {
    /**
     * Records the item with a claim of this instance and resolves with it;
     * null when it is recorded already (answered, or claimed by a live
     * instance): a second delivery, acknowledged and not answered again. An
     * unanswered item whose claim ran out is taken over here. `pending` is
     * the item itself, serialized: whoever takes it over answers from it.
     */
    take(itemId: string, pending: string): Promise<TakenItem | null>;
    /**
     * How this connector answers an item another instance (or a stopped run
     * of this one) took and left unanswered when its claim ran out: the
     * takeover sweep hands it such items while this connector runs.
     * Resolves true once answered (or definitively not), false when the
     * connector stopped first.
     */
    answerTakenOver(answer: (item: TakenItem) => Promise<boolean>): void;
  };
  /**
   * Takes one of today's (UTC) posts under `cap`, shared by every instance:
   * false once `cap` posts were made today.
   */
  dailyPosts: { take(cap: number): Promise<boolean> };
  /**
   * Counts a post the connector received (a mention, a reply to the agent) or
   * made (a reply, a post on its own) in the metrics, and records it in the
   * agent's trail (`connector.received`, `connector.posted`). `data` names the
   * platform's ids, never a secret nor the text.
   */
  recordPost(direction: 'received' | 'posted', data: Record<string, unknown>): void;
  /** Records that the connector received or handled an event now (reported as `lastEventAt`). */
  markEvent(): void;
  /**
   * Tells the core that a started connector failed on its own (e.g. the token
   * was revoked while polling): a `PlatformCredentialsRejected` puts the agent
   * in `error`; anything else is a network fault, and the core restarts the
   * connector with backoff. Connectors that retry on their own need not call it.
   */
  reportFailure(error: unknown): void;
  /** The bytes of a file of the agent's account (an image a reply produced), or null when it is gone. */
  readFile(fileId: string): Promise<{ bytes: Uint8Array; mediaType: string } | null>;
}

/**
 * An inbound item this instance holds the claim of. The claim is renewed
 * while it is held; `signal` aborts when it is lost (another instance took
 * the item over after a stall longer than the claim) or the connector stops:
 * nothing more is sent for it then.
 */
export interface TakenItem {
  itemId: string;
  /** The item as the connector gave it to `take`. */
  pending: string;
  /** Claims it had, this one included: above 1 after a takeover. */
  attempts: number;
  /** When it was first taken (epoch ms). */
  takenAt: number;
  signal: AbortSignal;
  /** It is answered (or definitively not): never answered again. */
  answered(): Promise<void>;
  /** Not answered (the connector stopped): gives the claim back for a live instance to take over. */
  release(): Promise<void>;
}

/** A started connector. */
export interface PlatformConnection {
  stop(): Promise<void>;
}

/**
 * Thrown by `start` (or reported through `reportFailure`) when the platform
 * rejected the credentials (401/403): the agent is set to `error` with a
 * reason naming the platform. Any other failure is a network fault, retried
 * with backoff without changing the agent's status.
 */
export class PlatformCredentialsRejected extends Error {
  override readonly name = 'PlatformCredentialsRejected';
}

/**
 * Thrown by `postText` when the platform did not take the post: `rate_limited`
 * with when its window resets (epoch ms), `refused` for anything else it
 * answered (the daily cap, a duplicate), `unreachable` when it could not be
 * reached. The message names the platform and its reason, never a secret.
 */
export class PlatformPostFailed extends Error {
  override readonly name = 'PlatformPostFailed';
  constructor(
    readonly kind: 'rate_limited' | 'refused' | 'unreachable',
    message: string,
    readonly retryAt: number | null = null,
  ) {
    super(message);
  }
}

/** An HTTP request to /v1/platforms/{type}/{agentId}/... as a connector sees it. */
export interface PlatformInboundRequest {
  /** The path after /v1/platforms/{type}/{agentId} ('' or '/events', '/webhook'). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, as received: signatures are computed over these bytes. */
  rawBody: Buffer;
}

export interface PlatformInboundResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface PlatformDefinition<Settings extends TObject = TObject, Secrets extends TSchema = TObject> {
  /** The name an agent's `platforms[].type` uses. */
  type: string;
  description: string;
  settingsSchema: Settings;
  secretsSchema: Secrets;
  /**
   * `polling`: the connector holds a connection open (long polling, a gateway);
   * exactly one instance runs it at a time, under a lease.
   * `inbound`: the platform calls us; any instance serves the request.
   * A connector may be both (Telegram: polling by default, webhook with a public URL):
   * `runsOnLease` decides per configuration.
   */
  runsOnLease(settings: Static<Settings>, context: Pick<PlatformContext, 'publicBaseUrl'>): boolean;
  /**
   * What decides where the entry's secrets go, read from its settings
   * (defaults applied), as for plugins (see PluginDefinition.secretDestination):
   * a user-given server URL, a callback that receives what the secrets sign.
   * Left out, the whole settings count; a connector that only calls the
   * operator's API address (`PlatformContext.apiBaseUrl`) returns null.
   */
  secretDestination?(settings: Static<Settings>): unknown;
  /** Starts the connector; resolves once it is connected (credentials checked). */
  start(settings: Static<Settings>, secrets: Static<Secrets>, context: PlatformContext): Promise<PlatformConnection>;
  /**
   * Posts a text to a target of the platform on the agent's behalf, outside
   * any conversation (a task's output): a chat, a channel. Connectors that
   * cannot leave it out. Rejects when the platform refused it; the reason
   * names no secret.
   */
  postText?(
    target: string,
    text: string,
    settings: Static<Settings>,
    secrets: Static<Secrets>,
    context: PlatformContext,
  ): Promise<void>;
  /**
   * The `postText` target that reaches the chat a message came from, given the
   * conversation keys the connector gave it (userId, roomId); null when they do
   * not name one. A reply that went on after approvals is posted there when its
   * message carried no `replyTarget` of its own.
   */
  replyTarget?(conversation: { userId: string | null; roomId: string | null }): string | null;
  /** Serves a request the platform sent to this agent's inbound URL (verify its signature first). */
  handleInbound?(
    request: PlatformInboundRequest,
    settings: Static<Settings>,
    secrets: Static<Secrets>,
    context: PlatformContext,
  ): Promise<PlatformInboundResponse>;
}

/** A definition whose types were checked where it was written; the catalog holds them side by side. */
export type AnyPlatformDefinition = PlatformDefinition<any, any>;
