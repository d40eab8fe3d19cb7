import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.js';

/**
 * What a view has of something it loads: loading, failed with a message the
 * user can read, or there. Every view shows all three (and "nothing yet"
 * for an empty list) the same way, through <Loaded>.
 */
export type Resource<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T };

/** A message for the user from anything a request threw. */
export function messageOf(caught: unknown, fallback = 'The server could not be reached.'): string {
  return caught instanceof ApiError ? caught.message : fallback;
}

/**
 * Loads with `load` whenever a dependency changes, aborting the previous
 * request so a slow answer never overwrites a newer one; `reload` loads
 * again without showing the loading state (the old data stays on screen).
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  dependencies: unknown[],
): [Resource<T>, () => void] {
  const [resource, setResource] = useState<Resource<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    setResource({ status: 'loading' });
  }, dependencies);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResource({ status: 'ready', data });
      },
      (caught) => {
        if (!controller.signal.aborted) setResource({ status: 'error', message: messageOf(caught) });
      },
    );
    return () => controller.abort();
  }, [...dependencies, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return [resource, reload];
}

interface LoadedProps<T> {
  resource: Resource<T>;
  /** What is loading, for the status line: "webhooks" gives "Loading webhooks…". */
  what: string;
  /** True when the data is an empty list: `empty` is shown instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: ComponentChildren;
  onRetry?: () => void;
  children: (data: T) => ComponentChildren;
}

/** The loading, error, empty and ready states of a view, announced to screen readers. */
export function Loaded<T>({ resource, what, isEmpty, empty, onRetry, children }: LoadedProps<T>) {
  if (resource.status === 'loading') {
    return (
      <p class="state-loading" role="status">
        Loading {what}…
      </p>
    );
  }
  if (resource.status === 'error') {
    return (
      <div class="state-error" role="alert">
        <p class="problem">{resource.message}</p>
        {onRetry && (
          <button type="button" class="secondary" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    );
  }
  if (isEmpty?.(resource.data)) {
    return (
      <div class="state-empty" role="status">
        {empty ?? <p>Nothing here yet.</p>}
      </div>
    );
  }
  return <>{children(resource.data)}</>;
}
