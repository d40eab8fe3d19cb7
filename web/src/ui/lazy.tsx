import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A view that is a chunk of its own: fetched the first time it is shown, kept
 * afterwards. The first load carries only the agents list; each other view
 * costs its bytes when it is opened (bench/README, "Dashboard").
 */
export function lazyView<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  what: string,
): ComponentType<Props> {
  let loaded: ComponentType<Props> | null = null;
  return function LazyView(props: Props) {
    const [view, setView] = useState<ComponentType<Props> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded) return;
      load().then(
        (component) => {
          loaded = component;
          setView(() => component);
        },
        () => setFailed(true),
      );
    }, []);
    if (failed) {
      return (
        <p class="problem" role="alert">
          The {what} view could not be loaded; reload the page.
        </p>
      );
    }
    if (!view) return <p role="status">Loading {what}…</p>;
    const View = view;
    return <View {...props} />;
  };
}
