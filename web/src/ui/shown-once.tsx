import { useState } from 'preact/hooks';

/**
 * A secret the server shows once (a new API key, a webhook's signing
 * secret): shown in a read-only field with a copy button and a plain warning,
 * until the user dismisses it. It is kept in this component's state only,
 * never in storage or the URL.
 */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = `shown-once-${label.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;
  return (
    <div class="shown-once" role="region" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1}>
        {label}
      </h2>
      <p>This is the only time it is shown: copy it now and keep it somewhere safe.</p>
      <div class="shown-once-value">
        <label for={id} class="visually-hidden">
          {label}
        </label>
        <input id={id} type="text" readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <button
          type="button"
          class="secondary"
          onClick={() =>
            navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" onClick={onDone}>
        I have saved it
      </button>
    </div>
  );
}
