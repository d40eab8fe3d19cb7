import type { Tool } from './plugin.js';

/**
 * Whether a call of `tool` with `input` may change something outside the
 * reply. A tool says so itself (`Tool.sideEffects`); one that does not is
 * taken to have side effects, since repeating an unknown tool is the unsafe
 * choice. Calls with side effects are recorded before they run, and a run
 * taken over after such a call began never runs it again (docs/runs.md,
 * "When an instance stops").
 */
export function hasSideEffects(tool: Pick<Tool, 'sideEffects'>, input: unknown): boolean {
  const { sideEffects } = tool;
  if (sideEffects === undefined) return true;
  if (typeof sideEffects === 'boolean') return sideEffects;
  try {
    return sideEffects(input);
  } catch {
    return true;
  }
}
