import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { repositoryPath } from '../repository.js';

/**
 * A real EVM node on loopback for the `evm` plugin's tests and benchmark:
 * Hardhat Network in a process of its own (hardhat-node-process.cjs), with
 * accounts funded at genesis, and an ERC-20 compiled from TestToken.sol by
 * solc (the npm package's own compiler, no download) and deployed by the test.
 */

export const localChainId = 31337;

export interface FundedAccount {
  privateKey: Hex;
  /** In wei. */
  balance: bigint;
}

export interface LocalChain {
  rpcUrl: string;
  chainId: number;
  client: PublicClient;
  /** Stops the node (its process only). */
  close(): Promise<void>;
}

const nodeScript = repositoryPath('test', 'helpers', 'evm', 'hardhat-node-process.cjs');
const tokenSource = repositoryPath('test', 'helpers', 'evm', 'TestToken.sol');

export async function startLocalChain(accounts: FundedAccount[]): Promise<LocalChain> {
  const genesis = accounts.map((account) => ({ privateKey: account.privateKey, balance: account.balance.toString() }));
  const child = spawn(process.execPath, [nodeScript, JSON.stringify(genesis), String(localChainId)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the EVM node did not start: ${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the EVM node exited (${code}): ${output}`));
    });
  });
  const client = createPublicClient({ chain: localChain(rpcUrl), transport: http(rpcUrl) }) as PublicClient;
  return {
    rpcUrl,
    chainId: localChainId,
    client,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export function localChain(rpcUrl: string) {
  return defineChain({
    id: localChainId,
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

let compiled: CompiledContract | null = null;

/** TestToken.sol compiled with solc-js (a few seconds; once per process). */
export function compileTestToken(): CompiledContract {
  if (compiled !== null) return compiled;
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: fs.readFileSync(tokenSource, 'utf8') } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const contract = output.contracts['TestToken.sol']!.TestToken!;
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

/** Deploys a TestToken whose whole supply (in base units) goes to the deployer; its address. */
export async function deployTestToken(
  chain: LocalChain,
  deployerKey: Hex,
  token: { name: string; symbol: string; decimals: number; supply: bigint },
): Promise<Address> {
  const { abi, bytecode } = compileTestToken();
  const wallet = createWalletClient({
    account: privateKeyToAccount(deployerKey),
    chain: localChain(chain.rpcUrl),
    transport: http(chain.rpcUrl),
  });
  const hash = await wallet.deployContract({
    abi,
    bytecode,
    args: [token.name, token.symbol, token.decimals, token.supply],
  });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.contractAddress === null || receipt.contractAddress === undefined) {
    throw new Error('the token was not deployed');
  }
  return receipt.contractAddress;
}

/** A token's balance as the contract itself reports it. */
export function tokenBalance(chain: LocalChain, token: Address, holder: Address): Promise<bigint> {
  return chain.client.readContract({
    address: token,
    abi: compileTestToken().abi,
    functionName: 'balanceOf',
    args: [holder],
  }) as Promise<bigint>;
}
