import { contextWindowOf, defaultOutputReserve } from '../providers/model-limits.js';
import type { AgentRecord, StoredKnowledgeItem } from '../storage/repositories/agents.js';
import type { Repositories } from '../storage/repositories/index.js';
import { historyTokensOf, type HistoryTurn, type StoredToolCall } from './history-window.js';
import type { Citation } from '../schemas/knowledge-bases.js';
import { searchTermsOf } from './knowledge-query.js';
import type { KnowledgeRetrieval } from './knowledge-retrieval.js';
import type { QueryVector } from './query-vector.js';
import { assemblePrompt, type AssembledPrompt, type KnowledgeEntry } from './prompt.js';
import { estimateTokens } from './tokens.js';
import { memorySettingsOf } from '../schemas/memory-settings.js';
import { chooseFacts, type MemoryFactEntry, type PromptMemory } from './memory/memory-prompt.js';
import { fullTextRecall, type RecallSource } from './memory/recall.js';

/** Knowledge items considered per message, and the share of the prompt they may take. */
const maxKnowledgeItems = 5;
const knowledgeTokenBudget = 2_000;
/** Chunks from knowledge bases per message, and their own share of the prompt. */
const maxKnowledgeBaseChunks = 5;
const knowledgeBaseTokenBudget = 2_000;
/** Turns read for the history window: enough for any budget we cut to, and a bound on the work. */
export const maxHistoryTurns = 200;
/** Recall candidates read per message; those already in the window are dropped, the rest fit the budget. */
const recallCandidates = 12;
/** In a room, the most recent speakers (besides the sender) whose facts the prompt may carry. */
const maxSpeakersRemembered = 5;

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

/** The agent's knowledge items most relevant to `text`, best first: what the prompt retrieves, and the knowledge tool. */
export async function findKnowledge(
  repositories: Repositories,
  agent: AgentRecord,
  text: string,
  limit: number,
): Promise<KnowledgeEntry[]> {
  const terms = agent.profile.knowledge.length > 0 ? searchTermsOf(text) : [];
  if (terms.length === 0) return [];
  const positions = await repositories.knowledge.search(agent.id, terms, limit);
  return positions.flatMap((position) => {
    const item = agent.profile.knowledge[position];
    return item === undefined ? [] : [entryOf(item)];
  });
}

/**
 * The chunks of the agent's knowledge bases most relevant to `text`, within
 * their budget, as prompt entries titled with their document (and section)
 * and as the citations the reply will carry. Only bases the agent's account
 * still owns are searched, whatever the stored profile says.
 */
export async function findKnowledgeBaseChunks(
  repositories: Repositories,
  retrieval: KnowledgeRetrieval,
  agent: AgentRecord,
  text: string,
  vector?: QueryVector,
): Promise<{ entries: KnowledgeEntry[]; citations: Citation[] }> {
  const attached = agent.profile.knowledgeBases ?? [];
  if (attached.length === 0) return { entries: [], citations: [] };
  const owned = await repositories.knowledgeBases.existing(agent.accountId, attached);
  const chunks = await retrieval.search(
    attached.filter((id) => owned.has(id)),
    text,
    { limit: maxKnowledgeBaseChunks, tokenBudget: knowledgeBaseTokenBudget, ...(vector ? { vector } : {}) },
  );
  return {
    entries: chunks.map((chunk) => ({
      title: chunk.heading ? `${chunk.title} > ${chunk.heading}` : chunk.title,
      content: chunk.content,
    })),
    citations: chunks.map(({ knowledgeBaseId, documentId, chunkId, title, score, heading, content }) => ({
      knowledgeBaseId,
      documentId,
      chunkId,
      title,
      score,
      excerpt: excerptOf(heading, content),
    })),
  };
}

/** The longest an excerpt of a cited chunk is, in characters (its heading aside). */
const excerptCharacters = 200;

/** A cited chunk's opening: its heading, then its text up to a word near 200 characters. */
function excerptOf(heading: string | null | undefined, content: string): string {
  const text = content.replace(/\s+/g, ' ').trim();
  let cut = text;
  if (text.length > excerptCharacters) {
    const space = text.lastIndexOf(' ', excerptCharacters);
    cut = `${text.slice(0, space > excerptCharacters / 2 ? space : excerptCharacters)}…`;
  }
  return heading ? `${heading}: ${cut}` : cut;
}

/** The people whose facts a prompt carries: the sender, and in a room the recent speakers. */
function peoplePresent(request: PromptRequest, rows: ReadonlyArray<{ user_id: string | null }>): string[] {
  const people = request.userId !== null ? [request.userId] : [];
  if (!request.shared) return people;
  for (const row of rows) {
    if (people.length > maxSpeakersRemembered) break;
    if (row.user_id !== null && !people.includes(row.user_id)) people.push(row.user_id);
  }
  return people;
}

