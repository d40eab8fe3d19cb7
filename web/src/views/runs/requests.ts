import type { ListRunsQuery, Run, RunList } from '../../../../src/client/types.js';
import type { RunSteps, StepPrompt } from './step-types.js';
import { readServerSentEvents } from '../../../../src/client/server-sent-events.js';
import { ApiError, request } from '../../api.js';
import { readKey } from '../../session.js';

export type { Run, RunList, RunSteps, StepPrompt };

const runsPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}/runs`;

export const listRuns = (agentId: string, query: ListRunsQuery, signal?: AbortSignal) =>
  request<RunList>('GET', runsPath(agentId), { query, signal });

export const getRun = (agentId: string, runId: string, signal?: AbortSignal) =>
  request<Run>('GET', `${runsPath(agentId)}/${encodeURIComponent(runId)}`, { signal });

/** The filters of a runs list; an empty string is "any". */
export interface RunFilter {
  status: Run['status'] | '';
  trigger: Run['trigger'] | '';
  agentId: string;
}

export const runPageSize = 20;

/**
 * One page of runs, newest first: the account's (GET /v1/runs), or one
 * agent's when `agentId` is set (the same list, narrowed by the server).
 */
export function listAccountRuns(filter: RunFilter, cursor: string | null, signal?: AbortSignal): Promise<RunList> {
  return request<RunList>('GET', '/v1/runs', {
    query: {
      limit: runPageSize,
      agentId: filter.agentId || undefined,
      status: filter.status || undefined,
      trigger: filter.trigger || undefined,
      cursor: cursor ?? undefined,
    },
    signal,
  });
}

/** POST …/runs/{runId}/cancel: the run as it is once stopped (or still running, when another instance has it). */
export const cancelRun = (agentId: string, runId: string) =>
  request<Run>('POST', `${runsPath(agentId)}/${encodeURIComponent(runId)}/cancel`, { body: {} });

export const getRunSteps = (agentId: string, runId: string, signal?: AbortSignal) =>
  request<RunSteps>('GET', `${runsPath(agentId)}/${encodeURIComponent(runId)}/steps`, { signal });

export const getStepPrompt = (agentId: string, runId: string, index: number, signal?: AbortSignal) =>
  request<StepPrompt>('GET', `${runsPath(agentId)}/${encodeURIComponent(runId)}/steps/${index}/prompt`, { signal });

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

/** Every status and trigger a run has, for the filters; the compiler checks them against the API's lists. */
export const runStatuses = [
  'queued',
  'running',
  'waiting',
  'completed',
  'failed',
  'cancelled',
  'skipped',
] as const satisfies readonly Run['status'][];
export const runTriggers = [
  'message',
  'task',
  'platform',
  'door',
  'mcp',
  'a2a',
  'approval',
  'eval',
] as const satisfies readonly Run['trigger'][];
// A status or trigger the API adds and these lists lack fails the type check here.
const everyStatusListed: Exclude<Run['status'], (typeof runStatuses)[number]> extends never ? true : false = true;
const everyTriggerListed: Exclude<Run['trigger'], (typeof runTriggers)[number]> extends never ? true : false = true;
void everyStatusListed;
void everyTriggerListed;

/** Statuses a run can be cancelled in (POST …/cancel answers 409 for the others). */
export const cancellableStatuses: ReadonlySet<string> = new Set(['queued', 'running']);
