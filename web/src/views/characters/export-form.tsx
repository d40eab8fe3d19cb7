import { useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { messageOf } from '../../ui/resource.js';
import { downloadFile } from '../download-file.js';
import { exportCharacter } from './requests.js';

/** A file name from the agent's name: letters, digits and dashes only. */
export function characterFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `${slug || 'agent'}.character.json`;
}

/** Downloads one agent as a character file (GET /v1/agents/{id}/export), which imports again as the same agent. */
export function ExportForm({ agents, moreAgents }: { agents: Agent[]; moreAgents: boolean }) {
  const [agentId, setAgentId] = useState(agents[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const agent = agents.find((candidate) => candidate.id === agentId);
    if (!agent) return;
    setBusy(true);
    setProblem(null);
    setStatus('');
    try {
      const character = await exportCharacter(agent.id);
      const fileName = characterFileName(agent.name);
      downloadFile(fileName, `${JSON.stringify(character, null, 2)}\n`, 'application/json');
      setStatus(`Downloaded ${fileName}. Secrets are named in it with empty values.`);
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="export-title" class="card">
      <h2 id="export-title">Export an agent</h2>
      <form onSubmit={submit}>
        <div class="field">
          <label for="export-agent">Agent</label>
          <select
            id="export-agent"
            value={agentId}
            aria-describedby={moreAgents ? 'export-agent-hint' : undefined}
            onChange={(event) => setAgentId(event.currentTarget.value)}
          >
            {agents.map((agent) => (
              <option value={agent.id}>{agent.name}</option>
            ))}
          </select>
          {moreAgents && (
            <p id="export-agent-hint" class="hint">
              The first {agents.length} agents by name.
            </p>
          )}
        </div>
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={busy || agentId === ''}>
            {busy ? 'Exporting…' : 'Download character file'}
          </button>
        </div>
        <p role="status" class="hint">
          {status}
        </p>
      </form>
    </section>
  );
}
