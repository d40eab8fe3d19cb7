import { Type } from '@sinclair/typebox';
import { erc20Abi, getAddress, type Block } from 'viem';
import { normalize } from 'viem/ens';
import { ToolError, type Tool } from '../plugin.js';
import type { EvmChain, EvmChains } from './chains.js';
import { ChainInput, TokenInput, checkedInput } from './inputs.js';
import { describeRpcFailure } from './rpc-failure.js';
import type { TokenDirectory } from './tokens.js';
import { amountOf, parseAddress, parseHash } from './values.js';

/** What the read tools share: the chains, the token directory, and how RPC failures read. */
export interface EvmToolContext {
  chains: EvmChains;
  tokens: TokenDirectory;
  timeoutMs: number;
}

/** Runs `work` on the chain the model named, turning every RPC failure into a readable ToolError. */
export async function onChain<T>(
  context: EvmToolContext,
  named: string | number | undefined,
  work: (chain: EvmChain, describe: (error: unknown) => Error) => Promise<T>,
): Promise<T> {
  const chain = await context.chains.find(named);
  const describe = (error: unknown) => describeRpcFailure(error, chain, context.timeoutMs);
  try {
    return await work(chain, describe);
  } catch (error) {
    throw describe(error);
  }
}

const gwei = (value: bigint) => amountOf(value, 9, 'gwei');
/** Bounds the transaction hashes a block lists for the model. */
const listedTransactions = 50;
/** Bounds the call data shown of a transaction. */
const shownInputBytes = 256;

const BalanceInput = Type.Object(
  {
    chain: ChainInput,
    address: Type.String({ maxLength: 64, description: 'The account or contract address, 0x…' }),
    token: Type.Optional({ ...TokenInput, description: `${TokenInput.description} Leave out for the native balance.` }),
  },
  { additionalProperties: false },
);

function balanceTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_get_balance',
    description:
      'The balance of an address on an EVM chain: its native currency (e.g. ETH), or an ERC-20 token when ' +
      '`token` is given. Amounts come in base units (exact) and formatted with the decimals.',
    inputSchema: BalanceInput,
    // Reads the chain only.
    sideEffects: false,
    async execute(input) {
      const { chain: named, address: given, token } = checkedInput(BalanceInput, input);
      const address = parseAddress(given);
      return onChain(context, named, async (chain, describe) => {
        if (token === undefined) {
          const balance = await chain.client.getBalance({ address });
          return {
            chain: chain.name,
            chainId: chain.chainId,
            address,
            asset: 'native',
            balance: amountOf(balance, 18, chain.nativeSymbol),
          };
        }
        const info = await context.tokens.info(chain, context.tokens.addressOf(chain, token), describe);
        const balance = await chain.client.readContract({
          address: info.address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [address],
        });
        return {
          chain: chain.name,
          chainId: chain.chainId,
          address,
          asset: info.symbol,
          tokenAddress: info.address,
          balance: amountOf(balance, info.decimals, info.symbol),
        };
      });
    },
  };
}

const TokenMetadataInput = Type.Object({ chain: ChainInput, token: TokenInput }, { additionalProperties: false });

function tokenTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_get_token',
    description: 'An ERC-20 token’s name, symbol, decimals and total supply.',
    inputSchema: TokenMetadataInput,
    // Reads the chain only.
    sideEffects: false,
    async execute(input) {
      const { chain: named, token } = checkedInput(TokenMetadataInput, input);
      return onChain(context, named, async (chain, describe) => {
        const info = await context.tokens.info(chain, context.tokens.addressOf(chain, token), describe);
        const [name, totalSupply] = await Promise.all([
          chain.client.readContract({ address: info.address, abi: erc20Abi, functionName: 'name' }),
          chain.client.readContract({ address: info.address, abi: erc20Abi, functionName: 'totalSupply' }),
        ]);
        return {
          chain: chain.name,
          chainId: chain.chainId,
          address: info.address,
          name,
          symbol: info.symbol,
          decimals: info.decimals,
          totalSupply: amountOf(totalSupply, info.decimals, info.symbol),
        };
      });
    },
  };
}

const TransactionInput = Type.Object(
  { chain: ChainInput, hash: Type.String({ maxLength: 80, description: 'The transaction hash, 0x + 64 hex digits.' }) },
  { additionalProperties: false },
);

function transactionTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_get_transaction',
    description:
      'A transaction by hash and, once it is mined, its receipt (status, gas used, fee, logs count). A pending ' +
      'transaction has a null receipt.',
    inputSchema: TransactionInput,
    // Reads the chain only.
    sideEffects: false,
    async execute(input) {
      const { chain: named, hash: given } = checkedInput(TransactionInput, input);
      const hash = parseHash(given);
      return onChain(context, named, async (chain) => {
        const transaction = await chain.client.getTransaction({ hash }).catch((error: unknown) => {
          if ((error as Error).name === 'TransactionNotFoundError') {
            throw new ToolError(`There is no transaction ${hash} on ${chain.name}.`);
          }
          throw error;
        });
        const receipt =
          transaction.blockNumber === null
            ? null
            : await chain.client.getTransactionReceipt({ hash }).catch((error: unknown) => {
                if ((error as Error).name === 'TransactionReceiptNotFoundError') return null;
                throw error;
              });
        const inputBytes = (transaction.input.length - 2) / 2;
        return {
          chain: chain.name,
          chainId: chain.chainId,
          hash: transaction.hash,
          from: getAddress(transaction.from),
          to: transaction.to === null ? null : getAddress(transaction.to),
          value: amountOf(transaction.value, 18, chain.nativeSymbol),
          nonce: transaction.nonce,
          type: transaction.type,
          gas: transaction.gas.toString(),
          ...(transaction.gasPrice !== undefined ? { gasPrice: gwei(transaction.gasPrice) } : {}),
          ...(transaction.maxFeePerGas !== undefined ? { maxFeePerGas: gwei(transaction.maxFeePerGas) } : {}),
          input:
            inputBytes > shownInputBytes
              ? `${transaction.input.slice(0, 2 + shownInputBytes * 2)}… (${inputBytes} bytes)`
              : transaction.input,
          blockNumber: transaction.blockNumber?.toString() ?? null,
          receipt:
            receipt === null
              ? null
              : {
                  status: receipt.status,
                  blockNumber: receipt.blockNumber.toString(),
                  gasUsed: receipt.gasUsed.toString(),
                  effectiveGasPrice: gwei(receipt.effectiveGasPrice),
                  fee: amountOf(receipt.gasUsed * receipt.effectiveGasPrice, 18, chain.nativeSymbol),
                  contractAddress: receipt.contractAddress ? getAddress(receipt.contractAddress) : null,
                  logs: receipt.logs.length,
                },
        };
      });
    },
  };
}

const BlockInput = Type.Object(
  {
    chain: ChainInput,
    block: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 80 })], {
        description: 'A block number, a block hash, or "latest" (the default).',
      }),
    ),
  },
  { additionalProperties: false },
);

function blockView(chain: EvmChain, block: Block) {
  const hashes = block.transactions as readonly string[];
  return {
    chain: chain.name,
    chainId: chain.chainId,
    number: block.number?.toString() ?? null,
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
    miner: getAddress(block.miner),
    gasUsed: block.gasUsed.toString(),
    gasLimit: block.gasLimit.toString(),
    baseFeePerGas: block.baseFeePerGas === null ? null : gwei(block.baseFeePerGas),
    transactionCount: hashes.length,
    transactions: hashes.slice(0, listedTransactions),
  };
}

function blockTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_get_block',
    description: `A block by number or hash (default: the latest): its time, gas, base fee and up to ${listedTransactions} transaction hashes.`,
    inputSchema: BlockInput,
    // Reads the chain only.
    sideEffects: false,
    async execute(input) {
      const { chain: named, block } = checkedInput(BlockInput, input);
      return onChain(context, named, async (chain) => {
        let found: Block | null;
        try {
          if (block === undefined || block === 'latest') found = await chain.client.getBlock();
          else if (typeof block === 'number') found = await chain.client.getBlock({ blockNumber: BigInt(block) });
          else if (/^[0-9]+$/.test(block)) found = await chain.client.getBlock({ blockNumber: BigInt(block) });
          else found = await chain.client.getBlock({ blockHash: parseHash(block, 'block hash') });
        } catch (error) {
          if ((error as Error).name !== 'BlockNotFoundError') throw error;
          found = null;
        }
        if (found === null) throw new ToolError(`There is no block ${String(block)} on ${chain.name} (yet).`);
        return blockView(chain, found);
      });
    },
  };
}

