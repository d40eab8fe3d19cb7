import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { problemResponses } from '../../schemas/common.js';
import { AccountLimitsBody, AccountLimitsView } from '../../schemas/spend-limits.js';
import { getAccountLimits, putAccountLimits } from '../../services/spend/account-limits.js';

const about =
  "The account's spend limits: tokens or US dollars per UTC day and month, over all its agents, besides each " +
  "agent's own `limits.spend`. A message or task is refused with 429 `budget_exceeded` once a total reaches a " +
  'limit; a reply that began always finishes and is counted. Spend is counted while a limit applies. ' +
  'Scope: `keys:manage`. See docs/spend-limits.md.';

export function registerAccountLimits(app: App): void {
  app.get(
    '/v1/account/limits',
    {
      config: { operation: { scope: 'keys:manage', rateLimit: 'manageKeys', rateLimitPer: 'account' } },
      schema: {
        operationId: 'getAccountLimits',
        tags: ['api-keys'],
        summary: "Read the account's spend limits",
        description: about,
        response: { 200: AccountLimitsView, ...problemResponses() },
      },
    },
    async (request) => getAccountLimits({ ctx: contextOf(request) }),
  );
  app.put(
    '/v1/account/limits',
    {
      config: { operation: { scope: 'keys:manage', rateLimit: 'manageKeys', rateLimitPer: 'account' } },
      schema: {
        operationId: 'putAccountLimits',
        tags: ['api-keys'],
        summary: "Replace the account's spend limits",
        description: `${about} A limit left out (or null) is removed.`,
        body: AccountLimitsBody,
        response: { 200: AccountLimitsView, ...problemResponses(400) },
      },
    },
    async (request) => putAccountLimits({ ctx: contextOf(request), input: request.body }),
  );
}
