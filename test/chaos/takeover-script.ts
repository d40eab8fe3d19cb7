import { createHash } from 'node:crypto';
import {
  textOf,
  type FakeBehaviour,
  type FakeProviderServer,
  type RecordedRequest,
} from '../helpers/fake-provider-server.js';

/**
 * What the model says in the takeover fleet run (takeover-fleet.ts), derived
 * from the message alone, so that the whole reply of any run is known in
 * advance and a step asked again is recognised:
 *
 * - every message carries a marker, `[m:<marker>]`; a task's due time adds
 *   its `dueAt`, read from the context agentd hands the model with the task's
 *   message; the two make the request's key;
 * - a marker starting `tool-` is answered first with two tool calls of the
 *   http plugin (`fetch_url`): a GET of `/reads/<key>` (read-only, may be
 *   repeated) and a POST to `/effects/<key>` (a side effect, never twice);
 * - the reply is the key followed by 20 to 40 words, streamed one word every
 *   `tokenDelayMs` (1–3 s a reply at 70 ms).
 */
export const markerPattern = /\[m:([a-z0-9-]+)\]/;

export function markedText(marker: string, text = 'Please answer.'): string {
  return `${text} [m:${marker}]`;
}

function lastUserMessage(request: RecordedRequest): string {
  const last = request.body.messages.filter((message) => message.role === 'user').at(-1);
  return last ? textOf(last) : '';
}

/** The request's key: its marker, and a task's due time; null for a request that carries none. */
export function keyOf(request: RecordedRequest): string | null {
  const text = lastUserMessage(request);
  const marker = markerPattern.exec(text)?.[1];
  if (marker === undefined) return null;
  const dueAt = /"dueAt":"([^"]+)"/.exec(text)?.[1];
  return dueAt === undefined ? marker : `${marker}@${dueAt}`;
}

/** The whole reply the fake gives for `key`. */
export function replyFor(key: string): string {
  const digest = createHash('sha256').update(key).digest();
  const words = 20 + ((digest[0] as number) % 21);
  const tag = digest.subarray(1, 4).toString('hex');
  return [key, ...Array.from({ length: words }, (_, index) => `w${index}-${tag}`)].join(' ');
}

/** A URL path segment for the key (due times carry colons). */
export function pathOf(key: string): string {
  return encodeURIComponent(key.replace(/[^a-zA-Z0-9-]/g, '_'));
}

export function scriptTakeoverFleet(fake: FakeProviderServer, effectsOrigin: string, tokenDelayMs: number): void {
  fake.setDefault((request): FakeBehaviour => {
    const key = keyOf(request);
    if (key === null) return { reply: 'No marker.' };
    if (key.startsWith('tool-') && request.toolResults.length === 0) {
      const segment = pathOf(key);
      return {
        toolCalls: [
          { name: 'fetch_url', input: { url: `${effectsOrigin}/reads/${segment}` } },
          { name: 'fetch_url', input: { url: `${effectsOrigin}/effects/${segment}`, method: 'POST', body: key } },
        ],
        tokenDelayMs,
      };
    }
    return { reply: replyFor(key), tokenDelayMs };
  });
}

/** A key asked again after the fake had sent a whole answer to it. */
export interface RepeatedAsk {
  key: string;
  /** Tool results the prompt carried: which step of the run it was. */
  toolResults: number;
  /** Wall-clock ms when the fake finished its first whole answer, and when the same step was asked again. */
  completedAt: number;
  askedAgainAt: number;
}

const wallClock = (performanceTime: number) => performance.timeOrigin + performanceTime;

/**
 * Steps asked again after a whole answer: requests grouped by (key, tool
 * results in the prompt), each request that came after one the fake answered
 * completely.
 */
export function repeatedAsks(requests: readonly RecordedRequest[]): RepeatedAsk[] {
  const groups = new Map<string, RecordedRequest[]>();
  for (const request of requests) {
    const key = keyOf(request);
    if (key === null) continue;
    const group = `${key}\u0000${request.toolResults.length}`;
    groups.set(group, [...(groups.get(group) ?? []), request]);
  }
  const repeated: RepeatedAsk[] = [];
  for (const [group, asked] of groups) {
    const [key, toolResults] = group.split('\u0000') as [string, string];
    const firstCompleted = asked.find((request) => request.completed && request.completedAt !== undefined);
    if (firstCompleted === undefined) continue;
    const later = asked.find((request) => request.receivedAt > (firstCompleted.completedAt as number));
    if (later === undefined) continue;
    repeated.push({
      key,
      toolResults: Number(toolResults),
      completedAt: wallClock(firstCompleted.completedAt as number),
      askedAgainAt: wallClock(later.receivedAt),
    });
  }
  return repeated;
}
