import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { GroupErrors, groupProps } from '../../fields.js';

interface Props<T> {
  id: string;
  legend: string;
  /** A short hint under the legend. */
  hint?: string;
  required?: boolean;
  items: T[];
  onChange: (items: T[]) => void;
  /** A new, blank item. */
  blank: () => T;
  /** What one item is called, for its group and buttons: "Allowed host 2". */
  itemName: (index: number) => string;
  errors: string[] | undefined;
  /** False when an item is one labelled control: a group around it would only repeat its label. */
  grouped?: boolean;
  renderItem: (item: T, index: number, update: (item: T) => void) => ComponentChildren;
}

/**
 * A list of items, each its own group with a remove button, and an add
 * button that puts focus in the new item, so a list is filled in from the
 * keyboard without hunting for the new row.
 */
export function ListEditor<T>(props: Props<T>) {
  const { id, legend, hint, required, items, onChange, blank, itemName, errors, grouped = true, renderItem } = props;
  const added = useRef(false);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    list.current?.lastElementChild?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, [items.length]);

  return (
    <fieldset id={id} class="list-editor" {...groupProps(id, errors)}>
      <legend>
        {legend}
        {required && (
          <span class="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      {hint && <p class="hint">{hint}</p>}
      <GroupErrors id={id} errors={errors} />
      <div ref={list}>
        {items.map((item, index) => (
          <div class="list-item" {...(grouped ? { role: 'group', 'aria-label': itemName(index) } : {})}>
            {renderItem(item, index, (changed) => onChange(items.map((old, at) => (at === index ? changed : old))))}
            <button
              type="button"
              class="secondary"
              onClick={() => {
                onChange(items.filter((_item, at) => at !== index));
                // Focus would be lost with the removed button: it goes to the add button.
                document.getElementById(`${id}-add`)?.focus();
              }}
            >
              Remove {itemName(index).toLowerCase()}
            </button>
          </div>
        ))}
      </div>
      <button
        id={`${id}-add`}
        type="button"
        class="secondary"
        onClick={() => {
          added.current = true;
          onChange([...items, blank()]);
        }}
      >
        Add {itemName(items.length).replace(/ \d+$/, '').toLowerCase()}
      </button>
    </fieldset>
  );
}
