import http from 'node:http';
import { Readable } from 'node:stream';
import { readEvents, type EventReader } from './sse-client.js';

/**
 * A streamed message (`stream: true`) sent over real HTTP to a running agentd,
 * returned as soon as the answer's headers arrived: agentd sends them with the
 * model's first word, so a 200 here is a stream that has started and holds its
 * in-flight slot until it ends or the client hangs up.
 *
 * Each message has a connection of its own (node:http, no agent) that hanging
 * up destroys. fetch is not used for this: when one of its requests is aborted
 * mid-answer, undici opens a spare connection that never sends a request, and
 * a server draining for shutdown cannot tell such a connection from one whose
 * request is on its way, so it waits for it until the shutdown deadline.
 */
export interface StreamedMessage {
  status: number;
  /** The events of a 200 answer (null otherwise). */
  events: EventReader | null;
  /** The problem+json body of any other answer (null for a 200). */
  problem: { code: string; [field: string]: unknown } | null;
  headers: http.IncomingHttpHeaders;
  /** Closes the connection, as a client that goes away. */
  hangUp(): void;
}

export async function sendStreamedMessage(
  baseUrl: string,
  key: string,
  agentId: string,
  body: { text: string; userId?: string; roomId?: string },
): Promise<StreamedMessage> {
  const payload = JSON.stringify({ ...body, stream: true });
  const request = http.request(`${baseUrl}/v1/agents/${agentId}/messages`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
    },
  });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
    request.end(payload);
  });
  // A hang-up or a killed server ends the body with an error; the reader of the events sees it, nobody else need.
  request.on('error', () => undefined);
  response.on('error', () => undefined);
  const status = response.statusCode ?? 0;
  let problem: StreamedMessage['problem'] = null;
  if (status !== 200) {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    problem = JSON.parse(Buffer.concat(chunks).toString('utf8')) as StreamedMessage['problem'];
  }
  return {
    status,
    events: status === 200 ? readEvents(Readable.toWeb(response) as ReadableStream<Uint8Array>) : null,
    problem,
    headers: response.headers,
    hangUp: () => request.destroy(),
  };
}
