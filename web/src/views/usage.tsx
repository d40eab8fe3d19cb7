/** The Usage view (being built). */
export function UsageView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>Usage</h1>
    </section>
  );
}
