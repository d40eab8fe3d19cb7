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

export interface ControlProps {
  id: string;
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
  'aria-required'?: 'true';
}

interface FieldProps {
  pointer: string;
  /** When several fields could share a pointer (map entries being typed): an id of their own. */
  id?: string;
  label: string;
  errors: string[] | undefined;
  hint?: string;
  /** Marked with an asterisk (hidden from screen readers, which hear aria-required instead). */
  required?: boolean;
  children: (props: ControlProps) => ComponentChildren;
}

export function Field({ pointer, id: givenId, label, errors, hint, required, children }: FieldProps) {
  const id = givenId ?? fieldId(pointer);
  const described = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      {/* The mark is beside the label, not in it: the field's name stays its label alone. */}
      <span class="label-line">
        <label for={id}>{label}</label>
        {required && (
          <span class="required-mark" aria-hidden="true">
            *
          </span>
        )}
      </span>
      {children({
        id,
        ...(errors?.length ? { 'aria-invalid': 'true' as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
        ...(required ? { 'aria-required': 'true' as const } : {}),
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

/** The errors of a group (an object, a list, a map) shown at its top and tied to it. */
export function GroupErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={`${id}-error`} class="field-error">
      {errors.join('; ')}
    </p>
  );
}

/** The attributes that make a group in error reachable: focusable, marked invalid, described by its errors. */
export function groupProps(id: string, errors: string[] | undefined) {
  return errors?.length
    ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${id}-error`, tabIndex: -1 }
    : { 'aria-invalid': undefined, 'aria-describedby': undefined, tabIndex: undefined };
}
