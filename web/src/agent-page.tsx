import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Agent } from './api.js';
import { Chat } from './chat.js';
import { History } from './history.js';
import { agentTabs, hrefOf, navigate, type AgentTab } from './route.js';
import {
  AgentConnect,
  AgentEdit,
  AgentEvals,
  AgentMemory,
  AgentPlatforms,
  AgentRuns,
  AgentTasks,
  AgentVersions,
  Metrics,
} from './views.js';

const tabLabels: Record<AgentTab, string> = {
  chat: 'Chat',
  history: 'History',
  memory: 'Memory',
  tasks: 'Tasks',
  runs: 'Runs',
  platforms: 'Platforms',
  metrics: 'Metrics',
  connect: 'Connect',
  edit: 'Edit',
  versions: 'Versions',
  evals: 'Evals',
};

/** One agent: its chat, history, metrics and form, and deleting it. */
export function AgentPage({ agentId, tab }: { agentId: string; tab: AgentTab }) {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setAgent(null);
    setError(null);
    api
      .getAgent(agentId)
      .then(setAgent, (caught) =>
        setError(caught instanceof ApiError ? caught.message : 'The agent could not be loaded.'),
      );
  }, [agentId]);

  if (error) {
    return (
      <section>
        <h1 tabIndex={-1}>Agent</h1>
        <p class="problem" role="alert">
          {error}
        </p>
        <a href={hrefOf({ name: 'agents' })}>Back to agents</a>
      </section>
    );
  }
  if (!agent) return <p role="status">Loading agent…</p>;

  return (
    <section aria-labelledby="agent-title">
      <div class="section-head">
        <h1 id="agent-title" tabIndex={-1}>
          {agent.name} <span class={`status status-${agent.status}`}>{agent.status}</span>
        </h1>
        <DeleteAgent agent={agent} />
      </div>
      <p class="hint">
        <code>{agent.id}</code> · {agent.model.provider}/{agent.model.name}
        {agent.statusReason ? ` · ${agent.statusReason}` : ''}
      </p>
      <nav class="tabs" aria-label="Agent views">
        {agentTabs.map((name) => (
          <a href={hrefOf({ name: 'agent', agentId, tab: name })} aria-current={name === tab ? 'page' : undefined}>
            {tabLabels[name]}
          </a>
        ))}
      </nav>
      {tab === 'chat' && <Chat agent={agent} />}
      {tab === 'history' && <History agentId={agent.id} />}
      {tab === 'memory' && <AgentMemory agent={agent} />}
      {tab === 'tasks' && <AgentTasks agent={agent} />}
      {tab === 'runs' && <AgentRuns agent={agent} />}
      {tab === 'platforms' && <AgentPlatforms agent={agent} onChanged={setAgent} />}
      {tab === 'metrics' && <Metrics agentId={agent.id} />}
      {tab === 'connect' && <AgentConnect agent={agent} />}
      {tab === 'edit' && <AgentEdit agent={agent} onSaved={setAgent} />}
      {tab === 'versions' && <AgentVersions agent={agent} onRestored={setAgent} />}
      {tab === 'evals' && <AgentEvals agent={agent} />}
    </section>
  );
}

/** Delete behind a confirmation dialog; a refusal (deletion protection) is shown as the server's problem. */
function DeleteAgent({ agent }: { agent: Agent }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  const confirm = async () => {
    setDeleting(true);
    try {
      await api.deleteAgent(agent.id);
      dialog.current?.close();
      navigate({ name: 'agents' });
    } catch (caught) {
      setProblem(caught instanceof ApiError ? caught.message : 'The server could not be reached.');
    } finally {
      setDeleting(false);
    }
  };

  return (
    <>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setProblem(null);
          dialog.current?.showModal();
        }}
      >
        Delete agent
      </button>
      <dialog ref={dialog} aria-labelledby="delete-title" aria-describedby="delete-text">
        <h2 id="delete-title">Delete {agent.name}?</h2>
        <p id="delete-text">
          Its conversations, knowledge and secrets are deleted with it. This cannot be undone.
          {agent.deletionProtection ? ' This agent has deletion protection on: turn it off first.' : ''}
        </p>
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        <div class="actions">
          <button type="button" class="secondary" autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class="danger" disabled={deleting} onClick={confirm}>
            {deleting ? 'Deleting…' : 'Delete for good'}
          </button>
        </div>
      </dialog>
    </>
  );
}
