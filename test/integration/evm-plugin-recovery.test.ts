import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import pino from 'pino';
import { parseEther, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { systemClock } from '../../src/clock.js';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { evmPlugin } from '../../src/plugins/evm/evm-plugin.js';
import { evmPluginConfigSchema } from '../../src/plugins/evm/config.js';
import {
  ToolError,
  type PluginContext,
  type SpendingLedger,
  type SpendingLimit,
  type Tool,
} from '../../src/plugins/plugin.js';
import { startLocalChain, type LocalChain } from '../helpers/evm/local-chain.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { unusedPort } from '../helpers/network.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A transfer whose instance stops after it began: `evm_transfer` records the
 * signed transaction's hash and nonce before broadcasting it, and
 * `recoverOutcome` reads what became of it from the chain alone, against a
 * real EVM node on loopback (Hardhat Network), never sending anything.
 */

const agentKey = generatePrivateKey();
const agentAddress = privateKeyToAccount(agentKey).address;
recordSecrets(agentKey);

/** The day's totals in memory, as the shared ledger keeps them: all of a reservation or none, given back on release. */
function memoryLedger(): SpendingLedger & { total(asset: string): bigint } {
  const totals = new Map<string, bigint>();
  const keyOf = (entry: Pick<SpendingLimit, 'chainId' | 'asset'>) => `${entry.chainId}:${entry.asset}`;
  return {
    async reserve(entries) {
      for (const [index, entry] of entries.entries()) {
        const total = totals.get(keyOf(entry)) ?? 0n;
        if (total + entry.amount > entry.limit) return { reserved: false, refused: index, total };
      }
      const after = entries.map((entry) => {
        const total = (totals.get(keyOf(entry)) ?? 0n) + entry.amount;
        totals.set(keyOf(entry), total);
        return total;
      });
      return {
        reserved: true,
        totals: after,
        release: async () => {
          for (const entry of entries) totals.set(keyOf(entry), totals.get(keyOf(entry))! - entry.amount);
        },
      };
    },
    spentToday: async (entry) => totals.get(keyOf(entry)) ?? 0n,
    total: (asset) => [...totals].filter(([key]) => key.endsWith(`:${asset}`)).reduce((sum, [, v]) => sum + v, 0n),
  };
}

describe('an evm transfer taken over after it began', () => {
  let chain: LocalChain;
  const ledger = memoryLedger();
  let transfer: Tool;
  const signal = () => new AbortController().signal;

  async function transferTool(rpcUrl: string): Promise<Tool> {
    const config = Value.Default(
      evmPluginConfigSchema,
      Value.Clone({
        chains: [{ chainId: chain.chainId, rpcUrl, name: 'local' }],
        transfers: {
          enabled: true,
          requireApproval: false,
          maxPerTransfer: { native: '1' },
          maxPerDay: { native: '100' },
          receiptTimeoutMs: 5_000,
        },
      }),
    ) as Parameters<typeof evmPlugin.open>[0];
    const context: PluginContext = {
      agentId: 'agt_test',
      accountId: 'acc_test',
      // The node listens on loopback, which the outbound client refuses unless the operator allows it.
      fetch: createOutboundFetch({ allowPrivateAddresses: true }),
      searchKnowledge: async () => [],
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      spending: ledger,
      recordEvent: async () => undefined,
    };
    const instance = await evmPlugin.open(config, { privateKey: agentKey }, context);
    return instance.tools.find((tool) => tool.name === 'evm_transfer')!;
  }

  const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;
  const sentCount = () => chain.client.getTransactionCount({ address: agentAddress, blockTag: 'pending' });
  const onChain = (hash: string) =>
    chain.client.getTransaction({ hash: hash as Hash }).then(
      () => true,
      (error: Error) => {
        if (error.name === 'TransactionNotFoundError') return false;
        throw error;
      },
    );

  before(async () => {
    chain = await startLocalChain([{ privateKey: agentKey, balance: parseEther('1000') }]);
    transfer = await transferTool(chain.rpcUrl);
  });
  after(async () => {
    await chain?.close();
  });

  it('records the hash and nonce before the transaction reaches the node, and recovers the mined result from it', async () => {
    const to = recipient();
    const nonceBefore = await sentCount();
    let intent: Record<string, unknown> | undefined;
    let seenOnChainAtIntent: boolean | undefined;
    const result = (await transfer.execute(
      { to, amount: '0.25' },
      {
        abortSignal: signal(),
        recordIntent: async (detail) => {
          intent = detail;
          seenOnChainAtIntent = await onChain(detail.hash as string);
        },
      },
    )) as Record<string, any>;

    assert.ok(intent, 'the intent was recorded');
    assert.equal(seenOnChainAtIntent, false, 'the node did not have the transaction when its intent was recorded');
    assert.equal(intent.hash, result.hash);
    assert.equal(intent.nonce, nonceBefore);
    assert.equal(intent.chainId, chain.chainId);
    assert.equal(intent.from, agentAddress);
    assert.equal(intent.to, to);
    assert.equal(intent.amount, parseEther('0.25').toString());
    assert.ok(!JSON.stringify(intent).includes(agentKey.slice(2)), 'the key is not in the intent');
    assert.equal(result.status, 'confirmed');
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.25'));

    const sentBefore = await sentCount();
    const recovered = await transfer.recoverOutcome!({ to, amount: '0.25' }, intent, { abortSignal: signal() });
    assert.deepEqual(recovered, result, 'the recovered result is what the call itself returned');
    assert.equal(await sentCount(), sentBefore, 'recovering sent nothing');
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.25'), 'nor sent the amount again');
  });

  it('says a transfer signed but never broadcast was not sent, and does not send it', async () => {
    const to = recipient();
    const nonceBefore = await sentCount();
    const spentBefore = ledger.total('native');
    let intent: Record<string, unknown> | undefined;
    // The instance stops right after the intent is recorded: here the call ends there, as the journal failed.
    const error = await transfer
      .execute(
        { to, amount: '0.5' },
        {
          abortSignal: signal(),
          recordIntent: async (detail) => {
            intent = detail;
            throw new Error('the journal is gone');
          },
        },
      )
      .then(
        () => assert.fail('the transfer was expected to stop'),
        (reason: unknown) => reason,
      );
    assert.ok(error instanceof ToolError, String(error));
    assert.match(error.message, /Nothing was sent\.$/);
    assert.equal(ledger.total('native'), spentBefore, 'a transfer whose intent was not recorded gives its amount back');
    assert.ok(intent, 'the intent was handed to the journal');

    const recovered = (await transfer.recoverOutcome!({ to, amount: '0.5' }, intent, {
      abortSignal: signal(),
    })) as Record<string, any>;
    assert.equal(recovered.status, 'not-sent');
    assert.equal(recovered.hash, intent.hash);
    assert.equal(recovered.blockNumber, null);
    assert.match(recovered.note, /^Nothing was sent/);
    assert.deepEqual(recovered.amount, {
      baseUnits: parseEther('0.5').toString(),
      formatted: '0.5',
      decimals: 18,
      symbol: 'ETH',
    });
    assert.equal(await onChain(intent.hash as string), false, 'the signed transaction was not broadcast');
    assert.equal(await sentCount(), nonceBefore, 'its nonce is still unused');
    assert.equal(await chain.client.getBalance({ address: to }), 0n);

    // A later transfer takes that nonce: the never-sent one can never be mined, and is still told as not sent.
    const later = (await transfer.execute({ to, amount: '0.1' }, { abortSignal: signal() })) as Record<string, any>;
    assert.equal(later.status, 'confirmed');
    const again = (await transfer.recoverOutcome!({ to, amount: '0.5' }, intent, {
      abortSignal: signal(),
    })) as Record<string, any>;
    assert.equal(again.status, 'not-sent');
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.1'));
  });

  it('tells a transfer the node holds but has not mined as pending, then as confirmed once mined', async () => {
    const to = recipient();
    let intent: Record<string, unknown> | undefined;
    await chain.client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    try {
      // The call sends it, then waits for a receipt that comes only once the block is mined by hand below.
      const pending = transfer.execute(
        { to, amount: '0.2' },
        { abortSignal: signal(), recordIntent: async (detail) => void (intent = detail) },
      );
      const reached = await waitFor(async () => intent !== undefined && (await onChain(intent.hash as string)), 10_000);
      assert.notEqual(reached, null, 'the node received the transaction');
      const recovered = (await transfer.recoverOutcome!({ to, amount: '0.2' }, intent!, {
        abortSignal: signal(),
      })) as Record<string, any>;
      assert.equal(recovered.status, 'pending');
      assert.equal(recovered.blockNumber, null);
      assert.match(recovered.note, /^Sent, but not mined/);

      await chain.client.request({ method: 'evm_mine' as never });
      const mined = (await transfer.recoverOutcome!({ to, amount: '0.2' }, intent!, {
        abortSignal: signal(),
      })) as Record<string, any>;
      assert.equal(mined.status, 'confirmed');
      assert.match(mined.blockNumber, /^[0-9]+$/);
      assert.equal(mined.note, undefined);
      assert.deepEqual(await pending, mined, 'the call that sent it returns the same result');
    } finally {
      await chain.client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
    }
  });

  it('answers undefined when the chain cannot say, or the detail is not a transfer’s intent', async () => {
    const to = recipient();
    let intent: Record<string, unknown> | undefined;
    await transfer.execute(
      { to, amount: '0.01' },
      { abortSignal: signal(), recordIntent: async (d) => void (intent = d) },
    );
    assert.equal(await transfer.recoverOutcome!({}, { hash: 'nonsense' }, { abortSignal: signal() }), undefined);
    const unreachable = await transferTool(`http://127.0.0.1:${await unusedPort()}/`);
    assert.equal(await unreachable.recoverOutcome!({}, intent!, { abortSignal: signal() }), undefined);
  });
});
