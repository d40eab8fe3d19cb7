import { requireScope, type ServiceContext } from '../context.js';
import { requestRunCancel } from '../runs/runs.js';

/**
 * How a client's `notifications/cancelled` finds the tool call it names. The
 * notification is a request of its own, which a load balancer may send to
 * any instance: the call is looked for among this instance's calls first (it
 * is aborted at once), then among the runs of the account, where the run of a
 * `send_message` or `ask_<agent>` call is stored under the same key and is
 * cancelled as `POST …/runs/{id}/cancel` cancels it (the instance producing
 * it stops it at its next heartbeat).
 *
 * A call is named by its JSON-RPC request id within the client's
 * `Mcp-Session-Id`: MCP makes request ids unique within a session, and
 * session ids are random. A client that sends no session id (it skipped
 * `initialize`, or dropped the header) has no such guarantee: its calls are
 * named within its API key instead, and a cancellation that matches several
 * calls (on this instance, or none being here, among the unfinished runs)
 * cancels none rather than guess. docs/mcp-server.md says what that leaves.
 */

/** The longest string request id stored with its run (an index entry): a longer one is cancelled on its own instance only. */
export const storedRequestIdLength = 200;

/** The name of a call within its account: its session (or, without one, its API key) and its request id. */
export interface McpCallKey {
  /** Among this instance's calls. */
  local: string;
  /** With the call's run; null when the request id is too long to store. */
  stored: string | null;
}

export function mcpCallKey(sessionId: string, keyId: string, requestId: string | number): McpCallKey {
  const scope = sessionId !== '' ? `session:${sessionId}` : `key:${keyId}`;
  const local = `${scope}\n${typeof requestId}:${requestId}`;
  return { local, stored: String(requestId).length <= storedRequestIdLength ? local : null };
}

/** The tool calls this instance is answering, by account and call key. */
export class McpCallRegistry {
  readonly #calls = new Map<string, Set<AbortController>>();

  begin(accountId: string, callKey: string, controller: AbortController): () => void {
    const key = `${accountId}\n${callKey}`;
    let controllers = this.#calls.get(key);
    if (controllers === undefined) {
      controllers = new Set();
      this.#calls.set(key, controllers);
    }
    controllers.add(controller);
    return () => {
      controllers.delete(controller);
      if (controllers.size === 0 && this.#calls.get(key) === controllers) this.#calls.delete(key);
    };
  }

  /** Aborts the one call here under the key; `ambiguous` (nothing aborted) when there are several. */
  cancel(accountId: string, callKey: string, reason: unknown): 'cancelled' | 'ambiguous' | 'absent' {
    const controllers = this.#calls.get(`${accountId}\n${callKey}`);
    if (controllers === undefined) return 'absent';
    if (controllers.size > 1) return 'ambiguous';
    for (const controller of controllers) controller.abort(reason);
    return 'cancelled';
  }

  /** Calls in progress here. */
  get size(): number {
    let count = 0;
    for (const controllers of this.#calls.values()) count += controllers.size;
    return count;
  }
}

/** Where a cancellation took effect: here, through the run on whichever instance produces it, or nowhere. */
export type McpCancelOutcome = 'here' | 'run' | 'ambiguous' | 'absent';

/**
 * Cancels the call `callKey` names in the caller's account. A cancellation
 * needs the scope cancelling a run needs (`messages:send`, which the call
 * itself needed too).
 */
export async function cancelMcpCall({
  ctx,
  calls,
  callKey,
  reason,
}: {
  ctx: ServiceContext;
  calls: McpCallRegistry;
  callKey: McpCallKey;
  reason: unknown;
}): Promise<McpCancelOutcome> {
  requireScope(ctx, 'messages:send');
  const accountId = ctx.actor.accountId;
  const local = calls.cancel(accountId, callKey.local, reason);
  if (local === 'cancelled') return 'here';
  if (local === 'ambiguous') return 'ambiguous';
  if (callKey.stored === null) return 'absent';
  // Two rows are enough to tell one call from several.
  const runs = await ctx.deps.repositories.runs.unfinishedByCallKey(accountId, callKey.stored, 2);
  if (runs.length > 1) return 'ambiguous';
  const run = runs[0];
  if (run === undefined) return 'absent';
  return (await requestRunCancel(ctx, run)) ? 'run' : 'absent';
}
