import { createHash } from 'node:crypto';
import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Agent, CreateAgentInput } from '../../schemas/agents.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { recordAgentEvent } from '../../events/agent-events.js';
import { requireScope, type ServiceContext } from '../context.js';
import { eventWriterOf } from '../events/event-writer.js';
import { recordAgentVersion } from '../agent-versions/record-version.js';
import { checkKnowledgeBases } from '../knowledge-bases/attachments.js';
import { checkPluginsFurther, profileFromCreate, toAgentView } from './agent-profile.js';

const idempotencyWindowMs = 24 * 60 * 60 * 1000;
/** A claim older than this whose request never finished (its process died) may be taken over. */
const abandonedClaimMs = 60 * 1000;

/** JSON with keys sorted at every level, so equal bodies hash equally whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface CreatedAgent {
  agent: Agent;
  /** True when this is the stored answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export async function createAgent({
  ctx,
  input,
  idempotencyKey,
  source = 'create',
}: {
  ctx: ServiceContext;
  input: CreateAgentInput;
  idempotencyKey?: string;
  /** What its version 1 says made it: a create, or a character import. */
  source?: 'create' | 'import';
}): Promise<CreatedAgent> {
  requireScope(ctx, 'agents:write');
  const { repositories, clock, logger } = ctx.deps;
  const now = clock.now();
  const id = newId('agent');
  const record: AgentRecord = {
    id,
    accountId: ctx.actor.accountId,
    name: input.name,
    status: input.status ?? 'active',
    statusReason: null,
    deletionProtection: input.deletionProtection ?? false,
    profile: profileFromCreate(ctx.deps, id, input),
    version: 1,
    createdAt: isoTime(now),
    updatedAt: isoTime(now),
  };
  await checkPluginsFurther(ctx.deps, input.plugins);
  const agent = toAgentView(record);
  const created = { name: record.name, status: record.status };
  const knowledgeBases = record.profile.knowledgeBases ?? [];
  if (knowledgeBases.length > 0) await checkKnowledgeBases(ctx, knowledgeBases);

  if (idempotencyKey === undefined) {
    await repositories.db.transaction().execute(async (transaction) => {
      await repositories.agents.insert(record, transaction);
      await repositories.knowledge.replace(id, record.profile.knowledge, transaction);
      if (knowledgeBases.length > 0)
        await repositories.knowledgeBases.attach(record.accountId, id, knowledgeBases, transaction);
      await recordAgentEvent(eventWriterOf(ctx), record, 'agent.created', created, transaction);
      await recordAgentVersion(ctx, { agent: record, previous: null, source }, transaction);
    });
    ctx.deps.webhooks.outbox.committed();
    logger.info({ agentId: id, accountId: record.accountId, requestId: ctx.requestId }, 'agent created');
    return { agent, replayed: false };
  }

  // Idempotency (as in the IETF Idempotency-Key draft): the first request with a key
  // claims it, stores its response with the agent in one transaction, and later
  // requests with the same key and body get that response back.
  const { idempotency } = repositories;
  const accountId = ctx.actor.accountId;
  const requestHash = createHash('sha256').update(canonicalJson(input)).digest('hex');
  const claimedAt = isoTime(now);
  await idempotency.deleteExpired(claimedAt);
  for (;;) {
    if (await idempotency.claim(accountId, idempotencyKey, requestHash, claimedAt, isoTime(now + idempotencyWindowMs)))
      break;
    const existing = await idempotency.find(accountId, idempotencyKey);
    if (existing === null) continue;
    if (existing.requestHash !== requestHash) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body.',
      );
    }
    if (existing.state === 'completed' && existing.responseBody !== null) {
      return { agent: JSON.parse(existing.responseBody) as Agent, replayed: true };
    }
    if (Date.parse(existing.createdAt) > now - abandonedClaimMs) {
      throw new AppError(
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
        {
          headers: { 'retry-after': '1' },
        },
      );
    }
    await idempotency.release(accountId, idempotencyKey, existing.createdAt);
  }

  try {
    await repositories.db.transaction().execute(async (transaction) => {
      await repositories.agents.insert(record, transaction);
      await repositories.knowledge.replace(id, record.profile.knowledge, transaction);
      if (knowledgeBases.length > 0)
        await repositories.knowledgeBases.attach(record.accountId, id, knowledgeBases, transaction);
      await recordAgentEvent(eventWriterOf(ctx), record, 'agent.created', created, transaction);
      await recordAgentVersion(ctx, { agent: record, previous: null, source }, transaction);
      await idempotency.complete(accountId, idempotencyKey, 201, JSON.stringify(agent), transaction);
    });
  } catch (error) {
    await idempotency.release(accountId, idempotencyKey, claimedAt).catch(() => undefined);
    throw error;
  }
  ctx.deps.webhooks.outbox.committed();
  logger.info({ agentId: id, accountId, requestId: ctx.requestId }, 'agent created');
  return { agent, replayed: false };
}
