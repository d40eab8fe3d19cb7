/**
 * What one `evm` read tool call adds over the node's own RPC time.
 *
 *   npm run bench:evm-read
 *   TOTAL=500 node --import tsx bench/evm-read.ts     # fewer calls
 *
 * A real EVM node (Hardhat Network, in a process of its own on loopback, as
 * the tests start it) holds a funded account and an ERC-20 deployed here.
 * In this process, each read is timed two ways, in interleaved rounds so a
 * noisy moment of the machine falls on both alike:
 *
 * - through agentd: the tool call as the tool loop runs it (`runToolCall`:
 *   input parsed and checked against the tool's schema, the plugin's tool run
 *   with its time-out, the output capped), the plugin opened as agentd opens
 *   it, its RPC going through the SSRF-safe outbound client (loopback allowed
 *   as AGENTD_OUTBOUND_ALLOW_PRIVATE does) and viem;
 * - direct: the same JSON-RPC request posted to the node with node:http on a
 *   keep-alive connection and its JSON parsed: the node's own time plus the
 *   least a client can do.
 *
 * The difference of the medians is what the tool adds. The model's time is
 * not part of either (bench:tool-call measures the tool loop around a call).
 */
import http from 'node:http';
import os from 'node:os';
import pino from 'pino';
import { encodeFunctionData, erc20Abi, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { systemClock } from '../src/clock.js';
import { runToolCall } from '../src/conversation/tool-runner.js';
import { createOutboundFetch } from '../src/outbound/outbound-fetch.js';
import { evmPlugin } from '../src/plugins/evm/evm-plugin.js';
import type { Toolbox } from '../src/plugins/toolsets.js';
import { deployTestToken, startLocalChain } from '../test/helpers/evm/local-chain.js';
import { unusedPluginServices } from '../test/helpers/plugin-context.js';

const total = Number(process.env.TOTAL ?? 2_000);
const rounds = 10;
const warmUp = 200;
const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
};
const fixed = (value: number) => value.toFixed(3);

const key = generatePrivateKey();
const holder = privateKeyToAccount(key).address;
const chain = await startLocalChain([{ privateKey: key, balance: parseEther('1000') }]);
try {
  const token = await deployTestToken(chain, key, {
    name: 'Bench Dollar',
    symbol: 'BUSD',
    decimals: 6,
    supply: 10n ** 12n,
  });
  const instance = await evmPlugin.open(
    {
      chains: [
        { chainId: chain.chainId, rpcUrl: chain.rpcUrl, name: 'local', nativeSymbol: 'ETH', tokens: { BUSD: token } },
      ],
      timeoutMs: 10_000,
      transfers: {
        enabled: false,
        requireApproval: true,
        maxPerTransfer: {},
        maxPerDay: {},
        maxTransfersPerDay: 20,
        receiptTimeoutMs: 10_000,
      },
    },
    {},
    {
      agentId: 'agt_bench',
      accountId: 'acc_bench',
      fetch: createOutboundFetch({ allowPrivateAddresses: true }),
      searchKnowledge: async () => [],
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      ...unusedPluginServices,
    },
  );
  const toolbox: Toolbox = {
    tools: new Map(instance.tools.map((tool) => [tool.name, tool])),
    unavailable: [],
    approvals: new Map(),
  };
  const limits = { timeoutMs: 15_000, outputBytes: 16_384 };
  const logger = pino({ level: 'silent' });
  const signal = new AbortController().signal;
  let callNumber = 0;

  const throughAgentd = (toolName: string, input: unknown) => async () => {
    const started = performance.now();
    const call = await runToolCall(
      toolbox,
      { type: 'tool-call', toolCallId: `call_${(callNumber += 1)}`, toolName, input: JSON.stringify(input) },
      limits,
      signal,
      logger,
    );
    const elapsed = performance.now() - started;
    if ('error' in call && call.error !== undefined) throw new Error(`${toolName} failed: ${call.error}`);
    return elapsed;
  };

  const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const rpc = new URL(chain.rpcUrl);
  let rpcId = 0;
  const direct = (method: string, params: unknown[]) => () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const body = JSON.stringify({ jsonrpc: '2.0', id: (rpcId += 1), method, params });
      const request = http.request(
        {
          hostname: rpc.hostname,
          port: rpc.port,
          path: rpc.pathname,
          method: 'POST',
          agent: connection,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const answer = JSON.parse(Buffer.concat(chunks).toString()) as { error?: unknown };
            if (answer.error !== undefined) reject(new Error(JSON.stringify(answer.error)));
            else resolve(performance.now() - started);
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  const balanceOfData = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder as Address] });
  const kinds = [
    {
      label: 'native balance (eth_getBalance)',
      agentd: throughAgentd('evm_get_balance', { address: holder }),
      direct: direct('eth_getBalance', [holder, 'latest']),
    },
    {
      label: 'ERC-20 balance (eth_call balanceOf; symbol and decimals cached)',
      agentd: throughAgentd('evm_get_balance', { address: holder, token: 'BUSD' }),
      direct: direct('eth_call', [{ to: token, data: balanceOfData }, 'latest']),
    },
    {
      label: 'read_contract (eth_call, signature parsed per call)',
      agentd: throughAgentd('evm_read_contract', {
        address: token,
        function: 'function balanceOf(address owner) view returns (uint256)',
        args: [holder],
      }),
      direct: direct('eth_call', [{ to: token, data: balanceOfData }, 'latest']),
    },
  ];

  const times = kinds.map(() => ({ agentd: [] as number[], direct: [] as number[] }));
  for (const kind of kinds) {
    for (let index = 0; index < warmUp; index += 1) {
      await kind.agentd();
      await kind.direct();
    }
  }
  const perRound = Math.ceil(total / rounds);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, kind] of kinds.entries()) {
      for (let call = 0; call < perRound; call += 1) times[index]!.direct.push(await kind.direct());
      for (let call = 0; call < perRound; call += 1) times[index]!.agentd.push(await kind.agentd());
    }
  }
  connection.destroy();

  console.log(`node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
  console.log(`${perRound * rounds} calls of each kind in ${rounds} interleaved rounds, one at a time\n`);
  console.log('| read | direct p50 / p90 ms | through agentd p50 / p90 ms | added p50 ms |');
  console.log('|---|---|---|---|');
  for (const [index, kind] of kinds.entries()) {
    const { agentd, direct: bare } = times[index]!;
    const added = percentile(agentd, 0.5) - percentile(bare, 0.5);
    console.log(
      `| ${kind.label} | ${fixed(percentile(bare, 0.5))} / ${fixed(percentile(bare, 0.9))} | ` +
        `${fixed(percentile(agentd, 0.5))} / ${fixed(percentile(agentd, 0.9))} | **${fixed(added)}** |`,
    );
  }
} finally {
  await chain.close();
}
