import { webhookEventTypes, webhookPayloads } from '../../schemas/webhooks.js';

const signatureHeaders = [
  ['webhook-id', 'The event id (`evt_…`): the same on every attempt and redelivery; dedupe on it.'],
  ['webhook-timestamp', 'Unix seconds when this attempt was signed.'],
  ['webhook-signature', '`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the secret (Standard Webhooks).'],
] as const;

/**
 * The OpenAPI 3.1 `webhooks` map: for each event type, the POST agentd makes
 * to a subscribed URL, with its signature headers and body schema. Built from
 * the same schemas the outbox payloads are documented by.
 */
export function webhookDocumentation(): Record<string, any> {
  return Object.fromEntries(
    webhookEventTypes.map((type) => [
      type,
      {
        post: {
          summary: webhookPayloads[type].description,
          tags: ['webhooks'],
          parameters: signatureHeaders.map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: webhookPayloads[type] } } },
          responses: {
            '2XX': { description: 'Received. Any other answer, or none within the time-out, is retried.' },
          },
        },
      },
    ]),
  );
}
