import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { ImageModel } from 'ai';
import type { Clock } from '../clock.js';
import type { AttachmentView } from '../schemas/files.js';

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
}

/** The tools of one plugin entry of one agent; `close` lets go of what it holds (connections). */
export interface PluginInstance {
  tools: Tool[];
  close?(): Promise<void>;
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
   * Builds the plugin's tools for one agent. Called once per agent version and
   * kept while the agent is unchanged (connections pooled per agent); failures
   * here are reported to the model through the tools, never as a failed reply.
   */
  open(config: Static<Config>, secrets: Static<Secrets>, context: PluginContext): Promise<PluginInstance>;
}

/** A definition whose types were checked where it was written; the catalog holds them side by side. */
export type AnyPluginDefinition = PluginDefinition<any, any>;
