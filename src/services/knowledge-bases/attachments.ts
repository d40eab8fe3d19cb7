import { AppError } from '../../errors.js';
import type { Executor } from '../../storage/schema.js';
import type { ServiceContext } from '../context.js';

/**
 * The knowledge bases an agent is given must be the account's own; an id of
 * another account's base is reported exactly like one that does not exist.
 */
export async function checkKnowledgeBases(
  ctx: ServiceContext,
  knowledgeBaseIds: readonly string[],
  executor?: Executor,
): Promise<void> {
  const found = await ctx.deps.repositories.knowledgeBases.existing(ctx.actor.accountId, knowledgeBaseIds, executor);
  const problems = knowledgeBaseIds.flatMap((id, index) =>
    found.has(id)
      ? []
      : [{ path: `/body/knowledgeBases/${index}`, message: `names no knowledge base of this account (${id})` }],
  );
  if (problems.length > 0) {
    throw new AppError(
      'validation_failed',
      problems.map((problem) => `knowledgeBases.${problem.path.split('/').pop()} ${problem.message}`).join('; '),
      {
        errors: problems,
      },
    );
  }
}
