import type { Logger } from 'pino';
import { isoTime, type Clock } from '../../clock.js';
import { maxHistoryTurns } from '../../conversation/build-prompt.js';
import { historyTokensOf, type HistoryTurn } from '../../conversation/history-window.js';
import { foldExtractive, type SummaryTurn } from '../../conversation/memory/extractive-summary.js';
import { extractFacts, type ExtractedFact } from '../../conversation/memory/fact-patterns.js';
import {
  foldShare,
  foldsNothingNew,
  isOutside,
  isSmallTalk,
  leavingShare,
  planMemoryWork,
  windowStartAt,
} from '../../conversation/memory/memory-schedule.js';
import { renderCharacter, renderTurn } from '../../conversation/prompt.js';
import { estimateTokens } from '../../conversation/tokens.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import type { AgentMetricsRecorder } from '../../events/agent-metrics-recorder.js';
import type { WebhookOutbox } from '../../events/webhook-outbox.js';
import { newId } from '../../ids.js';
import { contextWindowOf, defaultOutputReserve } from '../../providers/model-limits.js';
import type { EmbeddingAdapter } from '../../providers/embeddings.js';
import type { ModelGateway } from '../../providers/model-gateway.js';
import { memorySettingsOf } from '../../schemas/memory-settings.js';
import type { MemorySettings } from '../../schemas/memory.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { Repositories } from '../../storage/repositories/index.js';
import type { MemoryConversationRow } from '../../storage/repositories/memory.js';
import { embedTurns } from './embed-turns.js';
import { extractFactsWithModel, factBatchTokens, factMessageTokens, summarizeWithModel } from './memory-model.js';

/** One conversation whose memory may be behind its stored turns. */
export interface MemoryJob {
  accountId: string;
  agentId: string;
  conversation: string;
  /** The conversation has had no message for its schedule's idle time: what waits is done now. */
  idle?: boolean;
}

export interface MemoryWorkDeps {
  repositories: Repositories;
  /** Turns get vectors for recall when an embedding model is configured. */
  embeddings: EmbeddingAdapter | null;
  models: ModelGateway;
  secretBox: SecretBox;
  clock: Clock;
  logger: Logger;
  /** Where `memory.updated` also goes for webhooks, in the same transaction. */
  outbox: WebhookOutbox;
  /** Counts each update in the agent's metrics. */
  agentMetrics: AgentMetricsRecorder;
}

/** Another instance wrote this conversation's memory first: the work is redone from what it wrote. */
export class MemoryWriteConflict extends Error {
  constructor() {
    super('The conversation memory was updated by someone else meanwhile.');
    this.name = 'MemoryWriteConflict';
  }
}

/** User turns read for facts per pass (at least the largest schedule's batch), and turns folded per pass. */
const factTurnsPerPass = 64;
const summaryTurnsPerPass = 200;

/** The participants a conversation key names (see services/messages/conversation.ts). */
export function participantsOf(conversation: string): { userId: string | null; roomId: string | null } {
  if (conversation.startsWith('room:')) return { userId: null, roomId: conversation.slice('room:'.length) };
  return { userId: conversation.slice('user:'.length), roomId: null };
}

/**
 * The tokens the recent turns get in a prompt, as the prompt computes them
 * (less the character, which memory work does not render exactly): turns
 * beyond it are folded into the summary.
 */
function historyBudgetOf(agent: AgentRecord, settings: MemorySettings): number {
  const model = agent.profile.model;
  const { budgets } = settings;
  const promptBudget = contextWindowOf(model.provider, model.name) - (model.maxOutputTokens ?? defaultOutputReserve);
  const left =
    promptBudget -
    estimateTokens(renderCharacter({ name: agent.name, ...agent.profile })) -
    (settings.summary ? budgets.summaryTokens : 0) -
    (settings.facts ? budgets.factsTokens : 0) -
    (settings.recall ? budgets.recallTokens : 0);
  return Math.min(left, historyTokensOf(budgets.historyTokens, promptBudget));
}

