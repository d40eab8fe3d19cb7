import { AppError } from '../../errors.js';
import { requireScope, type Scope, type ServiceContext } from '../context.js';
import { clientError } from './agent-request-handler.js';

/**
 * The scope each A2A method needs (its A2A 1.0 name and its 0.3 one), the
 * scope of the REST route that does the same work: sending and cancelling
 * `messages:send`, reading tasks and cards `agents:read`. Push notification
 * configs, which agentd does not offer, are taken as what they would be: a
 * config made or removed acts for the key, one read is read.
 */
const methodScopes: Record<string, Scope> = {
  SendMessage: 'messages:send',
  'message/send': 'messages:send',
  SendStreamingMessage: 'messages:send',
  'message/stream': 'messages:send',
  CancelTask: 'messages:send',
  'tasks/cancel': 'messages:send',
  GetTask: 'agents:read',
  'tasks/get': 'agents:read',
  ListTasks: 'agents:read',
  SubscribeToTask: 'agents:read',
  'tasks/resubscribe': 'agents:read',
  GetExtendedAgentCard: 'agents:read',
  'agent/getAuthenticatedExtendedCard': 'agents:read',
  CreateTaskPushNotificationConfig: 'messages:send',
  'tasks/pushNotificationConfig/set': 'messages:send',
  DeleteTaskPushNotificationConfig: 'messages:send',
  'tasks/pushNotificationConfig/delete': 'messages:send',
  GetTaskPushNotificationConfig: 'agents:read',
  'tasks/pushNotificationConfig/get': 'agents:read',
  ListTaskPushNotificationConfigs: 'agents:read',
  'tasks/pushNotificationConfig/list': 'agents:read',
};

/**
 * Refuses a request whose key lacks the scope of its method, before the
 * agent it names is looked up: a key that may not call the method gets one
 * answer whether the agent exists, is another account's or is missing (A2A
 * would otherwise tell it, a 404 against a JSON-RPC error). A request that
 * names no method agentd knows (the SDK answers it, after the agent is found)
 * needs one of the two scopes. Throws the error as A2A clients are told it.
 */
export function requireMethodScope(ctx: ServiceContext, body: unknown): void {
  const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
  try {
    if (typeof method === 'string' && Object.hasOwn(methodScopes, method)) {
      requireScope(ctx, methodScopes[method]!);
    } else if (!ctx.actor.scopes.has('agents:read') && !ctx.actor.scopes.has('messages:send')) {
      throw new AppError('insufficient_scope', 'This API key lacks the agents:read and messages:send scopes.');
    }
  } catch (error) {
    throw clientError(error);
  }
}
