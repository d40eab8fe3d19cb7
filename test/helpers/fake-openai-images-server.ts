import { startLoopbackHttpServer, type LoopbackHttpServer } from './loopback-http-server.js';
import { tinyPng } from './images.js';

/**
 * A fake of the OpenAI Images API (`POST …/images/generations`) on loopback:
 * it answers `{ created, data: [{ b64_json }] }` with `n` real PNGs (or what
 * the test sets with `answerWith`), and records every request's JSON body and
 * authorization, so tests see what agentd asked for. It listens on 127.0.0.1
 * unless told another loopback address (a second origin, for redirects).
 */
export interface ImageGenerationRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; prompt: string; n?: number; size?: string; response_format?: string };
}

export interface FakeOpenAiImagesServer {
  origin: string;
  requests: ImageGenerationRequest[];
  /**
   * Replaces the answer: the bytes of each image to send, an HTTP error
   * status, or a 307 redirect to another address (which keeps the POST).
   */
  answerWith(answer: FakeImagesAnswer): void;
  reset(): void;
  close(): Promise<void>;
}

export type FakeImagesAnswer = { images: Buffer[] } | { status: number } | { redirectTo: string };

export async function startFakeOpenAiImagesServer(host = '127.0.0.1'): Promise<FakeOpenAiImagesServer> {
  const requests: ImageGenerationRequest[] = [];
  let answer: FakeImagesAnswer | null = null;
  const server: LoopbackHttpServer = await startLoopbackHttpServer((request, response) => {
    if (request.method !== 'POST' || !/\/images\/generations$/.test(request.path)) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(request.body) as ImageGenerationRequest['body'];
    requests.push({ path: request.path, authorization: request.headers.authorization, body });
    if (answer !== null && 'status' in answer) {
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'refused by the fake', type: 'test_error' } }));
      return;
    }
    if (answer !== null && 'redirectTo' in answer) {
      response.writeHead(307, { location: answer.redirectTo }).end();
      return;
    }
    const images = answer?.images ?? Array.from({ length: body.n ?? 1 }, (_, index) => tinyPng(4 + index, 3));
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        created: Math.floor(Date.now() / 1000),
        data: images.map((image) => ({ b64_json: image.toString('base64'), revised_prompt: body.prompt })),
      }),
    );
  }, host);
  return {
    origin: server.origin,
    requests,
    answerWith(next) {
      answer = next;
    },
    reset() {
      requests.length = 0;
      answer = null;
    },
    close: () => server.close(),
  };
}
