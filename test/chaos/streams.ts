import { sendStreamedMessage } from '../helpers/message-stream.js';
import { readEvents, type ReceivedEvent } from '../helpers/sse-client.js';

/** How one streamed message ended, as its client saw it. */
export type StreamOutcome =
  /** message.completed or message.failed on the stream it was sent on. */
  | 'ended'
  /** The stream broke (its instance was killed); the run's events, read on another instance, reached its end. */
  | 'resumed'
  /** Refused before it started (a problem answer, or a connection cut before any event). */
  | 'refused'
  /** Broke and could not be followed to an end within the bound: a loss. */
  | 'unresolved';

export interface StreamTally {
  ended: number;
  resumed: number;
  refused: number;
  unresolved: string[];
}

const finalEvents = new Set(['message.completed', 'message.failed']);

/**
 * One streamed message (foreground or background) through the proxy. When
 * the stream breaks after `message.started`, the run's events are read again
 * through the proxy (so on whichever instance answers) with Last-Event-ID
 * until its last event, for at most `resumeWithinMs`.
 */
export async function streamOnce(
  baseUrl: string,
  key: string,
  agentId: string,
  text: string,
  background: boolean,
  resumeWithinMs: number,
): Promise<{ outcome: StreamOutcome; detail?: string }> {
  let message;
  try {
    message = await sendStreamedMessage(baseUrl, key, agentId, {
      text,
      userId: 'streamer',
      ...(background ? { background: true } : {}),
    } as { text: string; userId: string });
  } catch {
    return { outcome: 'refused' };
  }
  if (message.status !== 200) return { outcome: 'refused', detail: `${message.status}` };
  const seen: ReceivedEvent[] = [];
  try {
    for (let event = await message.events!.next(); event !== null; event = await message.events!.next()) {
      seen.push(event);
      if (finalEvents.has(event.event)) return { outcome: 'ended' };
    }
  } catch {
    // Broken off: resumed below.
  }
  const runId = seen.find((event) => event.event === 'message.started')?.data.runId as string | undefined;
  if (runId === undefined) return { outcome: 'refused', detail: 'cut before message.started' };
  const deadline = Date.now() + resumeWithinMs;
  let lastId = seen.at(-1)?.id;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/v1/agents/${agentId}/runs/${runId}/events`, {
        headers: { authorization: `Bearer ${key}`, ...(lastId ? { 'last-event-id': lastId } : {}) },
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return { outcome: 'unresolved', detail: `run ${runId}: events answered ${response.status}` };
      }
      const reader = readEvents(response.body!);
      for (let event = await reader.next(); event !== null; event = await reader.next()) {
        if (lastId !== undefined && Number(event.id) !== Number(lastId) + 1) {
          return { outcome: 'unresolved', detail: `run ${runId}: event ${event.id} after ${lastId}` };
        }
        lastId = event.id;
        if (finalEvents.has(event.event)) return { outcome: 'resumed' };
      }
    } catch {
      // The instance serving the resumed stream was killed too: try again on the next one.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const run = await fetch(`${baseUrl}/v1/agents/${agentId}/runs/${runId}`, {
    headers: { authorization: `Bearer ${key}` },
  }).then(
    async (response) => JSON.stringify(await response.json()).slice(0, 400),
    (error: Error) => error.message,
  );
  return {
    outcome: 'unresolved',
    detail: `run ${runId} (${background ? 'background' : 'foreground'}): no last event within ${resumeWithinMs} ms after event ${lastId}; the run: ${run}`,
  };
}
