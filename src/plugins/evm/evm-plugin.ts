import type { PluginDefinition } from '../plugin.js';
import { evmPluginConfigSchema, evmPluginSecretsSchema } from './config.js';

/**
 * Reads EVM chains (balances, tokens, transactions, blocks, fees, contract
 * views, ENS) over their JSON-RPC, and, when the config enables it, sends
 * funds within per-transfer and daily limits. The chain library is loaded
 * on first use only, so servers whose agents never use the plugin do not pay
 * its start-up time.
 */
export const evmPlugin: PluginDefinition<typeof evmPluginConfigSchema, typeof evmPluginSecretsSchema> = {
  name: 'evm',
  description:
    'Read EVM blockchains (Ethereum and compatible chains): balances, ERC-20 tokens, transactions, blocks, fees, ' +
    'contract view functions and ENS. Optionally send funds within per-transfer and daily limits.',
  configSchema: evmPluginConfigSchema,
  secretsSchema: evmPluginSecretsSchema,
  // The key signs for these chains, through these endpoints, for these tokens, within these guards: another
  // chain, endpoint or token, or a looser limit or approval, is a new destination for the key. Only the time-out
  // changes without it.
  secretDestination: (config) => ({ chains: config.chains, transfers: config.transfers }),
  async open(config, secrets, context) {
    const { openEvmTools } = await import('./evm-tools.js');
    return openEvmTools(config, secrets, context);
  },
};
