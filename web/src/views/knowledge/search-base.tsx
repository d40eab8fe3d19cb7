import { useState } from 'preact/hooks';
import { messageOf } from '../../ui/resource.js';
import { knowledgeApi, type SearchResults } from './requests.js';

/** Tries a query against the base: the chunks an agent's prompt would get, best first, each with its citation. */
export function SearchBase({ baseId }: { baseId: string }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<SearchResults | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!query.trim()) return;
    setSearching(true);
    setProblem(null);
    try {
      setResults(await knowledgeApi.search(baseId, query.trim()));
    } catch (caught) {
      setResults(null);
      setProblem(messageOf(caught));
    } finally {
      setSearching(false);
    }
  };

  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title">Search</h2>
      <form class="filters" role="search" aria-label="Search this knowledge base" onSubmit={submit}>
        <div class="field">
          <label for="knowledge-query">Query</label>
          <input
            id="knowledge-query"
            type="search"
            required
            maxLength={4000}
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" disabled={searching}>
            {searching ? 'Searching…' : 'Search'}
          </button>
        </div>
      </form>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {results && (
        <>
          <p role="status">
            {results.data.length === 0
              ? 'No chunk matches this query.'
              : `${results.data.length} ${results.data.length === 1 ? 'chunk' : 'chunks'}, best first (${results.mode} retrieval).`}
          </p>
          <ol class="search-hits">
            {results.data.map((hit) => (
              <li key={hit.chunkId}>
                <p class="citation">
                  <cite>{hit.title}</cite>
                  {hit.heading && hit.heading !== hit.title ? ` › ${hit.heading}` : ''} · chunk {hit.position + 1} ·
                  score {hit.score.toFixed(4)}
                </p>
                <blockquote>{hit.content}</blockquote>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
