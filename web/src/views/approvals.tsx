/** The Approvals view (being built). */
export function ApprovalsView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>Approvals</h1>
    </section>
  );
}
