/** The Events view (being built). */
export function EventsView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>Events</h1>
    </section>
  );
}
