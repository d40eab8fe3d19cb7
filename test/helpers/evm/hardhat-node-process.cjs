/**
 * A local EVM node for tests and benchmarks, in a process of its own: Hardhat
 * Network's provider (EDR, shipped inside the npm package) behind Hardhat's
 * JSON-RPC server on a loopback port. Hardhat's command line is not used, as
 * it looks for new versions and banners on the internet; these two modules
 * never leave the machine.
 *
 * Reads the funded accounts as JSON from argv[2] ([{ privateKey, balance }],
 * balance in wei as a decimal string) and the chain id from argv[3]; prints
 * `listening <url>` once the server answers, and stops on SIGTERM.
 */
const { createHardhatNetworkProvider } = require('hardhat/internal/hardhat-network/provider/provider');
const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server');

async function main() {
  const accounts = JSON.parse(process.argv[2] ?? '[]');
  const chainId = Number(process.argv[3] ?? '31337');
  const provider = await createHardhatNetworkProvider(
    {
      hardfork: 'cancun',
      chainId,
      networkId: chainId,
      blockGasLimit: 30_000_000,
      minGasPrice: 0n,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: new Map(),
      genesisAccounts: accounts,
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: true,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
  const server = new JsonRpcServer({ hostname: '127.0.0.1', port: 0, provider });
  const { address, port } = await server.listen();
  process.stdout.write(`listening http://${address}:${port}/\n`);
  process.once('SIGTERM', () => {
    server.close().finally(() => process.exit(0));
  });
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
