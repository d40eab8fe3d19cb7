/** The Webhooks view (being built). */
export function WebhooksView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>Webhooks</h1>
    </section>
  );
}
