import { useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { hrefOf, useRoute } from '../../route.js';
import { useResource } from '../../ui/resource.js';
import { DatasetsSection } from './datasets-section.js';
import { EvalList } from './eval-list.js';
import { EvalResults } from './eval-results.js';
import { listDatasets } from './requests.js';
import { StartEvalForm } from './start-eval-form.js';
import './evals.css';

/**
 * An agent's Evals tab: the account's datasets, a form to evaluate the agent
 * on one (one version, or two compared), the agent's evals, and an eval's
 * results (`#/agents/{id}/evals/{evalId}`). The eval shown is read from the
 * route here rather than passed down, so the agent page keeps one prop per tab.
 */
export function AgentEvals({ agent }: { agent: Agent }) {
  const route = useRoute();
  const evalId = route.name === 'agent' ? route.evalId : undefined;
  if (evalId) {
    return (
      <section aria-labelledby="eval-title" class="agent-evals">
        <p>
          <a href={hrefOf({ name: 'agent', agentId: agent.id, tab: 'evals' })}>Back to evals</a>
        </p>
        <EvalResults agent={agent} evalId={evalId} />
      </section>
    );
  }
  return <EvalsHome agent={agent} />;
}

function EvalsHome({ agent }: { agent: Agent }) {
  const [datasets, reloadDatasets] = useResource((signal) => listDatasets(signal), []);
  // Bumped when an eval starts, so the list reads it at once.
  const [started, setStarted] = useState(0);
  return (
    <section aria-labelledby="evals-title" class="agent-evals">
      <h2 id="evals-title" tabIndex={-1}>
        Evals
      </h2>
      <p class="hint">
        Answer a dataset of cases with one version of {agent.name}, or two to compare, and score every reply. The
        replies are runs of their own: no real conversation, memory or webhook of messages is touched.
      </p>
      <DatasetsSection datasets={datasets} onChanged={reloadDatasets} />
      {datasets.status === 'ready' && (
        <StartEvalForm agent={agent} datasets={datasets.data.data} onStarted={() => setStarted((count) => count + 1)} />
      )}
      <EvalList agent={agent} generation={started} />
    </section>
  );
}
