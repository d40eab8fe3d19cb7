import { isoTime } from '../../clock.js';
import { AppError, describeFieldErrors, validationError } from '../../errors.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { newId } from '../../ids.js';
import type { MemoryQueryValue, MemoryViewValue, UpdateMemoryBodyValue } from '../../schemas/memory.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { requireScope, type ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { memoryConversationOf, readMemory } from './get-memory.js';

/** A statement as stored: one line, no surrounding space. */
function normalizedStatement(statement: string): string {
  return statement.replace(/\s+/g, ' ').trim();
}

/**
 * Corrects what an agent remembers: replaces (or clears) a conversation's
 * summary and edits the user's facts, all or nothing. Every problem with the
 * request is reported, each at its JSON pointer, before anything changes.
 */
export async function updateMemory({
  ctx,
  agentId,
  query,
  body,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: MemoryQueryValue;
  body: UpdateMemoryBodyValue;
}): Promise<MemoryViewValue> {
  requireScope(ctx, 'agents:write');
  const conversation = memoryConversationOf(query);
  const edits = body.facts ?? [];
  if (edits.length > 0 && query.userId === undefined) {
    throw validationError('/query/userId', 'is required to edit facts: facts belong to one user');
  }
  const agent = await findOwnAgent(ctx, agentId);
  const { repositories } = ctx.deps;
  const { memory } = repositories;
  const userId = query.userId as string;
  let updated = false;
  const result = await repositories.db.transaction().execute(async (transaction) => {
    const now = isoTime(ctx.deps.clock.now());
    const facts = edits.length > 0 ? await memory.factsOfUser(agent.id, userId, transaction) : [];
    const known = new Set(facts.map((fact) => fact.id));
    // Forgetting a fact that is already gone is done; rewriting one that is not there is a mistake.
    const problems = edits.flatMap((edit, index) =>
      'id' in edit && !('delete' in edit) && !known.has(edit.id)
        ? [{ path: `/body/facts/${index}/id`, message: 'is not a fact of this user' }]
        : [],
    );
    if (problems.length > 0) {
      throw new AppError('validation_failed', describeFieldErrors(problems), { errors: problems });
    }
    const changes = { added: 0, replaced: 0, removed: 0 };
    for (const edit of edits) {
      if ('delete' in edit) {
        if (await memory.deleteFact(agent.id, userId, edit.id, transaction)) changes.removed += 1;
      } else if ('id' in edit) {
        const statement = normalizedStatement(edit.statement);
        if (await memory.updateFact(agent.id, userId, edit.id, { statement, updated_at: now }, transaction)) {
          changes.replaced += 1;
        }
      } else {
        const existing = (await memory.factsOfUser(agent.id, userId, transaction)).some(
          (fact) => fact.subject === edit.subject,
        );
        await memory.upsertFact(
          {
            id: newId('fact'),
            agent_id: agent.id,
            user_id: userId,
            subject: edit.subject,
            statement: normalizedStatement(edit.statement),
            source_message_id: null,
            created_at: now,
            updated_at: now,
          },
          transaction,
        );
        if (existing) changes.replaced += 1;
        else changes.added += 1;
      }
    }
    if (changes.added > 0) await memory.pruneFacts(agent.id, userId, transaction);

    let summaryChanged = false;
    if (body.summary !== undefined) {
      const summary = body.summary ?? '';
      // Written without compare-and-set: the owner's correction wins over background work, whose own
      // compare-and-set then fails and starts again from this summary.
      for (let attempt = 0; attempt < 3 && !summaryChanged; attempt += 1) {
        const row = await memory.conversation(agent.id, conversation, transaction);
        if (row?.summary === summary || (row === null && summary === '')) break;
        summaryChanged = await memory.saveConversation(
          {
            agent_id: agent.id,
            conversation,
            summary,
            summarized_through: row?.summarized_through ?? null,
            facts_through: row?.facts_through ?? null,
            updated_at: now,
          },
          row?.version ?? null,
          transaction,
        );
      }
      if (!summaryChanged) {
        const row = await memory.conversation(agent.id, conversation, transaction);
        if ((row?.summary ?? '') !== summary) {
          throw new AppError('internal', 'The summary kept changing while it was being replaced.');
        }
      }
    }
    if (summaryChanged || changes.added + changes.replaced + changes.removed > 0) {
      updated = true;
      await recordAgentEvent(
        eventWriterOf(ctx),
        agent,
        'memory.updated',
        {
          userId: query.userId ?? null,
          roomId: query.roomId ?? null,
          summary: summaryChanged,
          facts: changes,
          source: 'api',
        },
        transaction,
      );
    }
    return readMemory(ctx, agent.id, query, transaction);
  });
  if (updated) {
    ctx.deps.webhooks.outbox.committed();
    ctx.deps.agentMetrics.memoryUpdated({ accountId: agent.accountId, agentId: agent.id });
  }
  return result;
}
