import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import { isoTime, type Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import { EmbeddingError, type EmbeddingAdapter } from '../../providers/embeddings.js';
import type { KnowledgeBaseRepository, KnowledgeDocumentRecord } from '../../storage/repositories/knowledge-bases.js';
import { chunkText, defaultChunking } from './chunking.js';
import { DocumentReadError, documentText, formatOf } from './document-text.js';

export interface IngestionOptions {
  repository: KnowledgeBaseRepository;
  embeddings: EmbeddingAdapter | null;
  clock: Clock;
  logger: Logger;
  /** How long a claim holds without renewal; renewed every third of it while the document is worked on. */
  leaseMs: number;
  /** Pause between looks for work when there is none (a new document wakes this instance at once). */
  pollMs: number;
}

/**
 * The background worker that turns stored documents into indexed chunks:
 * parse → chunk → embed → index. The jobs are the documents themselves
 * (`status` processing), so they survive a restart and every instance serves
 * them: one is claimed at a time with a lease (see claimJob), renewed while
 * it runs; an instance that dies mid-way stops renewing, and once the lease
 * expires another (or the same one, restarted) claims the document and
 * starts over. Results are written in one transaction that replaces any
 * earlier attempt's, only while the lease is still held.
 */
export class KnowledgeIngestion {
  readonly #options: IngestionOptions;
  readonly #owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  #running: Promise<void> | null = null;
  #stopped = false;
  #wake: (() => void) | null = null;
  #current: AbortController | null = null;

  constructor(options: IngestionOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#running !== null) return;
    this.#stopped = false;
    this.#running = this.#loop();
  }

  /** A document was added or put back: look for work now rather than at the next poll. */
  wake(): void {
    this.#wake?.();
  }

  /** Stops taking work, aborts the document in progress and gives its claim back. */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#current?.abort();
    this.#wake?.();
    await this.#running;
    this.#running = null;
  }

  async #pause(milliseconds: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, milliseconds);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
    this.#wake = null;
  }

  async #loop(): Promise<void> {
    const { repository, clock, logger, leaseMs, pollMs } = this.#options;
    while (!this.#stopped) {
      let job: KnowledgeDocumentRecord | null = null;
      try {
        const now = clock.now();
        job = await repository.claimJob(this.#owner, isoTime(now), isoTime(now + leaseMs));
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, 'could not look for knowledge documents to ingest');
      }
      if (job === null) {
        if (!this.#stopped) await this.#pause(pollMs);
        continue;
      }
      await this.#process(job);
    }
  }

  async #process(document: KnowledgeDocumentRecord): Promise<void> {
    const { repository, clock, logger, leaseMs } = this.#options;
    const controller = new AbortController();
    this.#current = controller;
    const renewal = setInterval(
      () => {
        repository
          .renewLease(document.id, this.#owner, isoTime(clock.now() + leaseMs))
          .then((held) => {
            if (!held) controller.abort();
          })
          .catch(() => undefined);
      },
      Math.max(100, Math.floor(leaseMs / 3)),
    );
    const started = performance.now();
    const log = { documentId: document.id, knowledgeBaseId: document.knowledgeBaseId, attempt: document.attempts };
    try {
      const chunks = await this.#chunksOf(document, controller.signal);
      if (controller.signal.aborted) throw new IngestionAborted();
      const stored = await repository.completeJob(document, this.#owner, chunks, isoTime(clock.now()));
      if (stored) {
        logger.info(
          { ...log, chunks: chunks.length, durationMs: Math.round(performance.now() - started) },
          'knowledge document ready',
        );
      }
    } catch (error) {
      if (this.#stopped || error instanceof IngestionAborted) {
        // Shutting down, or the lease was lost: the next claim starts over.
        await repository.releaseJob(document.id, this.#owner).catch(() => undefined);
      } else {
        const reason =
          error instanceof DocumentReadError || error instanceof EmbeddingError
            ? error.message
            : 'the document could not be indexed because of an internal error; retry it';
        if (!(error instanceof DocumentReadError || error instanceof EmbeddingError)) {
          logger.error({ ...log, err: error }, 'knowledge document ingestion failed');
        } else {
          logger.warn({ ...log, reason }, 'knowledge document failed');
        }
        await repository.failJob(document.id, this.#owner, reason, isoTime(clock.now())).catch(() => undefined);
      }
    } finally {
      clearInterval(renewal);
      this.#current = null;
    }
  }

  async #chunksOf(document: KnowledgeDocumentRecord, signal: AbortSignal) {
    const { repository, embeddings } = this.#options;
    const body = await repository.body(document.id);
    if (body === null) throw new DocumentReadError('the document content is missing');
    const format = formatOf(document.contentType);
    if (format === null) throw new DocumentReadError(`documents of type ${document.contentType} cannot be read`);
    const text = await documentText(format, body);
    const pieces = chunkText(text, defaultChunking);
    if (pieces.length === 0) throw new DocumentReadError('the document holds no text');
    let vectors: number[][] | null = null;
    if (embeddings !== null && repository.vectors !== null) {
      // The title and headings say what a chunk is about; they are embedded with it.
      const inputs = pieces.map((piece) =>
        [document.title, piece.heading, piece.content].filter((part) => part !== null && part !== '').join('\n'),
      );
      try {
        vectors = await embeddings.embed(inputs, signal);
      } catch (error) {
        if (signal.aborted) throw new IngestionAborted();
        if (error instanceof EmbeddingError) throw new EmbeddingError(`embedding failed: ${error.message}`);
        throw error;
      }
    }
    return pieces.map((piece, position) => ({
      id: newId('chunk'),
      position,
      heading: piece.heading,
      content: piece.content,
      tokenCount: piece.tokenCount,
      ...(vectors ? { vector: vectors[position]! } : {}),
    }));
  }
}

class IngestionAborted extends Error {
  constructor() {
    super('ingestion aborted');
    this.name = 'IngestionAborted';
  }
}
