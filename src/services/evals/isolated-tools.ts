import { hasSideEffects } from '../../plugins/side-effects.js';
import type { Tool } from '../../plugins/plugin.js';
import type { Toolbox } from '../../plugins/toolsets.js';

/** What the model reads for a call with side effects an eval did not run. */
export const stubbedResult = { stubbed: true, reason: 'not executed in an eval' } as const;

/** Which tools with side effects a case lets run (its `allowSideEffects`). */
export type SideEffectAllowance = boolean | readonly string[] | undefined;

function allows(allowance: SideEffectAllowance, name: string): boolean {
  return allowance === true || (Array.isArray(allowance) && allowance.includes(name));
}

export function isStubbed(output: unknown): boolean {
  return (
    output !== null &&
    typeof output === 'object' &&
    (output as { stubbed?: unknown }).stubbed === true &&
    (output as { reason?: unknown }).reason === stubbedResult.reason
  );
}

/**
 * A case's toolbox: the version's tools, but a call with side effects (a POST
 * or other non-GET request, a transfer, a platform post, an A2A message,
 * an unknown MCP tool: `hasSideEffects`) is not run unless the case allows
 * that tool; the model gets `stubbedResult` instead. No tool waits for
 * approval in an eval: a call that would is run or stubbed by the same rule.
 */
export function isolatedToolbox(toolbox: Toolbox | null, allowance: SideEffectAllowance): Toolbox | null {
  if (toolbox === null) return null;
  const tools = new Map<string, Tool>();
  for (const [name, tool] of toolbox.tools) {
    if (allows(allowance, name)) {
      tools.set(name, tool);
      continue;
    }
    tools.set(name, {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      // A stubbed call changes nothing, so it is not recorded as a call with side effects.
      sideEffects: false,
      execute: (input, context) =>
        hasSideEffects(tool, input) ? Promise.resolve({ ...stubbedResult }) : tool.execute(input, context),
    });
  }
  return { tools, unavailable: toolbox.unavailable, approvals: new Map() };
}
