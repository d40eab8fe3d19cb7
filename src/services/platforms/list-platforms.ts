import type { PlatformTypeListValue } from '../../schemas/platforms.js';
import type { ServiceContext } from '../context.js';

/** The platform types this server runs, with their schemas; any valid key may read them. */
export function listPlatformTypes({ ctx }: { ctx: ServiceContext }): PlatformTypeListValue {
  return { data: ctx.deps.platforms.catalog.describe() };
}