interface FactChanges {
  added: number;
  replaced: number;
}

async function writeConversation(
  deps: MemoryWorkDeps,
  agent: AgentRecord,
  job: MemoryJob,
  before: MemoryConversationRow | null,
  next: Pick<MemoryConversationRow, 'summary' | 'summarized_through' | 'facts_through'>,
  work: {
    facts?: Array<{ userId: string; fact: ExtractedFact; messageId: string }>;
    summaryChanged?: boolean;
  },
): Promise<void> {
  const { repositories, clock } = deps;
  const now = isoTime(clock.now());
  const updated = await repositories.db.transaction().execute(async (transaction) => {
    const saved = await repositories.memory.saveConversation(
      { agent_id: job.agentId, conversation: job.conversation, ...next, updated_at: now },
      before?.version ?? null,
      transaction,
    );
    if (!saved) throw new MemoryWriteConflict();
    // The conversation forgotten while this pass worked: what it read must not come back as memory.
    const through = next.summarized_through ?? next.facts_through;
    if (through !== null && !(await repositories.messages.exists(agent.id, through, transaction))) {
      throw new MemoryWriteConflict();
    }
    const changes: FactChanges = { added: 0, replaced: 0 };
    const users = new Set<string>();
    for (const { userId, fact, messageId } of work.facts ?? []) {
      const existing = (await repositories.memory.factsOfUser(agent.id, userId, transaction)).find(
        (known) => known.subject === fact.subject,
      );
      // The same thing said again is not a new fact.
      if (existing && existing.statement.toLowerCase() === fact.statement.toLowerCase()) continue;
      await repositories.memory.upsertFact(
        {
          id: newId('fact'),
          agent_id: agent.id,
          user_id: userId,
          subject: fact.subject,
          statement: fact.statement,
          source_message_id: messageId,
          created_at: now,
          updated_at: now,
        },
        transaction,
      );
      if (existing) changes.replaced += 1;
      else {
        changes.added += 1;
        users.add(userId);
      }
    }
    for (const userId of users) await repositories.memory.pruneFacts(agent.id, userId, transaction);
    const factsChanged = changes.added + changes.replaced > 0;
    if (!factsChanged && !work.summaryChanged) return false;
    await recordAgentEvent(
      { events: repositories.agentEvents, clock, actor: 'service', requestId: null, outbox: deps.outbox },
      agent,
      'memory.updated',
      {
        ...participantsOf(job.conversation),
        summary: work.summaryChanged === true,
        facts: { ...changes, removed: 0 },
        source: 'background',
      },
      transaction,
    );
    return true;
  });
  if (updated) {
    deps.outbox.committed();
    deps.agentMetrics.memoryUpdated({ accountId: agent.accountId, agentId: agent.id });
  }
}

type PendingTurn = Awaited<ReturnType<Repositories['messages']['between']>>[number];

/** The user turns not yet read for facts, oldest first, at most a pass's worth. */
async function pendingFactTurns(
  deps: MemoryWorkDeps,
  agent: AgentRecord,
  job: MemoryJob,
  row: MemoryConversationRow | null,
): Promise<PendingTurn[]> {
  const { repositories } = deps;
  if (row?.facts_through) {
    return repositories.messages.between(
      agent.id,
      job.conversation,
      { afterId: row.facts_through, beforeId: null, role: 'user' },
      factTurnsPerPass,
    );
  }
  // The first pass of a conversation starts from its latest turns: one stored before memory was turned on
  // is not read back to its beginning.
  const latest = await repositories.messages.page({
    agentId: agent.id,
    conversation: job.conversation,
    limit: factTurnsPerPass * 3,
  });
  return latest
    .filter((turn) => turn.role === 'user')
    .slice(0, factTurnsPerPass)
    .reverse();
}

/** A user turn worth reading for facts: a user's, with something in it besides small talk. */
const saysSomething = (turn: PendingTurn) =>
  turn.user_id !== null && turn.text.trim() !== '' && !isSmallTalk(turn.text);

