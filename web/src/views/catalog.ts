import { request } from '../api.js';

/**
 * What the API publishes about itself in its OpenAPI document
 * (GET /v1/openapi.json): the webhook event types with what each means (the
 * document's `webhooks` map) and the scopes a key can hold (the enum of
 * `POST /v1/api-keys`). Read from there rather than copied into the
 * dashboard, so a new event type or scope shows up without a dashboard
 * change. The document is large, so it is read once per page load.
 */
export interface Catalog {
  eventTypes: Array<{ type: string; description: string }>;
  scopes: string[];
}

interface OpenApiDocument {
  webhooks?: Record<string, { post?: { summary?: string } }>;
  paths?: Record<string, Record<string, any>>;
}

let loading: Promise<Catalog> | null = null;

export function loadCatalog(): Promise<Catalog> {
  loading ??= request<OpenApiDocument>('GET', '/v1/openapi.json').then(catalogOf, (caught) => {
    // A failed read is tried again the next time a view asks.
    loading = null;
    throw caught;
  });
  return loading;
}

function catalogOf(document: OpenApiDocument): Catalog {
  const eventTypes = Object.entries(document.webhooks ?? {}).map(([type, operation]) => ({
    type,
    description: operation.post?.summary ?? '',
  }));
  const createKey = document.paths?.['/v1/api-keys']?.post;
  const scopes: unknown =
    createKey?.requestBody?.content?.['application/json']?.schema?.properties?.scopes?.items?.enum;
  return { eventTypes, scopes: Array.isArray(scopes) ? scopes.filter((scope) => typeof scope === 'string') : [] };
}
