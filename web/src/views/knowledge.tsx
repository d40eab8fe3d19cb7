/** The Knowledge view (being built). */
export function KnowledgeView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>Knowledge</h1>
    </section>
  );
}
