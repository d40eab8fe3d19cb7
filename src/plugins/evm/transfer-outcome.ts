import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { ToolError } from '../plugin.js';
import type { EvmChain, EvmChains } from './chains.js';
import { amountOf, type Address, type Hash } from './values.js';

const BaseUnits = Type.String({ pattern: '^[0-9]{1,80}$' });
const HexAddress = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });

/**
 * What a transfer records before it is broadcast (ToolCallContext.recordIntent):
 * the signed transaction's hash, nonce and sender, which make its outcome
 * knowable from the chain alone, and what its result says of the day's limits
 * as they were when it was reserved. Never the key nor the signed bytes, which
 * anyone could broadcast.
 */
export const TransferIntent = Type.Object({
  chain: Type.String(),
  chainId: Type.Integer({ minimum: 1 }),
  hash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$' }),
  nonce: Type.Integer({ minimum: 0 }),
  from: HexAddress,
  to: HexAddress,
  /** `native`, or the token's symbol. */
  asset: Type.String(),
  tokenAddress: Type.Union([HexAddress, Type.Null()]),
  amount: BaseUnits,
  decimals: Type.Integer({ minimum: 0, maximum: 255 }),
  symbol: Type.String(),
  nativeSymbol: Type.String(),
  /** Its gas limit at its max fee per gas, in wei. */
  maxFee: BaseUnits,
  /** The day's total of the asset with this transfer, in base units. */
  spentToday: BaseUnits,
  dailyLimit: BaseUnits,
  transfersToday: Type.Integer({ minimum: 0 }),
  dailyTransferLimit: Type.Integer({ minimum: 0 }),
});
export type TransferIntent = Static<typeof TransferIntent>;

export type TransferStatus = 'confirmed' | 'reverted' | 'pending' | 'not-sent';

const notes: Record<TransferStatus, string | null> = {
  confirmed: null,
  pending: 'Sent, but not mined within the wait; check it later with evm_get_transaction.',
  reverted: 'The transaction was mined but reverted: nothing was transferred (gas was spent).',
  'not-sent':
    'Nothing was sent: the transaction was signed but never reached the chain, and it never will (it is not ' +
    'broadcast again). Its amount and maximum fee still count against today’s limits.',
};

/** The result of an `evm_transfer` call, from its intent and what the chain says of it. */
export function transferResult(intent: TransferIntent, status: TransferStatus, blockNumber: string | null) {
  const note = notes[status];
  return {
    chain: intent.chain,
    chainId: intent.chainId,
    from: intent.from,
    to: intent.to,
    asset: intent.asset,
    tokenAddress: intent.tokenAddress,
    amount: amountOf(BigInt(intent.amount), intent.decimals, intent.symbol),
    hash: intent.hash,
    status,
    blockNumber,
    maxFee: amountOf(BigInt(intent.maxFee), 18, intent.nativeSymbol),
    spentToday: amountOf(BigInt(intent.spentToday), intent.decimals, intent.symbol),
    dailyLimit: amountOf(BigInt(intent.dailyLimit), intent.decimals, intent.symbol),
    transfersToday: intent.transfersToday,
    dailyTransferLimit: intent.dailyTransferLimit,
    ...(note === null ? {} : { note }),
  };
}

const isNotFound = (error: unknown, name: string) => (error as Error | null)?.name === name;

async function receiptOf(chain: EvmChain, hash: Hash) {
  return chain.client.getTransactionReceipt({ hash }).catch((error: unknown) => {
    if (isNotFound(error, 'TransactionReceiptNotFoundError')) return null;
    throw error;
  });
}

/**
 * What became of a transfer whose instance stopped after recording its
 * intent, read from the chain by its hash; it only reads, and never
 * broadcasts anything. Mined: its receipt's status. Known to the node but
 * not mined: pending. Unknown to the node: never sent when its nonce is
 * still unused (it was signed but not broadcast, or the node dropped it) or
 * was used by another transaction (it can never be mined). Undefined when the
 * chain cannot say (its RPC is down, the chain left the config, the detail
 * is not an intent this tool recorded).
 */
export async function recoverTransferOutcome(
  chains: EvmChains,
  detail: Record<string, unknown>,
  abortSignal: AbortSignal,
  logger: Logger,
) {
  if (!Value.Check(TransferIntent, detail)) return undefined;
  const intent = detail;
  const hash = intent.hash.toLowerCase() as Hash;
  try {
    abortSignal.throwIfAborted();
    const chain = await chains.find(intent.chainId);
    const mined = async () => {
      const receipt = await receiptOf(chain, hash);
      if (receipt === null) return null;
      return transferResult(
        intent,
        receipt.status === 'success' ? 'confirmed' : 'reverted',
        receipt.blockNumber.toString(),
      );
    };
    const found = await mined();
    if (found !== null) return found;
    abortSignal.throwIfAborted();
    const transaction = await chain.client.getTransaction({ hash }).catch((error: unknown) => {
      if (isNotFound(error, 'TransactionNotFoundError')) return null;
      throw error;
    });
    if (transaction !== null) {
      // Mined between the two reads: its receipt is there now.
      if (transaction.blockNumber !== null) return (await mined()) ?? transferResult(intent, 'pending', null);
      return transferResult(intent, 'pending', null);
    }
    abortSignal.throwIfAborted();
    const used = await chain.client.getTransactionCount({ address: intent.from as Address, blockTag: 'latest' });
    // The nonce was taken since the first read: by this transaction, mined in between, or by another one.
    if (used > intent.nonce) return (await mined()) ?? transferResult(intent, 'not-sent', null);
    return transferResult(intent, 'not-sent', null);
  } catch (error) {
    if (abortSignal.aborted) throw error;
    // viem's own messages quote the RPC URL, whose path may hold an API key: only the error's name is logged.
    logger.warn(
      { chainId: intent.chainId, hash, reason: error instanceof ToolError ? error.message : (error as Error).name },
      'the outcome of a transfer could not be read from the chain',
    );
    return undefined;
  }
}
