import type { operations } from '../../../../src/client/openapi.js';
import { request } from '../../api.js';

/** The API key routes the view calls (README, "API keys"), with the generated client types. */
export type ApiKey = operations['listApiKeys']['responses'][200]['content']['application/json']['data'][number];
export type CreatedApiKey = operations['createApiKey']['responses'][201]['content']['application/json'];
export type CreateApiKeyBody = NonNullable<operations['createApiKey']['requestBody']>['content']['application/json'];

export const apiKeys = {
  /** Revoked keys too: the view shows them, marked, so a revocation stays visible. */
  list: (signal?: AbortSignal) =>
    request<{ data: ApiKey[] }>('GET', '/v1/api-keys', { query: { include: 'revoked' }, signal }),
  create: (body: CreateApiKeyBody) => request<CreatedApiKey>('POST', '/v1/api-keys', { body }),
  revoke: (keyId: string) =>
    request<{ id: string; revoked: true }>('DELETE', `/v1/api-keys/${encodeURIComponent(keyId)}`),
};
