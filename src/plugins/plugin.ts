import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { ImageModel } from 'ai';
import type { Clock } from '../clock.js';
import type { agentEventTypes } from '../schemas/events.js';
import type { AttachmentView } from '../schemas/files.js';
import type { FieldErrorCode } from '../validation-wording.js';

/**
 * What a plugin is to agentd's core: a named factory that turns an agent's
 * plugin entry (its `config` and decrypted `secrets`) into tools the model may
 * call. The core owns this interface; each plugin lives in its own folder
 * under src/plugins/ and is listed in src/plugins/catalog.ts.
 */

/** A fetch-compatible function; the one given to plugins refuses private addresses (see src/outbound/). */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** One knowledge item found for a query, as the prompt ranks them. */
export interface FoundKnowledge {
  title?: string;
  content: string;
}

/** The trail events a plugin may record: what it did outside the service on the agent's behalf. */
export type PluginEventType = Extract<(typeof agentEventTypes)[number], 'tool.transfer'>;

/** An amount of one asset on one chain, counted against a daily limit. */
export interface SpendingEntry {
  chainId: number;
  /** `native`, a token's contract address in lower case, or `transfers` (the day's count of transfers). */
  asset: string;
  /** In base units (wei, or the token's smallest unit); 1 for each transfer of `transfers`. */
  amount: bigint;
}

/** An entry with the most its day's total may reach. */
export interface SpendingLimit extends SpendingEntry {
  limit: bigint;
}

export type SpendingReservation =
  | {
      reserved: true;
      /** Each entry's day's total with its amount, in the order the entries were given. */
      totals: bigint[];
      /** Takes every amount back out of its day's total: for a transfer that was never sent. */
      release(): Promise<void>;
    }
  | {
      reserved: false;
      /** The first entry (its index in the order given) that would pass its limit. */
      refused: number;
      /** That entry's day's total as it stays. */
      total: bigint;
    };

/**
 * What the agent spent per UTC day, stored in the database every instance
 * shares. A reservation is atomic: the entries of one reservation (a
 * transfer's amount, its fee and its count) are all counted or none, and two
 * transfers at once cannot both pass a limit, whichever instances run them.
 */
export interface SpendingLedger {
  reserve(entries: readonly SpendingLimit[]): Promise<SpendingReservation>;
  /** The day's total so far. */
  spentToday(entry: Omit<SpendingEntry, 'amount'>): Promise<bigint>;
}

/** What a plugin may use of the service, for the agent it serves. */
export interface PluginContext {
  agentId: string;
  accountId: string;
  /** Every outgoing HTTP call to a user-given address goes through this. */
  fetch: FetchFunction;
  /** The agent's own knowledge, ranked as for the prompt. */
  searchKnowledge(query: string, limit: number): Promise<FoundKnowledge[]>;
  clock: Clock;
  logger: Logger;
  /** The agent's daily spending, for plugins that move value (the `evm` plugin's transfers). */
  spending: SpendingLedger;
  /**
   * Appends an event to the agent's trail (`GET /v1/agents/{id}/events`),
   * recorded as done by the service. Never give it a secret.
   */
  recordEvent(type: PluginEventType, data: Record<string, unknown>): Promise<void>;
  /** Image generation and storage, for plugins that make pictures (the service always gives it). */
  images?: PluginImages;
}

/** The image models a plugin may call (OpenAI and OpenAI-compatible), as the AI SDK's image generation takes them. */
export type ImageModelProvider = 'openai' | 'openai-compatible';

export interface PluginImages {
  /**
   * The AI SDK image model (for `generateImage`), with the operator's provider
   * settings unless the agent gives its own `baseUrl` (called through the
   * SSRF-safe client) or `apiKey`. Throws a readable error when the provider
   * is not enabled here and no `baseUrl` is given.
   */
  model(provider: ImageModelProvider, modelName: string, options: { apiKey?: string; baseUrl?: string }): ImageModel;
  /**
   * Checks images the agent made (type by magic bytes, size cap) and stores
   * them as files of the agent's account; a refused image throws a ToolError.
   */
  save(images: Uint8Array[]): Promise<AttachmentView[]>;
}

/** What a running tool call may use. */
export interface ToolCallContext {
  /** Aborted when the client goes away, the reply is cut, or the tool's time-out passes. */
  abortSignal: AbortSignal;
  /**
   * Names stored images the call produced: they become attachments of the
   * reply (and of its `message.completed` event), sent on by platforms.
   */
  attach?(attachments: AttachmentView[]): void;
  /**
   * Records, durably, what makes this call's outcome knowable later (a transaction's hash and nonce, signed but not
   * yet sent), before the call acts: a run taken over after the call began asks `recoverOutcome` with it.
   */
  recordIntent?(detail: Record<string, unknown>): Promise<void>;
}

