import type { operations } from '../../../../src/client/openapi.js';
import type { Agent } from '../../api.js';
import { request } from '../../api.js';

export type VersionPage = operations['listAgentVersions']['responses'][200]['content']['application/json'];
export type VersionSummary = VersionPage['data'][number];
export type VersionDiff = operations['diffAgentVersions']['responses'][200]['content']['application/json'];

const versionsPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}/versions`;

export const versionPageSize = 20;

/** GET /v1/agents/{id}/versions: one page, newest first. */
export const listVersions = (agentId: string, cursor: string | null, signal?: AbortSignal) =>
  request<VersionPage>('GET', versionsPath(agentId), {
    query: { limit: versionPageSize, cursor: cursor ?? undefined },
    signal,
  });

/** What changed from version `from` (absent: the one before) to version `to`, as a JSON Patch. */
export const diffVersions = (agentId: string, to: number, from: number | null, signal?: AbortSignal) =>
  request<VersionDiff>('GET', `${versionsPath(agentId)}/${to}/diff`, {
    query: { from: from ?? undefined },
    signal,
  });

/** Makes a version the agent's configuration again; answers the agent. */
export const restoreVersion = (agentId: string, version: number) =>
  request<Agent>('POST', `${versionsPath(agentId)}/${version}/restore`);
