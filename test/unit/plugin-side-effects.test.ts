import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ImageModel } from 'ai';
import pino from 'pino';
import { systemClock } from '../../src/clock.js';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { builtinPlugins } from '../../src/plugins/builtin.js';
import { PluginCatalog } from '../../src/plugins/catalog.js';
import type { PluginContext, Tool } from '../../src/plugins/plugin.js';
import { hasSideEffects } from '../../src/plugins/side-effects.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';

/**
 * Every tool of every builtin plugin says whether a call changes something
 * outside the reply (`Tool.sideEffects`), so that a run taken over after a
 * call began knows whether it may run the call again. A tool that says
 * nothing is taken to have side effects, which is safe but never runs a
 * harmless read again: each tool must decide, and a new one fails here until
 * it does. Opening a plugin contacts nothing but the loopback servers below.
 */

/** An entry of each builtin plugin, and what each of its tools is expected to say for some inputs. */
interface Sample {
  config: Record<string, unknown>;
  secrets?: Record<string, string>;
  /** Tool name → [input, has side effects] pairs. */
  expected: Record<string, Array<[unknown, boolean]>>;
}

const catalog = new PluginCatalog(builtinPlugins);

describe('the side effects of builtin tools', () => {
  let mcp: FakeMcpServer;
  let remoteAgent: LoopbackHttpServer;
  const opened: Array<() => Promise<void>> = [];

  before(async () => {
    mcp = await startFakeMcpServer();
    remoteAgent = await startLoopbackHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          name: 'Remote Expert',
          description: 'Answers questions.',
          version: '1',
          supportedInterfaces: [
            { url: `${remoteAgent.origin}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          ],
          capabilities: { streaming: true },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [],
        }),
      );
    });
  });
  after(async () => {
    for (const close of opened) await close();
    await mcp?.close();
    await remoteAgent?.close();
  });

  const read = (input: unknown = {}): Array<[unknown, boolean]> => [[input, false]];
  const evmRead = read({ chain: 'local' });

  function samples(): Record<string, Sample> {
    return {
      http: {
        config: {},
        expected: {
          fetch_url: [
            [{ url: 'https://example.com/' }, false],
            [{ url: 'https://example.com/', method: 'GET' }, false],
            [{ url: 'https://example.com/', method: 'POST', body: '{}' }, true],
            // Not what the schema allows: refused before anything is sent, and taken to act, as unknown input is.
            [{ url: 'https://example.com/', method: 7 }, true],
          ],
        },
      },
      knowledge: { config: {}, expected: { search_knowledge: read({ query: 'x' }) } },
      clock: { config: {}, expected: { current_time: read() } },
      math: { config: {}, expected: { calculate: read({ expression: '1 + 1' }) } },
      mcp: {
        config: { url: mcp.url },
        // `add` is annotated read-only by the server; `lookup_word` says nothing, so it may act.
        expected: { mcp_add: read({ a: 1, b: 2 }), mcp_lookup_word: [[{ word: 'lexicon' }, true]] },
      },
      openapi: {
        config: {
          document: {
            openapi: '3.0.3',
            info: { title: 'Pets', version: '1' },
            servers: [{ url: 'https://pets.example.com' }],
            paths: {
              '/pets': {
                get: { operationId: 'listPets', responses: { 200: { description: 'ok' } } },
                post: { operationId: 'createPet', responses: { 201: { description: 'ok' } } },
                head: { operationId: 'countPets', responses: { 200: { description: 'ok' } } },
                options: { operationId: 'petOptions', responses: { 200: { description: 'ok' } } },
              },
              '/pets/{id}': {
                parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
                put: { operationId: 'replacePet', responses: { 200: { description: 'ok' } } },
                patch: { operationId: 'updatePet', responses: { 200: { description: 'ok' } } },
                delete: { operationId: 'deletePet', responses: { 204: { description: 'ok' } } },
              },
            },
          },
        },
        expected: {
          listPets: read(),
          countPets: read(),
          petOptions: read(),
          createPet: [[{}, true]],
          replacePet: [[{ id: '1' }, true]],
          updatePet: [[{ id: '1' }, true]],
          deletePet: [[{ id: '1' }, true]],
        },
      },
      evm: {
        config: {
          // Never contacted: opening the plugin reads no chain.
          chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:9/', name: 'local' }],
          transfers: { enabled: true, maxPerTransfer: { native: '1' }, maxPerDay: { native: '1' } },
        },
        secrets: { privateKey: `0x${'11'.repeat(32)}` },
        expected: {
          evm_get_balance: evmRead,
          evm_get_token: evmRead,
          evm_get_transaction: evmRead,
          evm_get_block: evmRead,
          evm_get_fees: evmRead,
          evm_resolve_ens: evmRead,
          evm_read_contract: evmRead,
          evm_transfer: [[{ chain: 'local', to: '0x0000000000000000000000000000000000000001', amount: '0.1' }, true]],
        },
      },
      a2a: {
        config: { cardUrl: `${remoteAgent.origin}/card.json` },
        expected: { a2a_remote_expert: [[{ text: 'Hello' }, true]] },
      },
      images: {
        config: { provider: 'openai', model: 'gpt-image-1' },
        expected: { generate_image: read({ prompt: 'a cat' }) },
      },
    };
  }

  const context: PluginContext = {
    agentId: 'agt_test',
    accountId: 'acc_test',
    // The MCP server and the remote agent are on loopback.
    fetch: createOutboundFetch({ allowPrivateAddresses: true }),
    searchKnowledge: async () => [],
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    ...unusedPluginServices,
    images: { model: () => ({}) as ImageModel, save: async () => [] },
  };

  async function toolsOf(name: string, sample: Sample): Promise<Tool[]> {
    const definition = catalog.definitionOf(name)!;
    const instance = await definition.open(
      catalog.configWithDefaults(name, sample.config),
      sample.secrets ?? {},
      context,
    );
    if (instance.close) opened.push(instance.close);
    return instance.tools;
  }

  it('has an entry here for every builtin plugin, so a new plugin’s tools are checked too', () => {
    const covered = Object.keys(samples());
    for (const plugin of builtinPlugins) {
      assert.ok(covered.includes(plugin.name), `add a sample entry of the ${plugin.name} plugin to this test`);
    }
  });

  for (const plugin of builtinPlugins) {
    it(`${plugin.name}: every tool declares sideEffects, with what it declares for each kind of call`, async () => {
      const sample = samples()[plugin.name];
      assert.ok(sample, `no sample entry of the ${plugin.name} plugin`);
      const tools = await toolsOf(plugin.name, sample);
      assert.deepEqual(
        tools.map((tool) => tool.name).sort(),
        Object.keys(sample.expected).sort(),
        'every tool of the entry has an expectation here',
      );
      for (const tool of tools) {
        assert.ok(
          typeof tool.sideEffects === 'boolean' || typeof tool.sideEffects === 'function',
          `${tool.name} declares sideEffects (true, false, or a function of the input)`,
        );
        for (const [input, expected] of sample.expected[tool.name]!) {
          assert.equal(hasSideEffects(tool, input), expected, `${tool.name} with ${JSON.stringify(input)}`);
        }
      }
    });
  }

  it('only evm_transfer can recover the outcome of a call that began on an instance that stopped', async () => {
    const all = await Promise.all(Object.entries(samples()).map(([name, sample]) => toolsOf(name, sample)));
    const recovering = all
      .flat()
      .filter((tool) => tool.recoverOutcome !== undefined)
      .map((tool) => tool.name);
    assert.deepEqual(recovering, ['evm_transfer']);
  });
});
