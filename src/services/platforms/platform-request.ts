import { AppError, describeFieldErrors, notFound } from '../../errors.js';
import type { PlatformInboundRequest, PlatformInboundResponse } from '../../platforms/platform.js';
import type { ServiceDeps } from '../context.js';
import type { PlatformRuntime } from './platform-runtime.js';

/** Aborted only at shutdown: an inbound request's reply outlives the request that brought it (callbacks). */
const inboundSignal = new AbortController().signal;

/**
 * A request a platform sent to an agent's inbound URL. The platform proves
 * itself with its signature (checked by the connector over the raw body), not
 * with an API key; an agent, a platform or a route that does not serve
 * requests is 404, the same as an unknown agent, so nothing is revealed.
 */
export async function handlePlatformRequest({
  deps,
  runtime,
  type,
  agentId,
  request,
}: {
  deps: ServiceDeps;
  runtime: PlatformRuntime;
  type: string;
  agentId: string;
  request: PlatformInboundRequest;
}): Promise<PlatformInboundResponse> {
  const definition = deps.platforms.catalog.definitionOf(type);
  if (definition?.handleInbound === undefined) throw notFound('Platform');
  const accountId = await deps.repositories.platformStates.accountOf(agentId);
  const agent = accountId === null ? null : await deps.repositories.agents.find(accountId, agentId);
  const entry = agent?.profile.platforms.find((platform) => platform.type === type && platform.enabled);
  if (agent === null || entry === undefined) throw notFound('Platform');
  if (agent.status !== 'active') {
    throw new AppError('agent_unavailable', `Agent ${agent.id} is ${agent.status}; it does not answer now.`);
  }
  const secrets: Record<string, string> = {};
  for (const [name, secret] of Object.entries(entry.secrets))
    secrets[name] = deps.secretBox.open(secret.sealed, agent.id);
  const settings = deps.platforms.catalog.settingsWithDefaults(type, entry.settings);
  const response = await definition.handleInbound(
    request,
    settings,
    secrets,
    runtime.contextFor(agent, type, inboundSignal),
  );
  if (response.status < 400) return response;
  // Refusals are problems like any other error of the API.
  if (response.status === 401)
    throw new AppError('unauthorized', 'The request signature is missing, wrong or too old.');
  if (response.status === 404) throw notFound('Platform route');
  const problems = (response.body as { problems?: Array<{ path: string; message: string }> } | undefined)?.problems;
  if (response.status === 400 && problems) {
    throw new AppError('validation_failed', describeFieldErrors(problems), { errors: problems });
  }
  if (response.status === 400) throw new AppError('invalid_json', 'The body is not what this platform sends.');
  throw new AppError('internal', `The ${type} connector could not handle the request.`);
}
