import { createHash } from 'node:crypto';
import type http from 'node:http';
import { startLoopbackHttpServer, type LoopbackHttpServer } from './loopback-http-server.js';

/**
 * A stand-in for an embeddings provider speaking OpenAI's `POST /v1/embeddings`
 * on loopback. Vectors are deterministic functions of the text: a hashed bag
 * of its words plus, at a lower weight, of their character trigrams (so
 * "lighthouse" and "lighthouses" land near each other, as with a real model),
 * normalized to unit length. Records every request; can fail or hold answers.
 */
export const fakeEmbeddingDimensions = 384;

function bucket(feature: string, dimensions: number): { index: number; sign: number } {
  const digest = createHash('sha1').update(feature).digest();
  return { index: digest.readUInt32BE(0) % dimensions, sign: digest[4]! & 1 ? 1 : -1 };
}

export function fakeEmbedding(text: string, dimensions = fakeEmbeddingDimensions): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    if (word.length < 3) continue;
    const whole = bucket(`w:${word}`, dimensions);
    vector[whole.index]! += whole.sign;
    const padded = `^${word}$`;
    for (let start = 0; start + 3 <= padded.length; start += 1) {
      const trigram = bucket(`t:${padded.slice(start, start + 3)}`, dimensions);
      vector[trigram.index]! += 0.3 * trigram.sign;
    }
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}

export interface FakeEmbeddingsServer {
  /** The base URL to configure, ending in /v1. */
  baseUrl: string;
  /** Texts of every embeddings request, in order. */
  requests: string[][];
  /** Answer every request with this HTTP status (an error) until set back to null. */
  failWith(status: number | null): void;
  /** Keep requests unanswered until `release()` (for tests that kill the caller mid-request). */
  hold(): void;
  release(): void;
  /** Requests being held now. */
  readonly held: number;
  close(): Promise<void>;
}

export async function startFakeEmbeddingsServer(dimensions = fakeEmbeddingDimensions): Promise<FakeEmbeddingsServer> {
  let failure: number | null = null;
  let holding = false;
  const waiting: Array<() => void> = [];
  const requests: string[][] = [];

  const answer = (inputs: string[], response: http.ServerResponse) => {
    if (response.destroyed) return;
    if (failure !== null) {
      response.writeHead(failure, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: 'the fake embeddings server was told to fail', type: 'server_error' } }),
      );
      return;
    }
    const tokens = inputs.reduce((sum, input) => sum + Math.ceil(input.length / 4), 0);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        object: 'list',
        model: 'fake-embedding',
        data: inputs.map((input, index) => ({
          object: 'embedding',
          index,
          embedding: fakeEmbedding(input, dimensions),
        })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      }),
    );
  };

  const server: LoopbackHttpServer = await startLoopbackHttpServer((request, response) => {
    if (request.method !== 'POST' || !request.path.endsWith('/embeddings')) {
      response.writeHead(404).end();
      return;
    }
    let inputs: string[];
    try {
      const body = JSON.parse(request.body) as { input: string | string[] };
      inputs = Array.isArray(body.input) ? body.input : [body.input];
    } catch {
      response.writeHead(400).end();
      return;
    }
    requests.push(inputs);
    if (holding) waiting.push(() => answer(inputs, response));
    else answer(inputs, response);
  });

  const release = () => {
    holding = false;
    for (const next of waiting.splice(0)) next();
  };
  return {
    baseUrl: `${server.origin}/v1`,
    requests,
    failWith(status) {
      failure = status;
    },
    hold() {
      holding = true;
    },
    release,
    get held() {
      return waiting.length;
    },
    async close() {
      release();
      await server.close();
    },
  };
}
