import type { ListRunsQuery, Run, RunList } from '../../../../src/client/types.js';
import { readServerSentEvents } from '../../../../src/client/server-sent-events.js';
import { ApiError, request } from '../../api.js';
import { readKey } from '../../session.js';

export type { Run };

const runsPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}/runs`;

export const listRuns = (agentId: string, query: ListRunsQuery, signal?: AbortSignal) =>
  request<RunList>('GET', runsPath(agentId), { query, signal });

export const getRun = (agentId: string, runId: string, signal?: AbortSignal) =>
  request<Run>('GET', `${runsPath(agentId)}/${encodeURIComponent(runId)}`, { signal });

/** One event of a run as GET …/runs/{runId}/events sends it (docs/runs.md). */
export interface RunEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/**
 * A run's events from the first, following it until its last one: the
 * stream ends when the run has. The key goes in the header, as for every
 * request (an EventSource could only put it in the URL).
 */
export async function* followRunEvents(agentId: string, runId: string, signal: AbortSignal): AsyncGenerator<RunEvent> {
  const key = readKey();
  const response = await fetch(`${runsPath(agentId)}/${encodeURIComponent(runId)}/events`, {
    headers: { accept: 'text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    signal,
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok || !response.body) {
    const problem = await response.json().catch(() => null);
    throw new ApiError(response.status, problem);
  }
  for await (const raw of readServerSentEvents(response.body)) {
    try {
      yield { id: Number(raw.id ?? 0), type: raw.event, data: JSON.parse(raw.data) as Record<string, unknown> };
    } catch {
      // Not JSON: not one of the run's events.
    }
  }
}

/** Statuses after which a run's events are all there (a waiting run's reply has ended too). */
export const settledStatuses = new Set(['waiting', 'completed', 'failed', 'cancelled', 'skipped']);
