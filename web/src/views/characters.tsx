import { Loaded, useResource } from '../ui/resource.js';
import { loadAgentChoices } from './agent-choices.js';
import { ExportForm } from './characters/export-form.js';
import { ImportForm } from './characters/import-form.js';

/**
 * Character files (the ElizaOS format, docs in the API's description of
 * POST /v1/agents/import): import one as a new agent, export an agent as one.
 */
export function CharactersView(_props: object) {
  const [choices, reload] = useResource((signal) => loadAgentChoices(signal), []);
  return (
    <section aria-labelledby="characters-title">
      <h1 id="characters-title" tabIndex={-1}>
        Characters
      </h1>
      <p class="hint">Bring agents in from character files, and take them out as files that import again.</p>
      <ImportForm onImported={reload} />
      <Loaded
        resource={choices}
        what="agents"
        onRetry={reload}
        isEmpty={(data) => data.agents.length === 0}
        empty={<p>No agents to export yet: import a character or create an agent first.</p>}
      >
        {(data) => (
          <ExportForm key={data.agents.map((agent) => agent.id).join()} agents={data.agents} moreAgents={data.more} />
        )}
      </Loaded>
    </section>
  );
}
