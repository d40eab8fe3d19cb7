import { erc20Abi } from 'viem';
import { ToolError } from '../plugin.js';
import type { EvmChain } from './chains.js';
import { parseAddress, type Address } from './values.js';

export interface TokenInfo {
  address: Address;
  symbol: string;
  decimals: number;
}

/**
 * Tokens by the symbol the config gives them or by address, with their
 * decimals and symbol read once per chain and kept: an ERC-20's decimals and
 * symbol do not change, and every balance needs them.
 */
export class TokenDirectory {
  readonly #known = new Map<string, Promise<TokenInfo>>();

  /** The address of a configured symbol (any case) or of an address as given; a ToolError naming the choices otherwise. */
  addressOf(chain: EvmChain, token: string): Address {
    const configured = chain.tokens.get(token.toUpperCase());
    if (configured !== undefined) return parseAddress(configured, 'token address');
    if (token.startsWith('0x')) return parseAddress(token, 'token address');
    const known = [...chain.tokens.keys()];
    throw new ToolError(
      `There is no token ${token} on ${chain.name}; ${known.length > 0 ? `use one of ${known.join(', ')}, or` : ''} give the token's contract address.`,
    );
  }

  /** Symbol and decimals, read from the contract the first time. */
  async info(chain: EvmChain, address: Address, describe: (error: unknown) => Error): Promise<TokenInfo> {
    const key = `${chain.chainId}:${address}`;
    let found = this.#known.get(key);
    if (found === undefined) {
      found = this.#read(chain, address).catch((error: unknown) => {
        this.#known.delete(key);
        throw describe(error);
      });
      this.#known.set(key, found);
    }
    return found;
  }

  async #read(chain: EvmChain, address: Address): Promise<TokenInfo> {
    const code = await chain.client.getCode({ address });
    if (code === undefined || code === '0x') {
      throw new ToolError(`There is no contract at ${address} on ${chain.name}, so it is not a token there.`);
    }
    const [symbol, decimals] = await Promise.all([
      chain.client.readContract({ address, abi: erc20Abi, functionName: 'symbol' }),
      chain.client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }),
    ]).catch(() => {
      throw new ToolError(`The contract at ${address} on ${chain.name} does not answer as an ERC-20 token.`);
    });
    return { address, symbol, decimals };
  }
}
