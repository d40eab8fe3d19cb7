import type { operations } from '../../../../src/client/openapi.js';
import { api, request, type Agent } from '../../api.js';

/** The platform routes the tab calls (README, "Platforms"), with the generated client types. */
export type PlatformReport =
  operations['listAgentPlatforms']['responses'][200]['content']['application/json']['data'][number];

export const platforms = {
  report: (agentId: string, signal?: AbortSignal) =>
    request<{ data: PlatformReport[] }>('GET', `/v1/agents/${encodeURIComponent(agentId)}/platforms`, { signal }),
  /**
   * Turns one entry on or off. `platforms` is replaced whole (JSON Merge
   * Patch replaces arrays), so every entry is sent back as read: masked
   * secrets sent back keep the stored ones.
   */
  setEnabled: (agent: Agent, index: number, enabled: boolean) =>
    api.updateAgent(agent.id, {
      platforms: agent.platforms.map((entry, position) => ({
        type: entry.type,
        enabled: position === index ? enabled : entry.enabled,
        settings: entry.settings,
        secrets: entry.secrets,
      })),
    }),
};
