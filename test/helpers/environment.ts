/**
 * The outside services the integration tiers need. They are read from the
 * environment (CI sets both); when one is missing its tests are reported as
 * skipped with this reason, never passed silently.
 */
export const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
export const redisUrl = process.env.REDIS_URL || undefined;

export const postgresSkip = databaseUrl ? false : 'DATABASE_URL is not set: PostgreSQL tests skipped';
export const redisSkip = redisUrl ? false : 'REDIS_URL is not set: Redis tests skipped';

/**
 * Under CI (CI=true, as .ci/run sets) pgvector is installed before the tests, so its absence is a failure to
 * report, not a reason to skip: the vector tests then run and fail naming the missing extension.
 */
export const continuousIntegration = process.env.CI === 'true';