/**
 * A tool error the model should read (a bad argument, a refused address, an
 * unreachable server): its message is given to the model as the tool's result.
 * Any other error is reported to the model as a generic failure and logged.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

export interface Tool {
  /** Unique within an agent; `^[A-Za-z0-9_-]{1,64}$` (what OpenAI and Anthropic both accept). */
  name: string;
  description: string;
  /** JSON Schema of the tool's input: an object schema. */
  inputSchema: Record<string, unknown>;
  /** Runs the tool. The result is JSON (or a string); it is capped before the model sees it. */
  execute(input: unknown, context: ToolCallContext): Promise<unknown>;
  /**
   * Whether a call changes something outside the reply (a transfer, a POST, a post on a platform), for this input.
   * Absent means it may (src/plugins/side-effects.ts): its intent is recorded before it runs, and a run taken over
   * after the call began does not run it again but tells the model its outcome is unknown.
   */
  sideEffects?: boolean | ((input: unknown) => boolean);
  /**
   * The outcome of a call that began on an instance that stopped, from what it recorded with `recordIntent`
   * (e.g. the receipt of a transaction by its hash): its result, or undefined when it cannot be known (the model is
   * then told the outcome is unknown). Never acts again.
   */
  recoverOutcome?(
    input: unknown,
    detail: Record<string, unknown>,
    context: { abortSignal: AbortSignal },
  ): Promise<unknown>;
}

/** The tools of one plugin entry of one agent; `close` lets go of what it holds (connections). */
export interface PluginInstance {
  tools: Tool[];
  /**
   * Tools whose calls wait for a person's decision whatever the entry's
   * `approval` names: the plugin's own default for tools that act on their
   * own (the `evm` plugin's transfers, unless its config turns it off).
   */
  requiresApproval?: readonly string[];
  close?(): Promise<void>;
}

/** A problem with one plugin entry, at a JSON pointer relative to the entry (`/config/…`, `/secrets/…`). */
export interface PluginEntryProblem {
  path: string;
  /** Set where a schema check found the problem (src/validation-wording.ts). */
  code?: FieldErrorCode;
  message: string;
}

/** What a plugin's `check` may use: the SSRF-safe client, for a document the config names by URL. */
export interface PluginCheckContext {
  fetch: FetchFunction;
}

export interface PluginDefinition<Config extends TObject = TObject, Secrets extends TSchema = TObject> {
  /** The name an agent's `plugins[].name` uses. */
  name: string;
  description: string;
  /** Validates `plugins[].config` on create and PATCH (defaults applied); listed by GET /v1/plugins. */
  configSchema: Config;
  /**
   * The secrets the plugin reads: an object schema of string properties, or a
   * record of strings when the names are the user's (e.g. HTTP headers).
   */
  secretsSchema: Secrets;
  /**
   * True when an entry cannot do without a config though every field of the
   * schema is optional (one of two is needed, which `check` says): an empty
   * config is then refused by the schema check, and an import does not add it.
   */
  configRequired?: boolean;
  /**
   * What decides where the entry's secrets go, read from its config (defaults
   * applied): the server's URL, the hosts a header is sent to, the chains a
   * key signs for. An object of the config's fields, which a refusal names. On
   * PATCH a secret sent back as its mask is kept only from an entry with the
   * same destination, so a kept secret never follows a config to a new server.
   * Left out, the whole config counts (any change of it asks for the secrets
   * again); a plugin whose config says nothing of it returns null.
   */
  secretDestination?(config: Static<Config>): unknown;
  /**
   * Builds the plugin's tools for one agent. Called once per agent version and
   * kept while the agent is unchanged (connections pooled per agent); failures
   * here are reported to the model through the tools, never as a failed reply.
   */
  open(config: Static<Config>, secrets: Static<Secrets>, context: PluginContext): Promise<PluginInstance>;
  /**
   * Checks the schemas cannot express, run on create and PATCH once the
   * entry's config matches its schema (defaults applied): a config that names
   * secrets that are not set, a document that has to be fetched and read.
   * `secretNames` are the names of the entry's secrets (their values are not
   * needed and not given). Problems make the request a 400 and change nothing.
   */
  check?(
    config: Static<Config>,
    secretNames: readonly string[],
    context: PluginCheckContext,
  ): Promise<PluginEntryProblem[]>;
}

/** A definition whose types were checked where it was written; the catalog holds them side by side. */
export type AnyPluginDefinition = PluginDefinition<any, any>;
