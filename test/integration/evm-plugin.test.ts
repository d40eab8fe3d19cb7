import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { formatEther, getAddress, parseEther, type Address } from 'viem';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer, RecordedRequest } from '../helpers/fake-provider-server.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { unusedPort } from '../helpers/network.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';
import { deployTestToken, startLocalChain, tokenBalance, type LocalChain } from '../helpers/evm/local-chain.js';

/**
 * The `evm` plugin end to end: a model (the fake OpenAI-compatible server)
 * asks for its tools, agentd runs them against a real EVM node on loopback
 * (Hardhat Network, with an ERC-20 the test compiles and deploys), and the
 * test checks what the model was given and what happened on the chain.
 * Loopback is reached as operators let it be (AGENTD_OUTBOUND_ALLOW_PRIVATE).
 */

const agentKey = generatePrivateKey();
const agentAddress = privateKeyToAccount(agentKey).address;
recordSecrets(agentKey);
const tokenSupply = 1_000_000n * 10n ** 6n;

interface ToolOutcome {
  name: string;
  output?: any;
  error?: string;
}

describe('the evm plugin against a local EVM node', () => {
  let chain: LocalChain;
  let token: Address;
  let fake: FakeProviderServer;
  let t: TestApp;

  before(async () => {
    chain = await startLocalChain([{ privateKey: agentKey, balance: parseEther('1000') }]);
    token = await deployTestToken(chain, agentKey, {
      name: 'Test Dollar',
      symbol: 'TUSD',
      decimals: 6,
      supply: tokenSupply,
    });
    fake = await startFakeOpenAiServer();
    t = await createTestApp({
      captureLogs: true,
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        // The node listens on loopback, which the outbound client refuses unless the operator allows it.
        AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      },
    });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await chain?.close();
  });
  beforeEach(() => fake.reset());

  function evmEntry(config: Record<string, unknown> = {}, secrets?: Record<string, string>) {
    return {
      name: 'evm',
      config: {
        chains: [{ chainId: chain.chainId, rpcUrl: chain.rpcUrl, name: 'local', tokens: { TUSD: token } }],
        ...config,
      },
      ...(secrets ? { secrets } : {}),
    };
  }

  /** Transfers that run on the model's word, within the limits: these tests are about the limits, not approvals. */
  const withoutApproval = { enabled: true, requireApproval: false };

  function transferAgent(limits: { maxPerTransfer: Record<string, string>; maxPerDay: Record<string, string> }) {
    return t.newAgent({
      plugins: [evmEntry({ transfers: { ...withoutApproval, ...limits } }, { privateKey: agentKey })],
    });
  }

  /** Has the model call one tool, and returns the call as the reply reports it. */
  async function callTool(agentId: string, name: string, input: unknown): Promise<ToolOutcome> {
    fake.enqueue({ toolCalls: [{ name, input }] }, { reply: 'Done.' });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      payload: { text: `Please use ${name}.`, userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const [call] = response.json().toolCalls as ToolOutcome[];
    assert.ok(call, 'the tool was called');
    assert.equal(call.name, name);
    return call;
  }

  function recipient(): Address {
    return privateKeyToAccount(generatePrivateKey()).address;
  }

  it('is listed by GET /v1/plugins with its config and secrets schemas', async () => {
    const response = await t.inject({ method: 'GET', url: '/v1/plugins' });
    assert.equal(response.statusCode, 200);
    const evm = response.json().data.find((plugin: { name: string }) => plugin.name === 'evm');
    assert.ok(evm, 'the evm plugin is listed');
    assert.deepEqual(Object.keys(evm.configSchema.properties).sort(), ['chains', 'timeoutMs', 'transfers']);
    assert.deepEqual(evm.configSchema.required, ['chains']);
    assert.equal(evm.configSchema.properties.transfers.properties.enabled.default, false);
    assert.equal(evm.configSchema.properties.transfers.properties.requireApproval.default, true);
    assert.equal(evm.configSchema.properties.transfers.properties.maxTransfersPerDay.default, 20);
    assert.deepEqual(Object.keys(evm.secretsSchema.properties), ['privateKey']);
  });

  it('offers the read tools, and no transfer tool unless transfers are enabled', async () => {
    const agent = await t.newAgent({ plugins: [evmEntry({}, { privateKey: agentKey })] });
    await callTool(agent.id, 'evm_get_fees', {});
    assert.deepEqual(fake.requests[0]!.offeredTools.map((tool) => tool.name).sort(), [
      'evm_get_balance',
      'evm_get_block',
      'evm_get_fees',
      'evm_get_token',
      'evm_get_transaction',
      'evm_read_contract',
      'evm_resolve_ens',
    ]);
    const stored = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
    assert.notEqual(stored.plugins[0].secrets.privateKey, agentKey, 'the key is read back masked');
    assert.match(stored.plugins[0].secrets.privateKey, /^••••/);
  });

  it('transfers wait for approval by default: with no approval setting, evm_transfer pauses and sends nothing until approved', async () => {
    const agent = await t.newAgent({
      plugins: [
        evmEntry(
          { transfers: { enabled: true, maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } } },
          { privateKey: agentKey },
        ),
      ],
    });
    const to = recipient();
    const nonceBefore = await chain.client.getTransactionCount({ address: agentAddress });
    fake.enqueue({
      toolCalls: [
        { name: 'evm_get_balance', input: { address: agentAddress } },
        { name: 'evm_transfer', input: { to, amount: '0.25' } },
      ],
    });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'Send 0.25 ETH.', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const paused = response.json();
    assert.equal(paused.finishReason, 'approval_required');
    assert.deepEqual(
      paused.approvals.map((approval: { name: string }) => approval.name),
      ['evm_transfer'],
    );
    assert.deepEqual(
      paused.toolCalls.map((call: ToolOutcome) => call.name),
      ['evm_get_balance'],
      'reads need no approval',
    );
    assert.equal(await chain.client.getBalance({ address: to }), 0n);
    assert.equal(await chain.client.getTransactionCount({ address: agentAddress }), nonceBefore, 'nothing was signed');

    fake.enqueue({ reply: 'Sent.' });
    const decided = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/approvals/${paused.approvals[0].approvalId}`,
      payload: { decision: 'approve' },
    });
    assert.equal(decided.statusCode, 200, decided.body);
    const resumedRunId = decided.json().resumedRunId as string;
    const resumed = await eventually(async () => {
      const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${resumedRunId}` })).json();
      return ['completed', 'failed'].includes(run.status) ? run : null;
    }, 'the resumed run to end');
    assert.equal(resumed.reply.toolCalls[0].name, 'evm_transfer');
    assert.equal(resumed.reply.toolCalls[0].output?.status, 'confirmed', resumed.reply.toolCalls[0].error);
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.25'), 'the approved transfer landed');
  });

  it('transfers wait for approval by default: an entry approval naming other tools keeps it; requireApproval: false turns it off', async () => {
    const limits = { maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } };
    const send = async (agentId: string, to: Address, pauses: boolean) => {
      fake.enqueue(
        { toolCalls: [{ name: 'evm_transfer', input: { to, amount: '0.01' } }] },
        // A reply that pauses asks the model nothing more.
        ...(pauses ? [] : [{ reply: 'Done.' }]),
      );
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/messages`,
        payload: { text: 'Send 0.01 ETH.', userId: 'u1' },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    const namingOthers = await t.newAgent({
      plugins: [
        {
          ...evmEntry({ transfers: { enabled: true, ...limits } }, { privateKey: agentKey }),
          approval: { tools: ['evm_get_fees'], expiresAfterSeconds: 3_600 },
        },
      ],
    });
    const waiting = recipient();
    const paused = await send(namingOthers.id, waiting, true);
    assert.equal(paused.finishReason, 'approval_required');
    const expiresIn = Date.parse(paused.approvals[0].expiresAt) - Date.now();
    assert.ok(expiresIn > 3_500_000 && expiresIn <= 3_600_000, 'the entry’s expiry applies');
    assert.equal(await chain.client.getBalance({ address: waiting }), 0n);

    const optedOut = await t.newAgent({
      plugins: [
        evmEntry({ transfers: { enabled: true, requireApproval: false, ...limits } }, { privateKey: agentKey }),
      ],
    });
    const to = recipient();
    const ran = await send(optedOut.id, to, false);
    assert.equal(ran.finishReason, 'stop');
    assert.equal(ran.toolCalls[0].output?.status, 'confirmed', ran.toolCalls[0].error);
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.01'));
  });

  it('gives native and ERC-20 balances in base units and formatted, addresses checksummed', async () => {
    const agent = await t.newAgent({ plugins: [evmEntry()] });
    const native = await callTool(agent.id, 'evm_get_balance', { address: agentAddress.toLowerCase() });
    assert.equal(native.error, undefined);
    assert.equal(native.output.address, agentAddress, 'checksummed');
    assert.equal(native.output.asset, 'native');
    const expected = await chain.client.getBalance({ address: agentAddress });
    assert.deepEqual(native.output.balance, {
      baseUnits: expected.toString(),
      formatted: formatEther(expected),
      decimals: 18,
      symbol: 'ETH',
    });

    const byToken = await callTool(agent.id, 'evm_get_balance', {
      address: agentAddress,
      token: 'tusd',
      chain: 'local',
    });
    assert.equal(byToken.error, undefined);
    assert.equal(byToken.output.tokenAddress, getAddress(token));
    const held = await tokenBalance(chain, token, agentAddress);
    assert.deepEqual(byToken.output.balance, {
      baseUnits: held.toString(),
      formatted: (held / 10n ** 6n).toString(),
      decimals: 6,
      symbol: 'TUSD',
    });
  });

  it('reads token metadata by symbol or address', async () => {
    const agent = await t.newAgent({ plugins: [evmEntry()] });
    for (const given of ['TUSD', token.toLowerCase()]) {
      const call = await callTool(agent.id, 'evm_get_token', { token: given, chain: chain.chainId });
      assert.equal(call.error, undefined);
      assert.deepEqual(call.output, {
        chain: 'local',
        chainId: chain.chainId,
        address: getAddress(token),
        name: 'Test Dollar',
        symbol: 'TUSD',
        decimals: 6,
        totalSupply: { baseUnits: tokenSupply.toString(), formatted: '1000000', decimals: 6, symbol: 'TUSD' },
      });
    }
  });

  it('calls view functions with read_contract and refuses functions that are not view or pure', async () => {
    const agent = await t.newAgent({ plugins: [evmEntry()] });
    const balance = await callTool(agent.id, 'evm_read_contract', {
      address: token,
      function: 'function balanceOf(address owner) view returns (uint256)',
      args: [agentAddress],
    });
    assert.equal(balance.error, undefined);
    assert.equal(balance.output.result, (await tokenBalance(chain, token, agentAddress)).toString());

    const fromJson = await callTool(agent.id, 'evm_read_contract', {
      address: token,
      function: {
        type: 'function',
        name: 'symbol',
        inputs: [],
        outputs: [{ type: 'string' }],
        stateMutability: 'view',
      },
    });
    assert.equal(fromJson.output.result, 'TUSD');

    const write = await callTool(agent.id, 'evm_read_contract', {
      address: token,
      function: 'function transfer(address to, uint256 value) returns (bool)',
      args: [recipient(), '1'],
    });
    assert.match(write.error ?? '', /only view and pure functions can be read/);
  });

  it('reads a block, the fees, and a transaction with its receipt', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '10' } });
    const sent = await callTool(agent.id, 'evm_transfer', { to: recipient(), amount: '0.01' });
    const offered = fake.requests[0]!.offeredTools.find((tool) => tool.name === 'evm_transfer');
    assert.ok(offered?.description?.includes(agentAddress), 'the model is told which account it sends from');
    assert.equal(sent.output?.status, 'confirmed', sent.error);

    const transaction = await callTool(agent.id, 'evm_get_transaction', { hash: sent.output.hash });
    assert.equal(transaction.error, undefined);
    assert.equal(transaction.output.from, agentAddress);
    assert.equal(transaction.output.value.formatted, '0.01');
    assert.equal(transaction.output.receipt.status, 'success');
    assert.equal(transaction.output.receipt.gasUsed, '21000');

    const block = await callTool(agent.id, 'evm_get_block', { block: Number(transaction.output.blockNumber) });
    assert.equal(block.error, undefined);
    assert.ok(block.output.transactions.includes(sent.output.hash));

    const fees = await callTool(agent.id, 'evm_get_fees', {});
    assert.equal(fees.error, undefined);
    assert.equal(fees.output.gasPrice.symbol, 'gwei');
    assert.ok(BigInt(fees.output.nativeTransferCost.baseUnits) > 0n);

    const missing = await callTool(agent.id, 'evm_get_transaction', { hash: `0x${'ab'.repeat(32)}` });
    assert.match(missing.error ?? '', /There is no transaction 0xabab.* on local/);
  });

  it('sends native currency that lands in the recipient’s balance, recorded in the trail without the key', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '2' } });
    const to = recipient();
    const call = await callTool(agent.id, 'evm_transfer', { to: to.toLowerCase(), amount: '0.5' });
    assert.equal(call.error, undefined);
    assert.equal(call.output.status, 'confirmed');
    assert.equal(call.output.to, to);
    assert.equal(call.output.amount.formatted, '0.5');
    // The day's total counts the fee at its most, as the transaction was signed.
    const maxFee = BigInt(call.output.maxFee.baseUnits);
    assert.ok(maxFee > 0n && maxFee < parseEther('0.001'));
    assert.equal(call.output.spentToday.baseUnits, (parseEther('0.5') + maxFee).toString());
    assert.equal(call.output.transfersToday, 1);
    assert.equal(call.output.dailyTransferLimit, 20);
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.5'));

    const events = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` })).json().data;
    const transfer = events.find((event: { type: string }) => event.type === 'tool.transfer');
    assert.ok(transfer, 'a tool.transfer event is recorded');
    assert.deepEqual(
      {
        chain: transfer.data.chain,
        to: transfer.data.to,
        amount: transfer.data.amount,
        hash: transfer.data.hash,
      },
      {
        chain: 'local',
        to,
        amount: { baseUnits: parseEther('0.5').toString(), formatted: '0.5' },
        hash: call.output.hash,
      },
    );
    const everything = JSON.stringify(events) + JSON.stringify(call) + t.logs!.text();
    assert.ok(!everything.includes(agentKey.slice(2)), 'the key is in no event, output or log line');
  });

  it('sends an ERC-20 token that lands in the recipient’s token balance', async () => {
    const agent = await transferAgent({ maxPerTransfer: { TUSD: '100' }, maxPerDay: { tusd: '1000', native: '0.01' } });
    const to = recipient();
    const call = await callTool(agent.id, 'evm_transfer', { to, amount: '25.5', token: 'TUSD' });
    assert.equal(call.error, undefined);
    assert.equal(call.output.status, 'confirmed');
    assert.equal(await tokenBalance(chain, token, to), 25_500_000n);
  });

  it('refuses a transfer over maxPerTransfer, and sends nothing', async () => {
    const agent = await transferAgent({
      maxPerTransfer: { native: '1', TUSD: '10' },
      maxPerDay: { native: '100', TUSD: '100' },
    });
    const to = recipient();
    const nonceBefore = await chain.client.getTransactionCount({ address: agentAddress });
    const native = await callTool(agent.id, 'evm_transfer', { to, amount: '1.000001' });
    assert.match(native.error ?? '', /over the limit of 1 ETH per transfer\. Nothing was sent\./);
    const tokens = await callTool(agent.id, 'evm_transfer', { to, amount: '11', token: 'TUSD' });
    assert.match(tokens.error ?? '', /over the limit of 10 TUSD per transfer/);
    assert.equal(await chain.client.getBalance({ address: to }), 0n);
    assert.equal(await tokenBalance(chain, token, to), 0n);
    assert.equal(await chain.client.getTransactionCount({ address: agentAddress }), nonceBefore, 'nothing was signed');
  });

  it('refuses a transfer that would pass maxPerDay, and sends nothing', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '1.5' } });
    const to = recipient();
    assert.equal((await callTool(agent.id, 'evm_transfer', { to, amount: '1' })).output?.status, 'confirmed');
    const refused = await callTool(agent.id, 'evm_transfer', { to, amount: '0.6' });
    assert.match(
      refused.error ?? '',
      /0\.6 ETH and a fee of up to [0-9.]+ ETH would pass the daily limit of 1\.5 ETH on local: 1\.0\d+ already spent today \(fees included\), 0\.49\d+ left\. Nothing was sent\./,
    );
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('1'));
    // What is left can still be sent.
    assert.equal((await callTool(agent.id, 'evm_transfer', { to, amount: '0.4' })).output?.status, 'confirmed');
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('1.4'));
  });

  it('lets only one of two transfers at once pass the daily limit', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } });
    const to = recipient();
    // Each message gets its own tool call, whatever order the two requests reach the model in.
    fake.setDefault((request: RecordedRequest) =>
      request.toolResults.length === 0
        ? { toolCalls: [{ name: 'evm_transfer', input: { to, amount: '0.7' } }] }
        : { reply: 'Done.' },
    );
    const replies = await Promise.all(
      [1, 2].map((n) =>
        t.inject({
          method: 'POST',
          url: `/v1/agents/${agent.id}/messages`,
          payload: { text: `send ${n}`, userId: `u${n}` },
        }),
      ),
    );
    const calls = replies.map((reply) => reply.json().toolCalls[0] as ToolOutcome);
    assert.equal(calls.filter((call) => call.output?.status === 'confirmed').length, 1, JSON.stringify(calls));
    assert.equal(calls.filter((call) => /would pass the daily limit/.test(call.error ?? '')).length, 1);
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.7'));
  });

  it('gas counts against the daily limit: an amount that fits but not with its maximum fee is refused, and nothing is sent', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } });
    const to = recipient();
    const nonceBefore = await chain.client.getTransactionCount({ address: agentAddress });
    const refused = await callTool(agent.id, 'evm_transfer', { to, amount: '1' });
    assert.match(
      refused.error ?? '',
      /1 ETH and a fee of up to 0\.0\d+ ETH would pass the daily limit of 1 ETH on local: 0 already spent today \(fees included\), 1 left\. Nothing was sent\./,
    );
    assert.equal(await chain.client.getBalance({ address: to }), 0n);
    assert.equal(await chain.client.getTransactionCount({ address: agentAddress }), nonceBefore, 'nothing was signed');
  });

  it('gas counts against the daily limit: many tiny transfers stop once their fees reach it', async () => {
    const dailyLimit = parseEther('0.0001');
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '0.0001' } });
    const to = recipient();
    const before = await chain.client.getBalance({ address: agentAddress });
    let sent = 0;
    let refusal: string | undefined;
    for (let attempt = 0; attempt < 25 && refusal === undefined; attempt += 1) {
      const call = await callTool(agent.id, 'evm_transfer', { to, amount: '0.000000000000000001' });
      if (call.error !== undefined) refusal = call.error;
      else {
        assert.equal(call.output.status, 'confirmed');
        sent += 1;
      }
    }
    assert.match(refusal ?? '', /would pass the daily limit of 0\.0001 ETH on local/, `${sent} transfers were sent`);
    assert.ok(sent >= 1, 'transfers whose fees fit are sent');
    const spent = before - (await chain.client.getBalance({ address: agentAddress }));
    assert.ok(
      spent <= dailyLimit,
      `the wallet spent ${formatEther(spent)} ETH, fees included, within the 0.0001 limit`,
    );
  });

  it('gas counts against the daily limit: a token transfer’s fee counts against the native limit', async () => {
    const to = recipient();
    const withoutNative = await transferAgent({ maxPerTransfer: { TUSD: '100' }, maxPerDay: { TUSD: '1000' } });
    const unlimited = await callTool(withoutNative.id, 'evm_transfer', { to, amount: '1', token: 'TUSD' });
    assert.match(unlimited.error ?? '', /No maxPerDay limit is set for native, which pays the fee of every transfer/);
    const tooSmall = await transferAgent({
      maxPerTransfer: { TUSD: '100' },
      maxPerDay: { TUSD: '1000', native: '0.000001' },
    });
    const refused = await callTool(tooSmall.id, 'evm_transfer', { to, amount: '1', token: 'TUSD' });
    assert.match(
      refused.error ?? '',
      /The fee of up to 0\.0\d+ ETH would pass the daily limit of 0\.000001 ETH on local .*Nothing was sent\./,
    );
    assert.equal(await tokenBalance(chain, token, to), 0n);
  });

  it('a daily count of transfers: by default the 21st transfer of a day is refused', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '10' } });
    const to = recipient();
    for (let count = 1; count <= 20; count += 1) {
      const call = await callTool(agent.id, 'evm_transfer', { to, amount: '0.001' });
      assert.equal(call.output?.status, 'confirmed', `transfer ${count}: ${call.error}`);
    }
    const nonceBefore = await chain.client.getTransactionCount({ address: agentAddress });
    const refused = await callTool(agent.id, 'evm_transfer', { to, amount: '0.001' });
    assert.match(
      refused.error ?? '',
      /20 transfers were already sent today on local, the most this agent may send in a day\. Nothing was sent\./,
    );
    assert.equal(await chain.client.getBalance({ address: to }), parseEther('0.02'));
    assert.equal(await chain.client.getTransactionCount({ address: agentAddress }), nonceBefore, 'nothing was signed');
  });

  it('answers a malformed address, an unknown token or chain, and a chain without ENS with readable errors', async () => {
    const agent = await transferAgent({ maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } });
    const badAddress = await callTool(agent.id, 'evm_get_balance', { address: '0x1234' });
    assert.match(badAddress.error ?? '', /"0x1234" is not a valid address: expected 0x followed by 40 hex digits/);
    const badRecipient = await callTool(agent.id, 'evm_transfer', { to: 'not-an-address', amount: '0.1' });
    assert.match(badRecipient.error ?? '', /recipient address "not-an-address" is not a valid address/);
    // EIP-55's own example address (0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed) with its last letter's case
    // turned: mixed case that does not match. (Turning a letter of a random address could leave it all in
    // capitals, which is a valid unchecksummed form.)
    const wrongChecksum = await callTool(agent.id, 'evm_get_balance', {
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
    });
    assert.match(wrongChecksum.error ?? '', /wrong checksum/);
    const zero = await callTool(agent.id, 'evm_transfer', { to: `0x${'0'.repeat(40)}`, amount: '0.1' });
    assert.match(zero.error ?? '', /zero address.*Nothing was sent/);
    const unknownToken = await callTool(agent.id, 'evm_get_balance', { address: agentAddress, token: 'NOPE' });
    assert.match(
      unknownToken.error ?? '',
      /There is no token NOPE on local; use one of TUSD, or give the token's contract address/,
    );
    const unsendable = await callTool(agent.id, 'evm_transfer', { to: recipient(), amount: '1', token: 'DAI' });
    assert.match(unsendable.error ?? '', /DAI is not a token this agent may send on local/);
    const unknownChain = await callTool(agent.id, 'evm_get_fees', { chain: 'polygon' });
    assert.match(unknownChain.error ?? '', /There is no chain polygon here; use one of: local \(31337\)/);
    const ens = await callTool(agent.id, 'evm_resolve_ens', { name: 'vitalik.eth' });
    assert.match(ens.error ?? '', /local \(chain 31337\) has no ENS; ENS lives on Ethereum mainnet/);
    const noLimit = await callTool(agent.id, 'evm_transfer', { to: recipient(), amount: '1', token: 'TUSD' });
    assert.match(noLimit.error ?? '', /No maxPerTransfer limit is set for TUSD/);
  });

  it('gives back the day’s reservation of a transfer the node refused before it was sent', async () => {
    const unfunded = generatePrivateKey();
    recordSecrets(unfunded);
    const agent = await t.newAgent({
      plugins: [
        evmEntry(
          { transfers: { ...withoutApproval, maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } } },
          { privateKey: unfunded },
        ),
      ],
    });
    for (const attempt of [1, 2]) {
      const call = await callTool(agent.id, 'evm_transfer', { to: recipient(), amount: '0.6' });
      // Twice the same reason: the first attempt's 0.6 was not left counted against the day's 1.
      assert.match(
        call.error ?? '',
        /(does not|doesn't) have enough funds.*\. Nothing was sent\.$/,
        `attempt ${attempt}`,
      );
    }
  });

  it('refuses transfers without a usable key, and a chain whose RPC serves another chain', async () => {
    const agent = await t.newAgent({
      plugins: [
        {
          name: 'evm',
          config: {
            chains: [{ chainId: 1, rpcUrl: chain.rpcUrl, name: 'mainnet' }],
            transfers: { ...withoutApproval, maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } },
          },
          secrets: { privateKey: 'not-a-key-at-all' },
        },
      ],
    });
    const transfer = await callTool(agent.id, 'evm_transfer', { to: recipient(), amount: '0.1' });
    assert.match(transfer.error ?? '', /privateKey secret is missing or is not a 0x-prefixed 64-hex-digit key/);
    assert.ok(!transfer.error!.includes('not-a-key-at-all'));
    const read = await callTool(agent.id, 'evm_get_balance', { address: agentAddress });
    assert.match(read.error ?? '', /The RPC of mainnet \(127\.0\.0\.1:\d+\) serves chain 31337, not 1 as configured\./);
  });

  it('answers an RPC that is down with a readable error, and sends nothing', async () => {
    const port = await unusedPort();
    const agent = await t.newAgent({
      plugins: [
        {
          name: 'evm',
          config: {
            chains: [{ chainId: chain.chainId, rpcUrl: `http://127.0.0.1:${port}/rpc/secret-path`, name: 'down' }],
            transfers: { ...withoutApproval, maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } },
          },
          secrets: { privateKey: agentKey },
        },
      ],
    });
    const started = Date.now();
    const read = await callTool(agent.id, 'evm_get_balance', { address: agentAddress });
    assert.match(read.error ?? '', /^The RPC of down \(127\.0\.0\.1:\d+\) refused the connection/);
    assert.ok(!read.error!.includes('secret-path'), 'the RPC path is never quoted');
    const to = recipient();
    const transfer = await callTool(agent.id, 'evm_transfer', { to, amount: '0.1' });
    assert.match(transfer.error ?? '', /refused the connection/);
    assert.equal(await chain.client.getBalance({ address: to }), 0n);
    assert.ok(Date.now() - started < 10_000, 'answered without waiting out a time-out');
  });
});
