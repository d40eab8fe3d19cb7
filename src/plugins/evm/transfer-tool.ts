import { Type } from '@sinclair/typebox';
import { encodeFunctionData, erc20Abi, keccak256, parseUnits, zeroAddress, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { prepareTransactionRequest, sendRawTransaction } from 'viem/actions';
import { ToolError, type PluginContext, type SpendingLimit, type Tool } from '../plugin.js';
import type { EvmChain } from './chains.js';
import type { EvmPluginConfig } from './config.js';
import { ChainInput, checkedInput } from './inputs.js';
import type { EvmToolContext } from './read-tools.js';
import { describeRpcFailure, nodeAnswered } from './rpc-failure.js';
import { recoverTransferOutcome, transferResult, type TransferIntent } from './transfer-outcome.js';
import { amountOf, parseAddress, parseAmount, type Address } from './values.js';

const TransferInput = Type.Object(
  {
    chain: ChainInput,
    to: Type.String({ maxLength: 64, description: 'The recipient address, 0x…' }),
    amount: Type.String({
      maxLength: 70,
      description: 'How much to send in whole units with decimals, e.g. "0.01" (ETH) or "25" (tokens).',
    }),
    token: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'The symbol of a token this agent may send (e.g. "USDC"); leave out to send the native currency.',
      }),
    ),
  },
  { additionalProperties: false },
);

interface Asset {
  /** The key of the limits: `native` or the token's configured symbol. */
  limitKey: string;
  /** What the day's total is kept under: `native` or the token's address in lower case. */
  ledgerKey: string;
  symbol: string;
  decimals: number;
  tokenAddress: Address | null;
}

export interface TransferToolOptions {
  config: EvmPluginConfig['transfers'];
  /** Null when the privateKey secret is missing or not a key. */
  account: PrivateKeyAccount | null;
  plugin: Pick<PluginContext, 'spending' | 'recordEvent' | 'logger' | 'agentId'>;
}

/** A limit of the config, by its key in any case (`native`, `USDC`, `usdc`). */
function limitOf(limits: Record<string, string>, key: string): string | undefined {
  const match = Object.keys(limits).find((candidate) => candidate.toLowerCase() === key.toLowerCase());
  return match === undefined ? undefined : limits[match];
}

/**
 * Sends the native currency or a configured ERC-20 token, within the
 * per-transfer and per-day limits of the config. Order matters: the
 * transaction is prepared first so that its fee at its most is known, then
 * the day's amount, fee and count are reserved in the shared database before
 * anything is signed; a transfer that fails before it reaches the node gives
 * its reservation back; one the node accepted is recorded in the agent's
 * trail at once, then its receipt is awaited for a bounded time. Between
 * signing and broadcasting, the transaction's hash and nonce are recorded
 * (`recordIntent`), so that a run taken over after the call began learns its
 * outcome from the chain (`recoverOutcome`) instead of sending it again.
 * Whether a person approves each call first is decided outside (evm-tools.ts).
 */
