import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { systemClock } from '../../src/clock.js';
import { createLogger } from '../../src/logger.js';
import { PluginCatalog } from '../../src/plugins/catalog.js';
import type { PluginDefinition } from '../../src/plugins/plugin.js';
import { AgentToolsets } from '../../src/plugins/toolsets.js';
import { SecretBox } from '../../src/security/secret-box.js';
import type { AgentRecord } from '../../src/storage/repositories/agents.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';

/** The per-agent pool of open plugins: opened once per agent version, closed when it changes, retried after a failure. */
describe('agent toolsets', () => {
  const events: string[] = [];
  let failOpen = false;
  const counting: PluginDefinition = {
    name: 'counting',
    description: 'Counts opens and closes.',
    configSchema: Type.Object({ label: Type.String({ default: 'x' }) }, { additionalProperties: false }),
    secretsSchema: Type.Object({}),
    async open(config) {
      if (failOpen) throw new Error('server unreachable');
      events.push(`open ${config.label}`);
      return {
        tools: [
          { name: 'noop', description: 'Nothing.', inputSchema: { type: 'object' }, execute: async () => 'ok' },
          { name: 'bad name!', description: 'Refused.', inputSchema: { type: 'object' }, execute: async () => 1 },
        ],
        close: async () => {
          events.push(`close ${config.label}`);
        },
      };
    },
  };
  const logger = createLogger('silent');
  const toolsets = new AgentToolsets({
    catalog: new PluginCatalog([counting]),
    secretBox: new SecretBox(randomBytes(32)),
    logger,
    contextFor: (agent) => ({
      agentId: agent.id,
      accountId: agent.accountId,
      fetch: globalThis.fetch,
      searchKnowledge: async () => [],
      clock: systemClock,
      logger,
      ...unusedPluginServices,
    }),
  });
  const agent = (version: number, label: string, enabled = true): AgentRecord =>
    ({
      id: 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      accountId: 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      version,
      profile: { plugins: [{ name: 'counting', enabled, config: { label }, secrets: {} }] },
    }) as unknown as AgentRecord;

  afterEach(async () => {
    await toolsets.forget(agent(0, '').id);
    events.length = 0;
    failOpen = false;
  });

  it('opens an agent version once, skips invalid tool names, and closes it when the agent changes', async () => {
    const first = await toolsets.toolboxFor(agent(1, 'a'));
    await toolsets.toolboxFor(agent(1, 'a'));
    assert.deepEqual([...first!.tools.keys()], ['noop']);
    assert.deepEqual(events, ['open a']);
    // The old version is closed beside the new one's opening, not before it: no reply waits for a close.
    await toolsets.toolboxFor(agent(2, 'b'));
    await toolsets.forget(agent(2, 'b').id);
    assert.deepEqual([...events].sort(), ['close a', 'close b', 'open a', 'open b']);
    assert.ok(events.indexOf('close b') > events.indexOf('open b'));
  });

  it('leaves out a plugin that fails to open, says why, and tries it again on the next use', async () => {
    failOpen = true;
    const failed = await toolsets.toolboxFor(agent(1, 'c'));
    assert.equal(failed!.tools.size, 0);
    assert.deepEqual(failed!.unavailable, ["the counting plugin's tools are unavailable: server unreachable"]);
    failOpen = false;
    const again = await toolsets.toolboxFor(agent(1, 'c'));
    assert.deepEqual([...again!.tools.keys()], ['noop']);
    assert.deepEqual(again!.unavailable, []);
    assert.deepEqual(events, ['open c']);
  });

  it('opens nothing for an agent whose plugins are all disabled', async () => {
    assert.equal(await toolsets.toolboxFor(agent(1, 'd', false)), null);
    assert.deepEqual(events, []);
  });
});
