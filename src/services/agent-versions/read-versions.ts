import jsonPatch from 'fast-json-patch';
import { notFound, validationError } from '../../errors.js';
import type {
  AgentVersionDiffView,
  AgentVersionListView,
  AgentVersionView,
  ListAgentVersionsQueryValue,
} from '../../schemas/agent-versions.js';
import type { AgentVersionRecord } from '../../storage/repositories/agent-versions.js';
import { requireScope, type ServiceContext } from '../context.js';
import { findOwnAgent } from '../agents/get-agent.js';
import { configurationView, toVersionSummaryView, toVersionView } from './views.js';

const defaultLimit = 20;

/** Cursors of the list: base64url JSON `[1, lastVersion]`, opaque to clients. */
function encodeCursor(lastVersion: number): string {
  return Buffer.from(JSON.stringify([1, lastVersion]), 'utf8').toString('base64url');
}

function decodeCursor(value: string): number {
  let fields: unknown = null;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    // Reported below, like any cursor this server did not issue.
  }
  if (Array.isArray(fields) && fields.length === 2 && fields[0] === 1 && Number.isSafeInteger(fields[1])) {
    if ((fields[1] as number) >= 1) return fields[1] as number;
  }
  throw validationError('/query/cursor', 'is not a cursor this server issued');
}

async function findVersion(ctx: ServiceContext, agentId: string, version: number): Promise<AgentVersionRecord> {
  const found = await ctx.deps.repositories.agentVersions.find(ctx.actor.accountId, agentId, version);
  if (found === null) throw notFound('Version');
  return found;
}

/** The agent's versions, newest first, without their configurations (GET one for that). */
export async function listAgentVersions({
  ctx,
  agentId,
  query,
}: {
  ctx: ServiceContext;
  agentId: string;
  query: ListAgentVersionsQueryValue;
}): Promise<AgentVersionListView> {
  requireScope(ctx, 'agents:read');
  const limit = query.limit ?? defaultLimit;
  const before = query.cursor !== undefined ? decodeCursor(query.cursor) : undefined;
  await findOwnAgent(ctx, agentId);
  const versions = await ctx.deps.repositories.agentVersions.page({
    accountId: ctx.actor.accountId,
    agentId,
    limit: limit + 1,
    ...(before !== undefined ? { before } : {}),
  });
  const hasMore = versions.length > limit;
  const page = versions.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toVersionSummaryView),
    pagination: { limit, hasMore, nextCursor: hasMore && last ? encodeCursor(last.version) : null },
  };
}

export async function getAgentVersion({
  ctx,
  agentId,
  version,
}: {
  ctx: ServiceContext;
  agentId: string;
  version: number;
}): Promise<AgentVersionView> {
  requireScope(ctx, 'agents:read');
  await findOwnAgent(ctx, agentId);
  return toVersionView(await findVersion(ctx, agentId, version));
}

/**
 * What changed from version `from` (default: the one before; when none is
 * kept, from nothing) to version `to`, as a JSON Patch (RFC 6902) over the
 * configurations as clients see them, secrets masked. To compare a version
 * with the agent as it is now, take the agent's `version` as `to`.
 */
export async function diffAgentVersions({
  ctx,
  agentId,
  version,
  from,
}: {
  ctx: ServiceContext;
  agentId: string;
  version: number;
  from?: number;
}): Promise<AgentVersionDiffView> {
  requireScope(ctx, 'agents:read');
  await findOwnAgent(ctx, agentId);
  const target = await findVersion(ctx, agentId, version);
  // By default the version before, unless there is none kept (version 1, or the first kept of an older agent).
  const earlier =
    from !== undefined
      ? await findVersion(ctx, agentId, from)
      : version > 1
        ? await ctx.deps.repositories.agentVersions.find(ctx.actor.accountId, agentId, version - 1)
        : null;
  const base = earlier === null ? null : earlier.version;
  const operations = jsonPatch.compare(
    earlier === null ? {} : configurationView(earlier.configuration),
    configurationView(target.configuration),
  );
  return {
    agentId,
    from: base,
    to: version,
    format: 'json-patch',
    operations: operations.map((operation) => ({
      op: operation.op as 'add' | 'remove' | 'replace',
      path: operation.path,
      ...('value' in operation ? { value: operation.value } : {}),
    })),
  };
}
