import type { Agent } from './api.js';
import { lazyView } from './ui/lazy.js';

/**
 * Every view but the agents list is a chunk of its own (web/src/views/),
 * fetched when it is first opened.
 */
export const KnowledgeView = lazyView<{ knowledgeBaseId?: string }>(
  () => import('./views/knowledge.js').then((module) => module.KnowledgeView),
  'knowledge',
);
export const WebhooksView = lazyView<{ webhookId?: string }>(
  () => import('./views/webhooks.js').then((module) => module.WebhooksView),
  'webhooks',
);
export const KeysView = lazyView<object>(() => import('./views/keys.js').then((module) => module.KeysView), 'API keys');
export const EventsView = lazyView<object>(
  () => import('./views/events.js').then((module) => module.EventsView),
  'events',
);
export const UsageView = lazyView<object>(() => import('./views/usage.js').then((module) => module.UsageView), 'usage');
export const ApprovalsView = lazyView<object>(
  () => import('./views/approvals.js').then((module) => module.ApprovalsView),
  'approvals',
);
export const CharactersView = lazyView<object>(
  () => import('./views/characters.js').then((module) => module.CharactersView),
  'characters',
);
export const AgentMemory = lazyView<{ agent: Agent }>(
  () => import('./views/agent-memory.js').then((module) => module.AgentMemory),
  'memory',
);
export const AgentTasks = lazyView<{ agent: Agent }>(
  () => import('./views/agent-tasks.js').then((module) => module.AgentTasks),
  'tasks',
);
export const AgentPlatforms = lazyView<{ agent: Agent; onChanged: (agent: Agent) => void }>(
  () => import('./views/agent-platforms.js').then((module) => module.AgentPlatforms),
  'platforms',
);
export const AgentEdit = lazyView<{ agent: Agent | null; onSaved: (agent: Agent) => void }>(
  () => import('./agent-form.js').then((module) => module.AgentForm),
  'the agent form',
);
export const Metrics = lazyView<{ agentId: string }>(
  () => import('./metrics.js').then((module) => module.Metrics),
  'metrics',
);
export const AgentVersions = lazyView<{ agent: Agent; onRestored: (agent: Agent) => void }>(
  () => import('./views/agent-versions.js').then((module) => module.AgentVersions),
  'versions',
);
export const AgentConnect = lazyView<{ agent: Agent }>(
  () => import('./views/agent-connect.js').then((module) => module.AgentConnect),
  'connections',
);
export const RunsView = lazyView<object>(
  () => import('./views/runs/runs-view.js').then((module) => module.RunsView),
  'runs',
);
export const AgentRuns = lazyView<{ agent: Agent }>(
  () => import('./views/runs/runs-view.js').then((module) => module.AgentRuns),
  'runs',
);
export const RunPage = lazyView<{ agentId: string; runId: string }>(
  () => import('./views/runs/run-page.js').then((module) => module.RunPage),
  'run',
);
export const AgentEvals = lazyView<{ agent: Agent }>(
  () => import('./views/evals/agent-evals.js').then((module) => module.AgentEvals),
  'evals',
);
