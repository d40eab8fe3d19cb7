import { isoTime } from '../../clock.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type {
  CreateKnowledgeBaseInput,
  KnowledgeBaseListView,
  KnowledgeBaseView,
  ListKnowledgeBasesQueryValue,
  UpdateKnowledgeBaseInput,
} from '../../schemas/knowledge-bases.js';
import type { KnowledgeBaseRecord } from '../../storage/repositories/knowledge-bases.js';
import type { Executor } from '../../storage/schema.js';
import { agentChanges } from '../../events/agent-changes.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { recordAgentVersion } from '../agent-versions/record-version.js';
import { decodePagedCursor, encodePagedCursor } from '../last-id-cursor.js';
import { toKnowledgeBaseView } from './views.js';

const defaultLimit = 20;

/** The caller's knowledge base, or 404: another account's is indistinguishable from a missing one. */
export async function findOwnKnowledgeBase(
  ctx: ServiceContext,
  knowledgeBaseId: string,
  executor?: Executor,
): Promise<KnowledgeBaseRecord> {
  const record = await ctx.deps.repositories.knowledgeBases.find(ctx.actor.accountId, knowledgeBaseId, executor);
  if (record === null) throw notFound('Knowledge base');
  return record;
}

export async function createKnowledgeBase({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: CreateKnowledgeBaseInput;
}): Promise<KnowledgeBaseView> {
  requireScope(ctx, 'agents:write');
  const now = isoTime(ctx.deps.clock.now());
  const record: KnowledgeBaseRecord = {
    id: newId('knowledgeBase'),
    accountId: ctx.actor.accountId,
    name: input.name,
    description: input.description ?? null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.deps.repositories.knowledgeBases.insert(record);
  ctx.deps.logger.info(
    { knowledgeBaseId: record.id, accountId: record.accountId, requestId: ctx.requestId },
    'knowledge base created',
  );
  return toKnowledgeBaseView(record);
}

export async function listKnowledgeBases({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListKnowledgeBasesQueryValue;
}): Promise<KnowledgeBaseListView> {
  requireScope(ctx, 'agents:read');
  const limit = query.limit ?? defaultLimit;
  const cursor = query.cursor !== undefined ? decodePagedCursor('knowledgeBase', query.cursor, 0) : null;
  const page = cursor ? cursor.page : (query.page ?? 1);
  const { rows, total } = await ctx.deps.repositories.knowledgeBases.page(ctx.actor.accountId, {
    limit,
    ...(cursor ? { beforeId: cursor.lastId } : { offset: (page - 1) * limit }),
  });
  const totalPages = Math.ceil(total / limit);
  const hasMore = rows.length === limit && page < totalPages;
  const last = rows[rows.length - 1];
  return {
    data: rows.map(toKnowledgeBaseView),
    pagination: {
      page,
      limit,
      total,
      totalPages,
      hasMore,
      nextCursor: hasMore && last ? encodePagedCursor(last.id, page + 1) : null,
    },
  };
}

export async function getKnowledgeBase({
  ctx,
  knowledgeBaseId,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
}): Promise<KnowledgeBaseView> {
  requireScope(ctx, 'agents:read');
  return toKnowledgeBaseView(await findOwnKnowledgeBase(ctx, knowledgeBaseId));
}

export async function updateKnowledgeBase({
  ctx,
  knowledgeBaseId,
  patch,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
  patch: UpdateKnowledgeBaseInput;
}): Promise<KnowledgeBaseView> {
  requireScope(ctx, 'agents:write');
  const current = await findOwnKnowledgeBase(ctx, knowledgeBaseId);
  const next: KnowledgeBaseRecord = {
    ...current,
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : patch.description,
  };
  if (next.name === current.name && next.description === current.description) return toKnowledgeBaseView(current);
  const now = isoTime(ctx.deps.clock.now());
  next.updatedAt = now > current.updatedAt ? now : current.updatedAt;
  await ctx.deps.repositories.knowledgeBases.update(next);
  return toKnowledgeBaseView(next);
}

/**
 * Deletes a base for good, with its documents and chunks, and detaches it from
 * the agents that used it (their `knowledgeBases` no longer list it), in one
 * transaction. Detaching rather than refusing: an agent without the base
 * still answers, and the response names the agents that changed.
 */
export async function deleteKnowledgeBase({
  ctx,
  knowledgeBaseId,
}: {
  ctx: ServiceContext;
  knowledgeBaseId: string;
}): Promise<{ id: string; deleted: true; detachedFrom: string[] }> {
  requireScope(ctx, 'agents:delete');
  const { repositories } = ctx.deps;
  const detachedFrom = await repositories.db.transaction().execute(async (transaction) => {
    await findOwnKnowledgeBase(ctx, knowledgeBaseId, transaction);
    const agentIds = await repositories.knowledgeBases.delete(ctx.actor.accountId, knowledgeBaseId, transaction);
    for (const agentId of agentIds) {
      const agent = await repositories.agents.find(ctx.actor.accountId, agentId, transaction, true);
      if (agent === null) continue;
      const next = {
        ...agent,
        profile: {
          ...agent.profile,
          knowledgeBases: (agent.profile.knowledgeBases ?? []).filter((id) => id !== knowledgeBaseId),
        },
        version: agent.version + 1,
        updatedAt: isoTime(ctx.deps.clock.now()),
      };
      if (!(await repositories.agents.update(agent, next, transaction))) {
        throw new AppError('internal', 'An agent changed while its knowledge base was being detached.');
      }
      await recordAgentEvent(eventWriterOf(ctx), next, 'agent.updated', { ...agentChanges(agent, next) }, transaction);
      await recordAgentVersion(ctx, { agent: next, previous: agent, source: 'detach' }, transaction);
    }
    return agentIds;
  });
  ctx.deps.logger.info(
    { knowledgeBaseId, accountId: ctx.actor.accountId, detachedFrom, requestId: ctx.requestId },
    'knowledge base deleted',
  );
  return { id: knowledgeBaseId, deleted: true, detachedFrom };
}