/**
 * The facts of `userIds` worth considering for this message (see
 * MemoryRepository.promptFacts): no more than could fit the budget, as each
 * costs at least four tokens (one of statement, three of framing).
 */
async function factsOf(
  repositories: Repositories,
  agentId: string,
  userIds: string[],
  request: PromptRequest,
  budgetTokens: number,
): Promise<MemoryFactEntry[]> {
  const rows = await repositories.memory.promptFacts(agentId, userIds, {
    terms: searchTermsOf(request.text),
    limit: Math.floor(budgetTokens / 4),
  });
  return rows.map((row) => ({
    userId: row.user_id,
    subject: row.subject,
    statement: row.statement,
    updatedAt: row.updated_at,
  }));
}

/** Reads what the prompt needs (relevant knowledge, recent history, memory) and assembles it. */
export async function buildPrompt(
  repositories: Repositories,
  agent: AgentRecord,
  request: PromptRequest,
  retrieval: KnowledgeRetrieval | null = null,
  recall: RecallSource = fullTextRecall(repositories),
): Promise<AssembledPrompt> {
  const { profile } = agent;
  const settings = memorySettingsOf(profile);
  const conversation = request.conversation;
  const remembers = conversation !== null;
  // A private conversation's facts are the sender's alone, known before history is read; a room's depend on who spoke.
  const privateFacts = remembers && settings.facts && !request.shared && request.userId !== null;
  // One embeddings call for the message, whichever of retrieval and recall asks for it first (none if neither does).
  const vector = retrieval?.queryVector(request.text) ?? undefined;
  const recent =
    conversation !== null ? repositories.messages.recent(agent.id, conversation, maxHistoryTurns) : Promise.resolve([]);
  const recallNow = () => recall.recall(agent.id, conversation as string, request.text, recallCandidates, vector);
  const [found, fromBases, rows, summary, recalled, senderFacts] = await Promise.all([
    findKnowledge(repositories, agent, request.text, maxKnowledgeItems),
    retrieval === null
      ? Promise.resolve({ entries: [], citations: [] })
      : findKnowledgeBaseChunks(repositories, retrieval, agent, request.text, vector),
    recent,
    conversation !== null && settings.summary
      ? repositories.memory.conversation(agent.id, conversation)
      : Promise.resolve(null),
    // Recall searches the conversation's own turns, and a new conversation has none. Where reads run one at a
    // time (SQLite), it waits for the history and is skipped when there is none: its full-text search reads every
    // turn of the agent that shares a word with the message, which first messages no longer pay for.
    conversation !== null && settings.recall
      ? repositories.readsAtOnce
        ? recallNow()
        : recent.then((turns) => (turns.length === 0 ? [] : recallNow()))
      : Promise.resolve([]),
    privateFacts
      ? factsOf(repositories, agent.id, [request.userId as string], request, settings.budgets.factsTokens)
      : Promise.resolve([]),
  ]);
  const facts =
    remembers && settings.facts && request.shared
      ? await factsOf(repositories, agent.id, peoplePresent(request, rows), request, settings.budgets.factsTokens)
      : senderFacts;
  const memory: PromptMemory | null =
    remembers && (settings.summary || settings.facts || settings.recall)
      ? {
          summary: summary?.summary || null,
          facts: chooseFacts(facts, request.text, request.userId, settings.budgets.factsTokens),
          recalled,
          summaryTokens: settings.budgets.summaryTokens,
          recallTokens: settings.budgets.recallTokens,
        }
      : null;
  const knowledge = [...withinBudget(found), ...fromBases.entries];
  const history: HistoryTurn[] = rows.map((row) => ({
    id: row.id,
    role: row.role,
    userId: row.user_id,
    text: row.text,
    ...(row.tool !== null ? { tool: JSON.parse(row.tool) as StoredToolCall } : {}),
  }));
  const model = profile.model;
  const budgetTokens = contextWindowOf(model.provider, model.name) - (model.maxOutputTokens ?? defaultOutputReserve);
  const assembled = assemblePrompt({
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
    budgetTokens,
    // Bounded whether memory is on or off: with it off, turns beyond the bound are not carried at all.
    historyTokens: historyTokensOf(settings.budgets.historyTokens, budgetTokens),
    maxHistoryTurns,
    memory,
  });
  return fromBases.citations.length > 0 ? { ...assembled, citations: fromBases.citations } : assembled;
}