/** Consecutive parts of `turns` whose texts, as a call reads them, fit one call. */
function batchesOf(turns: PendingTurn[]): PendingTurn[][] {
  const batches: PendingTurn[][] = [];
  let current: PendingTurn[] = [];
  let used = 0;
  for (const turn of turns) {
    const cost = Math.min(estimateTokens(turn.text), factMessageTokens) + 4;
    if (current.length > 0 && used + cost > factBatchTokens) {
      batches.push(current);
      current = [];
      used = 0;
    }
    current.push(turn);
    used += cost;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Extracts facts from the user turns not yet read for facts: one model call
 * per user and batch (a private conversation has one user), none for turns of
 * small talk, which the marker moves past. True when more are waiting.
 */
async function updateFacts(
  deps: MemoryWorkDeps,
  agent: AgentRecord,
  job: MemoryJob,
  row: MemoryConversationRow | null,
  turns: PendingTurn[],
  signal: AbortSignal,
): Promise<boolean> {
  const { repositories } = deps;
  if (turns.length === 0) return false;
  const builtin = agent.profile.model.provider === 'builtin';
  const found: Array<{ userId: string; fact: ExtractedFact; messageId: string }> = [];
  const byUser = new Map<string, PendingTurn[]>();
  for (const turn of turns.filter(saysSomething)) {
    const userId = turn.user_id as string;
    byUser.set(userId, [...(byUser.get(userId) ?? []), turn]);
  }
  for (const [userId, said] of byUser) {
    if (builtin) {
      for (const turn of said) {
        for (const fact of extractFacts(turn.text)) found.push({ userId, fact, messageId: turn.id });
      }
      continue;
    }
    const known = (await repositories.memory.factsOfUser(agent.id, userId)).slice(-50);
    for (const batch of batchesOf(said)) {
      const facts = await extractFactsWithModel(
        deps.models,
        deps.secretBox,
        agent,
        batch.map((turn) => turn.text),
        known,
        signal,
      );
      for (const { message, ...fact } of facts) {
        found.push({ userId, fact, messageId: (batch[message] as PendingTurn).id });
      }
    }
  }
  await writeConversation(
    deps,
    agent,
    job,
    row,
    {
      summary: row?.summary ?? '',
      summarized_through: row?.summarized_through ?? null,
      facts_through: turns.at(-1)?.id as string,
    },
    { facts: found },
  );
  return turns.length === factTurnsPerPass;
}

/**
 * Folds the turns before `foldStart` (null: all of them) not yet folded into
 * the summary; true when more are waiting. Turns of small talk with short
 * answers cost no model call: the marker moves past them.
 */
async function updateSummary(
  deps: MemoryWorkDeps,
  agent: AgentRecord,
  settings: MemorySettings,
  job: MemoryJob,
  row: MemoryConversationRow | null,
  foldStart: string | null,
  signal: AbortSignal,
): Promise<boolean> {
  const { repositories } = deps;
  const shared = job.conversation.startsWith('room:');
  const turns = await repositories.messages.between(
    agent.id,
    job.conversation,
    { afterId: row?.summarized_through ?? null, beforeId: foldStart },
    summaryTurnsPerPass,
  );
  if (turns.length === 0) return false;
  const folded: SummaryTurn[] = turns.flatMap((turn) =>
    turn.role === 'tool' || turn.text.trim() === ''
      ? []
      : [{ role: turn.role as 'user' | 'agent', userId: turn.user_id, text: turn.text }],
  );
  const previous = row?.summary ?? '';
  const budget = settings.budgets.summaryTokens;
  const builtin = agent.profile.model.provider === 'builtin';
  let summary = previous;
  if (folded.length > 0 && (builtin || !foldsNothingNew(folded))) {
    summary = builtin
      ? foldExtractive(previous, folded, shared, budget)
      : await summarizeWithModel(deps.models, deps.secretBox, agent, previous, folded, shared, budget, signal);
    // An empty answer is a failed summarization, not an empty conversation: tried again later.
    if (summary === '' && !builtin) throw new Error('The model answered no summary');
  }
  await writeConversation(
    deps,
    agent,
    job,
    row,
    {
      summary,
      summarized_through: turns.at(-1)?.id as string,
      facts_through: row?.facts_through ?? null,
    },
    { summaryChanged: summary !== previous },
  );
  return turns.length === summaryTurnsPerPass;
}

/** What one pass did and left. */
export interface MemoryPassResult {
  /** A pass stopped at its bound with more work waiting: run another. */
  more: boolean;
  /**
   * Facts wait that the schedule has not called for yet: run again with
   * `idle` once the conversation has had no message for this many seconds.
   * Null when nothing waits.
   */
  idleSeconds: number | null;
}

/**
 * Brings one conversation's memory up to date with its stored turns, as far
 * as the agent's memory schedule calls for (see conversation/memory/
 * memory-schedule.ts): vectors of the turns without one (for recall, after
 * every exchange: no model call), then facts from the user turns not yet
 * read, then the summary of the turns leaving the window. Everything it needs
 * is found from the stored turns and the two markers, so it can run on any
 * instance, again after a failure or a restart.
 */
export async function updateConversationMemory(
  deps: MemoryWorkDeps,
  job: MemoryJob,
  signal: AbortSignal,
): Promise<MemoryPassResult> {
  const { repositories } = deps;
  const agent = await repositories.agents.find(job.accountId, job.agentId);
  if (agent === null) return { more: false, idleSeconds: null };
  const settings = memorySettingsOf(agent.profile);
  let more = false;
  // The embedding provider down does not hold facts and summary back: its failure is thrown once they are done.
  let embeddingFailure: unknown = null;
  if (settings.recall) {
    try {
      more = await embedTurns(deps, agent, job, signal);
    } catch (error) {
      embeddingFailure = error;
    }
  }
  let waiting = false;
  if (settings.facts || settings.summary) {
    const row = await repositories.memory.conversation(agent.id, job.conversation, repositories.db);
    const shared = job.conversation.startsWith('room:');
    const recent = await repositories.messages.recent(agent.id, job.conversation, maxHistoryTurns);
    const history: HistoryTurn[] = recent.map((turn) => ({
      id: turn.id,
      role: turn.role,
      userId: turn.user_id,
      text: turn.text,
    }));
    // The builtin model's memory work costs no model call: done after every exchange, folding what left.
    const everyExchange = agent.profile.model.provider === 'builtin';
    const budget = historyBudgetOf(agent, settings);
    const windowAt = (share: number) =>
      windowStartAt(history, budget, maxHistoryTurns, share, (turn) => renderTurn(turn, shared));
    const leavingStart = windowAt(everyExchange ? 1 : leavingShare);
    const factTurns = settings.facts ? await pendingFactTurns(deps, agent, job, row) : [];
    const summaryLeaving =
      settings.summary &&
      recent.length > 0 &&
      (
        await repositories.messages.between(
          agent.id,
          job.conversation,
          { afterId: row?.summarized_through ?? null, beforeId: leavingStart },
          1,
        )
      ).length > 0;
    const plan = planMemoryWork(
      {
        factTurns: factTurns.filter(saysSomething).length,
        factTurnsAll: factTurns.length,
        factTurnLeaving: factTurns.some((turn) => isOutside(turn.id, leavingStart)),
        summaryTurnLeaving: summaryLeaving,
      },
      settings.schedule,
      { idle: job.idle === true, everyExchange },
    );
    waiting = plan.waiting;
    if (plan.facts) more = (await updateFacts(deps, agent, job, row, factTurns, signal)) || more;
    if (plan.summary) {
      const current = plan.facts
        ? await repositories.memory.conversation(agent.id, job.conversation, repositories.db)
        : row;
      const foldStart = everyExchange ? leavingStart : windowAt(foldShare);
      more = (await updateSummary(deps, agent, settings, job, current, foldStart, signal)) || more;
    }
  }
  if (embeddingFailure !== null) throw embeddingFailure;
  return { more, idleSeconds: waiting ? settings.schedule.idleSeconds : null };
}
