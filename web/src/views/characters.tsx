/** The Characters view (being built). */
export function CharactersView(_props: object) {
  return (
    <section>
      <h1 tabIndex={-1}>Characters</h1>
    </section>
  );
}