export function transferTool(context: EvmToolContext, options: TransferToolOptions): Tool {
  const { config, account, plugin } = options;
  // Signing and broadcasting one at a time per key on this instance: two transfers at once would read the same nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  /** The trail event of a sent transfer; a store that fails here must not turn a sent transfer into an error. */
  async function record(data: Record<string, unknown>): Promise<void> {
    try {
      await plugin.recordEvent('tool.transfer', data);
    } catch (error) {
      plugin.logger.error(
        { agentId: plugin.agentId, chainId: data.chainId, hash: data.hash, reason: (error as Error).message },
        'transfer sent, but its tool.transfer event could not be recorded',
      );
    }
  }

  async function assetOf(
    chain: EvmChain,
    token: string | undefined,
    describe: (error: unknown) => Error,
  ): Promise<Asset> {
    if (
      token === undefined ||
      token.toLowerCase() === 'native' ||
      token.toUpperCase() === chain.nativeSymbol.toUpperCase()
    ) {
      return { limitKey: 'native', ledgerKey: 'native', symbol: chain.nativeSymbol, decimals: 18, tokenAddress: null };
    }
    // Only tokens of the config can be sent: the limits name them by symbol, and the model cannot add a token.
    const entry = [...chain.tokens].find(
      ([symbol, address]) => symbol === token.toUpperCase() || address.toLowerCase() === token.toLowerCase(),
    );
    if (entry === undefined) {
      const known = [...chain.tokens.keys()];
      throw new ToolError(
        `${token} is not a token this agent may send on ${chain.name}` +
          (known.length > 0
            ? `; it may send ${known.join(', ')} or ${chain.nativeSymbol}.`
            : `; it may send ${chain.nativeSymbol} only.`),
      );
    }
    const info = await context.tokens.info(chain, parseAddress(entry[1], 'token address'), describe);
    return {
      limitKey: entry[0],
      ledgerKey: info.address.toLowerCase(),
      symbol: info.symbol,
      decimals: info.decimals,
      tokenAddress: info.address,
    };
  }

  return {
    name: 'evm_transfer',
    description:
      'Sends the native currency (e.g. ETH) or an ERC-20 token this agent may send, from the agent’s own account' +
      (account === null ? ', ' : ` (${account.address}), `) +
      'within its per-transfer and daily limits. Waits for the receipt and returns the transaction hash and status. ' +
      'A transfer cannot be undone: send only what the user clearly asked for.',
    inputSchema: TransferInput,
    // Moves funds, and cannot be undone.
    sideEffects: true,
    recoverOutcome: (_input, detail, { abortSignal }) =>
      recoverTransferOutcome(context.chains, detail, abortSignal, plugin.logger),
    async execute(input, { abortSignal, recordIntent }) {
      const { chain: named, to: givenTo, amount: givenAmount, token } = checkedInput(TransferInput, input);
      if (account === null) {
        throw new ToolError(
          'Transfers are not set up: the plugin’s privateKey secret is missing or is not a 0x-prefixed 64-hex-digit key.',
        );
      }
      const to = parseAddress(givenTo, 'recipient address');
      if (to === zeroAddress)
        throw new ToolError('The recipient is the zero address: funds sent there are lost. Nothing was sent.');
      const chain = await context.chains.find(named);
      const describe = (error: unknown) => describeRpcFailure(error, chain, context.timeoutMs);
      const asset = await assetOf(chain, token, describe);
      const value = parseAmount(givenAmount, asset.decimals, asset.symbol);
      if (value === 0n) throw new ToolError('The amount must be more than zero.');
      const perTransfer = limitOf(config.maxPerTransfer, asset.limitKey);
      const perDay = limitOf(config.maxPerDay, asset.limitKey);
      if (perTransfer === undefined || perDay === undefined) {
        throw new ToolError(
          `No ${perTransfer === undefined ? 'maxPerTransfer' : 'maxPerDay'} limit is set for ${asset.limitKey}, so it cannot be sent. Nothing was sent.`,
        );
      }
      // The fee is paid in the native currency whatever is sent, so a transfer of any asset needs a native limit.
      const nativePerDay = limitOf(config.maxPerDay, 'native');
      if (nativePerDay === undefined) {
        throw new ToolError(
          `No maxPerDay limit is set for native, which pays the fee of every transfer, so ${asset.symbol} cannot be ` +
            'sent either. Nothing was sent.',
        );
      }
      // maxPerTransfer bounds the amount only (what the recipient gets); the fee is bounded by maxPerDay.native.
      const perTransferUnits = parseUnits(perTransfer, asset.decimals);
      if (value > perTransferUnits) {
        throw new ToolError(
          `${givenAmount} ${asset.symbol} is over the limit of ${perTransfer} ${asset.symbol} per transfer. Nothing was sent.`,
        );
      }
      abortSignal.throwIfAborted();
      const perDayUnits = parseUnits(perDay, asset.decimals);
      const nativePerDayUnits = parseUnits(nativePerDay, 18);

      /**
       * Counts the transfer against the day's limits, all or nothing: its
       * amount, its fee at its most (native, with the amount when that is
       * native too), and one more transfer of the day.
       */
      async function reserve(fee: bigint) {
        const entries: SpendingLimit[] = [
          asset.tokenAddress === null
            ? { chainId: chain.chainId, asset: 'native', amount: value + fee, limit: nativePerDayUnits }
            : { chainId: chain.chainId, asset: asset.ledgerKey, amount: value, limit: perDayUnits },
          ...(asset.tokenAddress === null
            ? []
            : [{ chainId: chain.chainId, asset: 'native', amount: fee, limit: nativePerDayUnits }]),
          { chainId: chain.chainId, asset: 'transfers', amount: 1n, limit: BigInt(config.maxTransfersPerDay) },
        ];
        const reservation = await plugin.spending.reserve(entries);
        if (reservation.reserved) return reservation;
        const refused = entries[reservation.refused]!;
        if (refused.asset === 'transfers') {
          throw new ToolError(
            `${reservation.total} transfers were already sent today on ${chain.name}, the most this agent may ` +
              'send in a day. Nothing was sent.',
          );
        }
        const native = refused.asset === 'native';
        const decimals = native ? 18 : asset.decimals;
        const limit = native ? nativePerDayUnits : perDayUnits;
        const left = limit - reservation.total;
        const spent = amountOf(reservation.total, decimals, null).formatted;
        const maxFee = `${amountOf(fee, 18, null).formatted} ${chain.nativeSymbol}`;
        throw new ToolError(
          (!native
            ? `${givenAmount} ${asset.symbol} would pass the daily limit of ${perDay} ${asset.symbol} on ${chain.name}: ` +
              `${spent} already sent today, `
            : asset.tokenAddress === null
              ? `${givenAmount} ${asset.symbol} and a fee of up to ${maxFee} would pass the daily limit of ` +
                `${nativePerDay} ${asset.symbol} on ${chain.name}: ${spent} already spent today (fees included), `
              : `The fee of up to ${maxFee} would pass the daily limit of ${nativePerDay} ${chain.nativeSymbol} on ` +
                `${chain.name} (which counts the fees of token transfers too): ${spent} already spent today, `) +
            `${amountOf(left < 0n ? 0n : left, decimals, null).formatted} left. Nothing was sent.`,
        );
      }

      // From here the transfer runs to its end even if the reply is aborted: a reservation is either given
      // back or belongs to a transfer the node saw, and a sent transfer is always recorded.
      const sent = serially(async () => {
        let request: PreparedTransfer;
        try {
          request = (await prepareTransactionRequest(chain.client, {
            account,
            chain: chain.chain,
            ...(asset.tokenAddress === null
              ? { to, value }
              : {
                  to: asset.tokenAddress,
                  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] }),
                }),
          })) as PreparedTransfer;
        } catch (error) {
          throw withNothingSent(describe(error));
        }
        // The fee is reserved as the transaction is signed: it can cost no more than its gas limit at its max fee.
        const fee = maxFeeOf(request);
        const nonce = nonceOf(request);
        const reservation = await reserve(fee);
        let signed: Hex;
        try {
          signed = await account.signTransaction({ ...request, chainId: chain.chainId } as never);
        } catch (error) {
          await reservation.release();
          throw withNothingSent(describe(error));
        }
        const hash = keccak256(signed);
        const intent: TransferIntent = {
          chain: chain.name,
          chainId: chain.chainId,
          hash,
          nonce,
          from: account.address,
          to,
          asset: asset.tokenAddress === null ? 'native' : asset.symbol,
          tokenAddress: asset.tokenAddress,
          amount: value.toString(),
          decimals: asset.decimals,
          symbol: asset.symbol,
          nativeSymbol: chain.nativeSymbol,
          maxFee: fee.toString(),
          spentToday: reservation.totals[0]!.toString(),
          dailyLimit: perDayUnits.toString(),
          transfersToday: Number(reservation.totals.at(-1)),
          dailyTransferLimit: config.maxTransfersPerDay,
        };
        // Recorded before the node can have it: a transfer whose intent is not stored is not sent, so a run taken
        // over later always finds the hash of anything this call may have broadcast.
        if (recordIntent !== undefined) {
          try {
            await recordIntent(intent);
          } catch (error) {
            await reservation.release();
            plugin.logger.error(
              { agentId: plugin.agentId, chainId: chain.chainId, hash, reason: (error as Error).message },
              'the intent of a transfer could not be recorded; it was not sent',
            );
            throw new ToolError(
              'The transfer could not be recorded before it was sent, so it was not sent. Nothing was sent.',
            );
          }
        }
        const event = {
          chain: chain.name,
          chainId: chain.chainId,
          from: account.address,
          to,
          asset: asset.tokenAddress === null ? 'native' : asset.symbol,
          tokenAddress: asset.tokenAddress,
          amount: { baseUnits: value.toString(), formatted: amountOf(value, asset.decimals, null).formatted },
          hash,
        };
        try {
          await sendRawTransaction(chain.client, { serializedTransaction: signed });
        } catch (error) {
          if (nodeAnswered(error)) {
            await reservation.release();
            throw withNothingSent(describe(error));
          }
          // The node may have received it: the amount stays counted and the trail says so.
          await record({ ...event, status: 'unknown' });
          throw new ToolError(
            `${describe(error).message} The transfer may or may not have been sent; its hash is ${hash}. ` +
              'Check it with evm_get_transaction before trying again.',
          );
        }
        await record({ ...event, status: 'sent' });
        return intent;
      });
      const intent = await sent;
      const hash = intent.hash as Hex;

      let status: 'confirmed' | 'reverted' | 'pending' = 'pending';
      let blockNumber: string | null = null;
      try {
        const receipt = await chain.client.waitForTransactionReceipt({
          hash,
          timeout: config.receiptTimeoutMs,
          pollingInterval: 500,
        });
        status = receipt.status === 'success' ? 'confirmed' : 'reverted';
        blockNumber = receipt.blockNumber.toString();
      } catch (error) {
        plugin.logger.info(
          { agentId: plugin.agentId, chainId: chain.chainId, hash, reason: (error as Error).name },
          'transfer sent; no receipt within the time-out',
        );
      }
      return transferResult(intent, status, blockNumber);
    },
  };
}

/** What the transaction is signed with, of what the node filled in: its gas limit and fee per gas. */
interface PreparedTransfer {
  nonce?: number;
  gas?: bigint;
  /** EIP-1559 transactions. */
  maxFeePerGas?: bigint;
  /** Legacy (and EIP-2930) transactions. */
  gasPrice?: bigint;
}

/** The most the transaction can cost in fees: its gas limit at its max fee per gas (or its gas price). */
function maxFeeOf(request: PreparedTransfer): bigint {
  const perGas = request.maxFeePerGas ?? request.gasPrice;
  if (request.gas === undefined || perGas === undefined) {
    throw new ToolError(
      'The node gave no gas limit or fee for the transfer, so its cost cannot be counted. Nothing was sent.',
    );
  }
  return request.gas * perGas;
}

/** The nonce the transaction is signed with, which makes a transfer that never reached the chain knowable as such. */
function nonceOf(request: PreparedTransfer): number {
  if (request.nonce === undefined) {
    throw new ToolError('The node gave no nonce for the transfer. Nothing was sent.');
  }
  return request.nonce;
}

function withNothingSent(error: Error): Error {
  return error instanceof ToolError ? new ToolError(`${error.message} Nothing was sent.`) : error;
}
