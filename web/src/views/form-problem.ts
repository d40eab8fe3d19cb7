import { ApiError } from '../api.js';
import { assignErrors, fieldId } from '../fields.js';
import { messageOf } from '../ui/resource.js';

/**
 * What a refused form shows: the server's field errors at the fields their
 * pointers name, one line above the form, and focus moved to the first field
 * to fix. A checkbox group's pointer focuses its first box (`<id>-0`).
 */
export function formProblem(
  caught: unknown,
  pointers: string[],
  groups: string[] = [],
): { byField: Map<string, string[]>; message: string } {
  const { byField, unplaced } =
    caught instanceof ApiError ? assignErrors(caught.fieldErrors, pointers) : { byField: new Map(), unplaced: [] };
  const first = pointers.find((pointer) => byField.has(pointer));
  if (first) document.getElementById(groups.includes(first) ? `${fieldId(first)}-0` : fieldId(first))?.focus();
  return {
    byField,
    message: byField.size > 0 && unplaced.length === 0 ? 'Check the fields marked below.' : messageOf(caught),
  };
}