const FeesInput = Type.Object({ chain: ChainInput }, { additionalProperties: false });

/** Gas a plain transfer of the native currency uses. */
const nativeTransferGas = 21_000n;

function feesTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_get_fees',
    description:
      'Current gas price and EIP-1559 fee estimate (max fee, priority fee, base fee) in gwei, and what a plain ' +
      'native transfer would cost at most.',
    inputSchema: FeesInput,
    // Reads the chain only.
    sideEffects: false,
    async execute(input) {
      const { chain: named } = checkedInput(FeesInput, input);
      return onChain(context, named, async (chain) => {
        const [gasPrice, block] = await Promise.all([chain.client.getGasPrice(), chain.client.getBlock()]);
        const eip1559 =
          block.baseFeePerGas === null ? null : await chain.client.estimateFeesPerGas({ type: 'eip1559' });
        const perGas = eip1559?.maxFeePerGas ?? gasPrice;
        return {
          chain: chain.name,
          chainId: chain.chainId,
          blockNumber: block.number?.toString() ?? null,
          gasPrice: gwei(gasPrice),
          baseFeePerGas: block.baseFeePerGas === null ? null : gwei(block.baseFeePerGas),
          maxFeePerGas: eip1559 === null ? null : gwei(eip1559.maxFeePerGas),
          maxPriorityFeePerGas: eip1559 === null ? null : gwei(eip1559.maxPriorityFeePerGas),
          nativeTransferCost: amountOf(perGas * nativeTransferGas, 18, chain.nativeSymbol),
        };
      });
    },
  };
}

const EnsInput = Type.Object(
  {
    chain: ChainInput,
    name: Type.Optional(Type.String({ maxLength: 255, description: 'An ENS name to resolve, e.g. "vitalik.eth".' })),
    address: Type.Optional(Type.String({ maxLength: 64, description: 'An address whose primary ENS name to find.' })),
  },
  { additionalProperties: false },
);

function ensTool(context: EvmToolContext): Tool {
  return {
    name: 'evm_resolve_ens',
    description:
      'ENS: the address of a name (give `name`), or the primary name of an address (give `address`). ENS lives ' +
      'on Ethereum mainnet (and Sepolia); other chains have none.',
    inputSchema: EnsInput,
    // Reads the chain only.
    sideEffects: false,
    async execute(input) {
      const { chain: named, name, address: given } = checkedInput(EnsInput, input);
      if ((name === undefined) === (given === undefined))
        throw new ToolError('Give either `name` or `address`, not both.');
      const address = given === undefined ? undefined : parseAddress(given);
      let normalized: string | undefined;
      if (name !== undefined) {
        try {
          normalized = normalize(name);
        } catch {
          throw new ToolError(`${JSON.stringify(name)} is not a valid ENS name.`);
        }
      }
      return onChain(context, named, async (chain) => {
        const resolver = chain.ensResolver;
        if (resolver === null) {
          const ensChains = context.chains.all.filter((candidate) => candidate.ensResolver !== null);
          throw new ToolError(
            `${chain.name} (chain ${chain.chainId}) has no ENS; ENS lives on Ethereum mainnet (chain 1)` +
              (ensChains.length > 0
                ? `: use ${ensChains.map((candidate) => candidate.name).join(' or ')}.`
                : ', which this agent is not configured for.'),
          );
        }
        if (normalized !== undefined) {
          const resolved = await chain.client.getEnsAddress({ name: normalized, universalResolverAddress: resolver });
          return { chain: chain.name, chainId: chain.chainId, name: normalized, address: resolved };
        }
        const primary = await chain.client.getEnsName({ address: address!, universalResolverAddress: resolver });
        return { chain: chain.name, chainId: chain.chainId, address, name: primary };
      });
    },
  };
}

export function readTools(context: EvmToolContext): Tool[] {
  return [
    balanceTool(context),
    tokenTool(context),
    transactionTool(context),
    blockTool(context),
    feesTool(context),
    ensTool(context),
  ];
}
