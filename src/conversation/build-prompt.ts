import { contextWindowOf, defaultOutputReserve } from '../providers/model-limits.js';
import type { AgentRecord, StoredKnowledgeItem } from '../storage/repositories/agents.js';
import type { Repositories } from '../storage/repositories/index.js';
import type { HistoryTurn } from './history-window.js';
import { searchTermsOf } from './knowledge-query.js';
import { assemblePrompt, type AssembledPrompt, type KnowledgeEntry } from './prompt.js';
import { estimateTokens } from './tokens.js';

/** Knowledge items considered per message, and the share of the prompt they may take. */
const maxKnowledgeItems = 5;
const knowledgeTokenBudget = 2_000;
/** Turns read for the history window: enough for any budget we cut to, and a bound on the work. */
const maxHistoryTurns = 200;

export interface PromptRequest {
  text: string;
  userId: string | null;
  /** The stored conversation this message belongs to, or null when it has none. */
  conversation: string | null;
  shared: boolean;
  context: Record<string, unknown> | null;
}

function entryOf(item: StoredKnowledgeItem): KnowledgeEntry {
  return typeof item === 'string'
    ? { content: item }
    : item.title
      ? { title: item.title, content: item.content }
      : { content: item.content };
}

/** The best-ranked items that fit the knowledge budget (the best one always). */
function withinBudget(items: KnowledgeEntry[]): KnowledgeEntry[] {
  const kept: KnowledgeEntry[] = [];
  let used = 0;
  for (const item of items) {
    const cost = estimateTokens(`${item.title ?? ''} ${item.content}`);
    if (kept.length > 0 && used + cost > knowledgeTokenBudget) break;
    kept.push(item);
    used += cost;
  }
  return kept;
}

/** Reads what the prompt needs (relevant knowledge, recent history) and assembles it. */
export async function buildPrompt(
  repositories: Repositories,
  agent: AgentRecord,
  request: PromptRequest,
): Promise<AssembledPrompt> {
  const { profile } = agent;
  const terms = profile.knowledge.length > 0 ? searchTermsOf(request.text) : [];
  const [positions, rows] = await Promise.all([
    terms.length > 0 ? repositories.knowledge.search(agent.id, terms, maxKnowledgeItems) : Promise.resolve([]),
    request.conversation !== null
      ? repositories.messages.recent(agent.id, request.conversation, maxHistoryTurns)
      : Promise.resolve([]),
  ]);
  const knowledge = withinBudget(
    positions.flatMap((position) => {
      const item = profile.knowledge[position];
      return item === undefined ? [] : [entryOf(item)];
    }),
  );
  const history: HistoryTurn[] = rows.map((row) => ({ role: row.role, userId: row.user_id, text: row.text }));
  const model = profile.model;
  return assemblePrompt({
    character: {
      name: agent.name,
      bio: profile.bio,
      personality: profile.personality,
      goals: profile.goals,
      expertise: profile.expertise,
      system: profile.system,
    },
    knowledge,
    context: request.context,
    history,
    message: { text: request.text, userId: request.userId },
    shared: request.shared,
    budgetTokens: contextWindowOf(model.provider, model.name) - (model.maxOutputTokens ?? defaultOutputReserve),
  });
}
