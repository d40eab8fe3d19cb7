import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { systemClock } from '../../src/clock.js';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { evmPlugin } from '../../src/plugins/evm/evm-plugin.js';
import { ToolError, type Tool } from '../../src/plugins/plugin.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';

/**
 * The `evm` plugin's RPC calls go through the service's outbound client: an
 * RPC URL on a private or loopback address is refused, as any user-given
 * address is, unless the operator allows such addresses.
 */

async function balanceTool(rpcUrl: string): Promise<Tool> {
  const config = {
    chains: [{ chainId: 1, rpcUrl, name: 'mainnet', nativeSymbol: 'ETH' }],
    timeoutMs: 2_000,
    transfers: {
      enabled: false,
      requireApproval: true,
      maxPerTransfer: {},
      maxPerDay: {},
      maxTransfersPerDay: 20,
      receiptTimeoutMs: 5_000,
    },
  };
  const instance = await evmPlugin.open(
    config,
    {},
    {
      agentId: 'agt_test',
      accountId: 'acc_test',
      fetch: createOutboundFetch({ allowPrivateAddresses: false }),
      searchKnowledge: async () => [],
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      ...unusedPluginServices,
    },
  );
  return instance.tools.find((tool) => tool.name === 'evm_get_balance')!;
}

describe('the evm plugin’s RPC calls', () => {
  for (const rpcUrl of ['http://127.0.0.1:8545/', 'http://[::ffff:127.0.0.1]:8545/rpc']) {
    it(`are refused for ${rpcUrl} under the default policy`, async () => {
      const tool = await balanceTool(rpcUrl);
      const error = await tool
        .execute(
          { address: '0x0000000000000000000000000000000000000001' },
          { abortSignal: new AbortController().signal },
        )
        .then(
          () => assert.fail('expected a refusal'),
          (reason: unknown) => reason,
        );
      assert.ok(error instanceof ToolError, String(error));
      assert.match(error.message, /^The call to the RPC of mainnet \(.+\) was refused: a loopback address\.$/);
    });
  }
});
