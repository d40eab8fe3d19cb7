/** The API keys view (being built). */
export function KeysView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>API keys</h1>
    </section>
  );
}
