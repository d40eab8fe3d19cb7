import { validationError } from '../../errors.js';
import type { AgentListValue, ListAgentsQueryValue } from '../../schemas/agents.js';
import { sortKeyOf, type AgentPageQuery, type AgentRecord } from '../../storage/repositories/agents.js';
import { requireScope, type ServiceContext } from '../context.js';
import { toAgentView } from './agent-profile.js';
import { decodeCursor, encodeCursor } from './cursor.js';

const defaultLimit = 20;

/**
 * One page of the account's agents. With a cursor the page is a keyset range
 * scan (constant cost at any depth). By page number, pages in the second half
 * are read from the other end, so the deepest pages cost what the first ones
 * do; only the middle pays for an offset, and never more than half the list.
 */
export async function listAgents({
  ctx,
  query,
}: {
  ctx: ServiceContext;
  query: ListAgentsQueryValue;
}): Promise<AgentListValue> {
  requireScope(ctx, 'agents:read');
  const agents = ctx.deps.repositories.agents;
  const limit = query.limit ?? defaultLimit;

  let base: Omit<AgentPageQuery, 'limit'>;
  let page: number;
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor);
    for (const [field, value] of [
      ['sortBy', query.sortBy],
      ['order', query.order],
      ['status', query.status],
    ] as const) {
      const issuedFor = cursor[field];
      if (value !== undefined && value !== issuedFor) {
        throw validationError(
          `/query/${field}`,
          `must match the cursor, which was issued for ${field}=${issuedFor ?? '(none)'}`,
        );
      }
    }
    base = {
      accountId: ctx.actor.accountId,
      sortBy: cursor.sortBy,
      order: cursor.order,
      ...(cursor.status ? { status: cursor.status } : {}),
      after: { key: cursor.key, id: cursor.id },
    };
    page = cursor.page;
  } else {
    base = {
      accountId: ctx.actor.accountId,
      sortBy: query.sortBy ?? 'createdAt',
      order: query.order ?? 'desc',
      ...(query.status ? { status: query.status } : {}),
    };
    page = query.page ?? 1;
  }

  const total = await agents.count(ctx.actor.accountId, base.status);
  let rows: AgentRecord[];
  let hasMore: boolean;
  const offset = (page - 1) * limit;

  if (base.after !== undefined || offset < total / 2) {
    const fetched = await agents.page({ ...base, limit: limit + 1, ...(base.after ? {} : { offset }) });
    hasMore = fetched.length > limit;
    rows = fetched.slice(0, limit);
  } else if (offset >= total) {
    rows = [];
    hasMore = false;
  } else {
    const take = Math.min(limit, total - offset);
    const fetched = await agents.page({
      ...base,
      order: base.order === 'asc' ? 'desc' : 'asc',
      limit: take,
      offset: total - offset - take,
    });
    rows = fetched.reverse();
    hasMore = offset + rows.length < total;
  }

  const last = rows.at(-1);
  const nextCursor =
    hasMore && last
      ? encodeCursor({
          sortBy: base.sortBy,
          order: base.order,
          status: base.status ?? null,
          key: sortKeyOf(last, base.sortBy),
          id: last.id,
          page: page + 1,
        })
      : null;

  return {
    data: rows.map(toAgentView),
    pagination: { page, limit, total, totalPages: Math.ceil(total / limit), hasMore, nextCursor },
  };
}
