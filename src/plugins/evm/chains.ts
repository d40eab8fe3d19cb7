import { createPublicClient, defineChain, http, type Chain, type PublicClient, type Transport } from 'viem';
import { ToolError, type FetchFunction } from '../plugin.js';
import type { EvmChainConfig, EvmPluginConfig } from './config.js';
import { describeRpcFailure } from './rpc-failure.js';

/**
 * ENS's Universal Resolver where ENS is deployed (the address viem's chain
 * definitions give for Ethereum and Sepolia). Kept here rather than importing
 * viem/chains, which loads every chain viem knows (~0.5 s) for two addresses.
 */
const ensUniversalResolvers: ReadonlyMap<number, `0x${string}`> = new Map([
  [1, '0xeeeeeeee14d718c2b47d9923deab1335e144eeee'],
  [11155111, '0xeeeeeeee14d718c2b47d9923deab1335e144eeee'],
]);

/** One configured chain, with its client; every call goes through the service's outbound client. */
export interface EvmChain {
  chainId: number;
  name: string;
  nativeSymbol: string;
  /** Token symbols of the config, upper-cased, to their addresses. */
  tokens: ReadonlyMap<string, `0x${string}`>;
  /** The RPC's host, as errors name it: never the whole URL, whose path often holds an API key. */
  host: string;
  chain: Chain;
  client: PublicClient<Transport, Chain>;
  /** The Universal Resolver, where the chain has ENS. */
  ensResolver: `0x${string}` | null;
  /** Fails with a ToolError when the RPC serves another chain than configured (checked once, then remembered). */
  verify(): Promise<void>;
}

export function chainName(config: EvmChainConfig): string {
  return config.name ?? `chain-${config.chainId}`;
}

function openChain(config: EvmChainConfig, settings: EvmPluginConfig, fetch: FetchFunction): EvmChain {
  const url = new URL(config.rpcUrl);
  const name = chainName(config);
  const chain = defineChain({
    id: config.chainId,
    name,
    nativeCurrency: { name: config.nativeSymbol, symbol: config.nativeSymbol, decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const client = createPublicClient({
    chain,
    transport: http(config.rpcUrl, {
      // The one SSRF-safe client: an RPC URL is a user-given address like any other.
      fetchFn: fetch as typeof globalThis.fetch,
      timeout: settings.timeoutMs,
      retryCount: 1,
      retryDelay: 100,
      // A JSON-RPC answer the tools read is small; a huge one is refused rather than held in memory.
      maxResponseBodySize: 4 * 1_048_576,
    }),
  });
  let verified: Promise<void> | null = null;
  const evmChain: EvmChain = {
    chainId: config.chainId,
    name,
    nativeSymbol: config.nativeSymbol,
    tokens: new Map(
      Object.entries(config.tokens ?? {}).map(([symbol, address]) => [symbol.toUpperCase(), address as `0x${string}`]),
    ),
    host: url.host,
    chain,
    client,
    ensResolver: ensUniversalResolvers.get(config.chainId) ?? null,
    verify() {
      verified ??= client.getChainId().then(
        (served) => {
          if (served !== config.chainId) {
            throw new ToolError(
              `The RPC of ${name} (${url.host}) serves chain ${served}, not ${config.chainId} as configured.`,
            );
          }
        },
        (error: unknown) => {
          throw describeRpcFailure(error, evmChain, settings.timeoutMs);
        },
      );
      // A failed check (an RPC that was down) is tried again on the next call.
      verified.catch(() => {
        verified = null;
      });
      return verified;
    },
  };
  return evmChain;
}

/** The chains of one plugin entry, found by name or chain id. */
export class EvmChains {
  readonly #chains: EvmChain[];

  constructor(config: EvmPluginConfig, fetch: FetchFunction) {
    const names = new Set<string>();
    const ids = new Set<number>();
    for (const chain of config.chains) {
      if (names.has(chainName(chain)) || ids.has(chain.chainId)) {
        throw new Error(`The evm plugin lists the chain ${chainName(chain)} (${chain.chainId}) twice`);
      }
      names.add(chainName(chain));
      ids.add(chain.chainId);
    }
    this.#chains = config.chains.map((chain) => openChain(chain, config, fetch));
  }

  get all(): readonly EvmChain[] {
    return this.#chains;
  }

  /** The chain the model named (by name or id), or the first one; a ToolError naming the choices otherwise. */
  async find(named: string | number | undefined): Promise<EvmChain> {
    const chain =
      named === undefined || named === ''
        ? this.#chains[0]!
        : this.#chains.find(
            (candidate) =>
              candidate.name === String(named).toLowerCase() || String(candidate.chainId) === String(named),
          );
    if (chain === undefined) {
      throw new ToolError(`There is no chain ${String(named)} here; use one of: ${this.describe()}.`);
    }
    await chain.verify();
    return chain;
  }

  describe(): string {
    return this.#chains.map((chain) => `${chain.name} (${chain.chainId})`).join(', ');
  }
}
