import type { PluginContext } from '../../src/plugins/plugin.js';

/**
 * The parts of a plugin context that tests of plugins that move no value
 * never reach: a ledger that refuses every reservation, and a trail that
 * keeps nothing.
 */
export const unusedPluginServices: Pick<PluginContext, 'spending' | 'recordEvent'> = {
  spending: {
    reserve: async () => ({ reserved: false, refused: 0, total: 0n }),
    spentToday: async () => 0n,
  },
  recordEvent: async () => undefined,
};
