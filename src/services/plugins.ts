import type { PluginListValue } from '../schemas/plugins.js';
import type { ServiceContext } from './context.js';

/** The plugins this server offers, with their schemas; any valid key may read them. */
export function listPlugins({ ctx }: { ctx: ServiceContext }): PluginListValue {
  return { data: ctx.deps.plugins.catalog.describe() };
}
