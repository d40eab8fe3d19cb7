import { request } from '../../api.js';
import type { operations } from '../../../../src/client/openapi.js';

export type ImportedAgent = operations['importAgent']['responses'][201]['content']['application/json'];
export type ImportReport = ImportedAgent['report'];
export type ExportedCharacter = operations['exportAgent']['responses'][200]['content']['application/json'];

/** POST /v1/agents/import: the character file as parsed JSON (the server checks its shape). */
export const importCharacter = (character: unknown) =>
  request<ImportedAgent>('POST', '/v1/agents/import', { body: character });

/** GET /v1/agents/{agentId}/export: the agent as a character file, secrets named with empty values. */
export const exportCharacter = (agentId: string) =>
  request<ExportedCharacter>('GET', `/v1/agents/${encodeURIComponent(agentId)}/export`);
