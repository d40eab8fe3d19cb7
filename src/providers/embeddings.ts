import { APICallError } from '@ai-sdk/provider';
import type { EmbeddingModel } from 'ai';
import type { EmbeddingsConfig } from '../config.js';
import { httpFetch } from './http-fetch.js';

/**
 * The embedding model behind knowledge bases, like the model adapter: a small
 * interface the core owns, one implementation over the AI SDK's `embedMany`
 * for the three providers (Ollama through its OpenAI-compatible
 * /v1/embeddings, with @ai-sdk/openai-compatible), and fakes in tests.
 */
export interface EmbeddingAdapter {
  /** `provider/model`, recorded with what it embedded. */
  readonly name: string;
  /** Length of every vector returned. */
  readonly dimensions: number;
  /** One vector per text, in order. Batches and caps its requests itself; throws EmbeddingError. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Why embedding failed, in words that may be shown to the document's owner (never a key or a URL). */
export class EmbeddingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}

/** Requests in flight at once, shared by every caller of one provider. */
class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(size: number) {
    this.#free = size;
  }
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    }
  }
}

function withVersionPath(baseUrl: string): string {
  return /\/v1$/.test(baseUrl) ? baseUrl : `${baseUrl}/v1`;
}

/** The SDK's embedding model; its provider package loads with the first embedding, not at start-up. */
async function modelOf(config: EmbeddingsConfig): Promise<EmbeddingModel> {
  switch (config.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        fetch: httpFetch,
        apiKey: config.apiKey ?? '',
        ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      }).embeddingModel(config.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        fetch: httpFetch,
        baseURL: config.baseUrl ?? '',
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      }).embeddingModel(config.model);
    }
    case 'ollama': {
      // Ollama serves OpenAI's /v1/embeddings; its own /api/embed is not needed.
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'ollama',
        fetch: httpFetch,
        baseURL: withVersionPath(config.baseUrl ?? ''),
      }).embeddingModel(config.model);
    }
  }
}

/** A sentence about a failed call that names no secret: the status and the kind of failure. */
function describeFailure(error: unknown): string {
  if (APICallError.isInstance(error)) {
    return `the embedding provider answered ${error.statusCode ?? 'without a status'}${error.isRetryable ? ' (retried)' : ''}`;
  }
  const cause = (error as { lastError?: unknown }).lastError;
  if (cause !== undefined) return describeFailure(cause);
  if (error instanceof Error && error.name === 'AbortError') return 'the embedding call was aborted';
  return 'the embedding provider could not be reached';
}

export class AiSdkEmbeddings implements EmbeddingAdapter {
  readonly name: string;
  readonly dimensions: number;
  readonly #config: EmbeddingsConfig;
  #model: Promise<EmbeddingModel> | null = null;
  readonly #batchSize: number;
  readonly #requests: Semaphore;
  readonly #providerOptions: Record<string, Record<string, number>>;

  constructor(config: EmbeddingsConfig) {
    this.name = `${config.provider}/${config.model}`;
    this.dimensions = config.dimensions;
    this.#config = config;
    this.#batchSize = config.batchSize;
    this.#requests = new Semaphore(config.concurrency);
    // OpenAI's text-embedding-3 models shorten their vectors on request; other servers ignore the option.
    this.#providerOptions =
      config.provider === 'openai' ? { openai: { dimensions: config.dimensions } } : { openaiCompatible: {} };
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      batches.push(texts.slice(start, start + this.#batchSize));
    }
    const results = await Promise.all(
      batches.map((batch) =>
        this.#requests.run(async () => {
          try {
            // The AI SDK's core (and its schemas) loads with the first embedding, not at start-up.
            const [{ embedMany }, model] = await Promise.all([import('ai'), (this.#model ??= modelOf(this.#config))]);
            const { embeddings } = await embedMany({
              model,
              values: batch,
              // The SDK retries 429 and 5xx answers with exponential backoff.
              maxRetries: 2,
              // Batches are already split and capped here.
              maxParallelCalls: 1,
              providerOptions: this.#providerOptions,
              ...(signal ? { abortSignal: signal } : {}),
            });
            return embeddings;
          } catch (error) {
            throw new EmbeddingError(describeFailure(error), { cause: error });
          }
        }),
      ),
    );
    const vectors = results.flat();
    for (const vector of vectors) {
      if (vector.length !== this.dimensions) {
        throw new EmbeddingError(
          `the embedding model returned vectors of ${vector.length} dimensions; AGENTD_EMBEDDINGS_DIMENSIONS is ${this.dimensions}`,
        );
      }
    }
    return vectors;
  }
}

export function createEmbeddings(config: EmbeddingsConfig | null): EmbeddingAdapter | null {
  return config === null ? null : new AiSdkEmbeddings(config);
}
