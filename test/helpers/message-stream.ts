import { readEvents, type EventReader } from './sse-client.js';

/**
 * A streamed message (`stream: true`) sent over real HTTP to a running agentd,
 * returned as soon as the answer's headers arrived: agentd sends them with the
 * model's first word, so a 200 here is a stream that has started and holds its
 * in-flight slot until it ends or the client hangs up.
 */
export interface StreamedMessage {
  status: number;
  /** The events of a 200 answer (null otherwise). */
  events: EventReader | null;
  /** The problem+json body of any other answer (null for a 200). */
  problem: { code: string; [field: string]: unknown } | null;
  headers: Headers;
  /** Closes the connection, as a client that goes away. */
  hangUp(): void;
}

export async function sendStreamedMessage(
  baseUrl: string,
  key: string,
  agentId: string,
  body: { text: string; userId?: string; roomId?: string },
): Promise<StreamedMessage> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/v1/agents/${agentId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
    signal: controller.signal,
  });
  const streaming = response.status === 200;
  return {
    status: response.status,
    events: streaming ? readEvents(response.body!) : null,
    problem: streaming ? null : ((await response.json()) as StreamedMessage['problem']),
    headers: response.headers,
    hangUp: () => controller.abort(),
  };
}
