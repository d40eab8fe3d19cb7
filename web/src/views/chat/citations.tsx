import { useEffect, useState } from 'preact/hooks';
import { hrefOf } from '../../route.js';
import type { Citation } from './reply-state.js';
import { knowledgeBaseName } from './requests.js';

/**
 * The knowledge an answer was given, under it, best first: each cited
 * document with how well its chunk matched, a link to its knowledge base's
 * page, and the chunk's opening as the prompt held it.
 */
export function Citations({ citations, labelledBy }: { citations: Citation[]; labelledBy: string }) {
  const [names, setNames] = useState<Map<string, string | null>>(new Map());
  const baseIds = [...new Set(citations.map((citation) => citation.knowledgeBaseId))];

  useEffect(() => {
    let current = true;
    void Promise.all(baseIds.map(async (id) => [id, await knowledgeBaseName(id)] as const)).then((pairs) => {
      if (current) setNames(new Map(pairs));
    });
    return () => {
      current = false;
    };
  }, [baseIds.join(' ')]);

  return (
    <section class="citations" aria-labelledby={labelledBy}>
      <h3 id={labelledBy} class="citations-title">
        Sources
      </h3>
      <ol>
        {citations.map((citation) => {
          const name = names.get(citation.knowledgeBaseId);
          return (
            <li key={citation.chunkId} class="citation">
              <cite>{citation.title}</cite> · match {citation.score.toFixed(2)} · in{' '}
              <a href={hrefOf({ name: 'knowledge', knowledgeBaseId: citation.knowledgeBaseId })}>
                {name ?? 'its knowledge base'}
              </a>
              {citation.excerpt !== undefined ? <q class="citation-excerpt">{citation.excerpt}</q> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
