import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { PluginContext, PluginInstance } from '../plugin.js';
import { EvmChains } from './chains.js';
import type { EvmPluginConfig, EvmPluginSecrets } from './config.js';
import { readContractTool } from './read-contract-tool.js';
import { readTools, type EvmToolContext } from './read-tools.js';
import { TokenDirectory } from './tokens.js';
import { transferTool } from './transfer-tool.js';

const privateKeyPattern = /^0x[0-9a-fA-F]{64}$/;

/** The signing account, or null when the secret is missing or not a key (the transfer tool then says so). */
function accountOf(privateKey: string | undefined): PrivateKeyAccount | null {
  const key = privateKey?.trim();
  if (key === undefined || !privateKeyPattern.test(key)) return null;
  try {
    return privateKeyToAccount(key as `0x${string}`);
  } catch {
    // Not a valid secp256k1 key (zero or past the curve order); never quoted.
    return null;
  }
}

/**
 * The tools of one `evm` entry: the read tools always, the transfer tool when
 * the config enables it, waiting for approval unless the config says otherwise.
 */
export function openEvmTools(
  config: EvmPluginConfig,
  secrets: EvmPluginSecrets,
  context: PluginContext,
): PluginInstance {
  const toolContext: EvmToolContext = {
    chains: new EvmChains(config, context.fetch),
    tokens: new TokenDirectory(),
    timeoutMs: config.timeoutMs,
  };
  const tools = [...readTools(toolContext), readContractTool(toolContext)];
  if (!config.transfers.enabled) return { tools };
  const transfer = transferTool(toolContext, {
    config: config.transfers,
    account: accountOf(secrets.privateKey),
    plugin: context,
  });
  // A transfer cannot be undone: unless the owner turned it off, a person approves each one.
  return {
    tools: [...tools, transfer],
    requiresApproval: config.transfers.requireApproval ? [transfer.name] : [],
  };
}
