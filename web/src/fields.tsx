import type { ComponentChildren } from 'preact';

/**
 * Labelled inputs whose errors are tied to them (aria-invalid and
 * aria-describedby), so a problem from the server reads at its field.
 */

export const fieldId = (pointer: string) => `field${pointer.replace(/[^A-Za-z0-9]+/g, '-')}`;

/**
 * Sorts the server's field errors to the fields the form shows: an error goes
 * to the deepest field whose pointer is its own or a parent of it
 * (`/plugins/0/secrets/TOKEN` to the secrets of plugin 0); the rest are
 * shown above the form.
 */
export function assignErrors(
  errors: Array<{ path: string; message: string }>,
  pointers: string[],
): { byField: Map<string, string[]>; unplaced: Array<{ path: string; message: string }> } {
  const byField = new Map<string, string[]>();
  const unplaced: Array<{ path: string; message: string }> = [];
  for (const error of errors) {
    const path = error.path.replace(/^\/body(?=\/|$)/, '');
    const owner = pointers
      .filter((pointer) => path === pointer || path.startsWith(`${pointer}/`))
      .sort((a, b) => b.length - a.length)[0];
    if (owner === undefined) {
      unplaced.push({ path, message: error.message });
      continue;
    }
    const detail = path === owner ? error.message : `${path.slice(owner.length + 1)} ${error.message}`;
    byField.set(owner, [...(byField.get(owner) ?? []), detail]);
  }
  return { byField, unplaced };
}

interface FieldProps {
  pointer: string;
  label: string;
  errors: string[] | undefined;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string }) => ComponentChildren;
}

export function Field({ pointer, label, errors, hint, children }: FieldProps) {
  const id = fieldId(pointer);
  const described = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({
        id,
        ...(errors?.length ? { 'aria-invalid': 'true' as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {errors?.length ? (
        <p id={`${id}-error`} class="field-error">
          {errors.join('; ')}
        </p>
      ) : null}
    </div>
  );
}
