import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { costOf, createPriceTable } from '../../src/providers/prices.js';

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, '/srv');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  assert.fail('expected a configuration error');
}

describe('model prices', () => {
  it('prices the models agentd ships by name and snapshot, never a longer name as a shorter one', () => {
    const table = createPriceTable();
    assert.deepEqual(table.priceOf('openai', 'gpt-4o-mini-2024-07-18'), table.priceOf('openai', 'gpt-4o-mini'));
    assert.notDeepEqual(table.priceOf('openai', 'gpt-4o-mini'), table.priceOf('openai', 'gpt-4o'));
    assert.deepEqual(
      table.priceOf('anthropic', 'claude-sonnet-4-5-20250929'),
      table.priceOf('anthropic', 'claude-sonnet-4-5'),
    );
    assert.equal(table.priceOf('openai', 'gpt-4o-mini-turbo'), null);
  });

  it('the builtin model costs nothing; an openai-compatible model is unknown until priced', () => {
    const table = createPriceTable({ 'openai-compatible': { llama: { inputPerMillion: 1, outputPerMillion: 2 } } });
    assert.equal(costOf(table.priceOf('builtin', 'echo'), { inputTokens: 100, outputTokens: 100 }), 0);
    assert.equal(table.priceOf('openai-compatible', 'other'), null);
    assert.equal(costOf(null, { inputTokens: 100, outputTokens: 100 }), null);
    assert.equal(costOf(table.priceOf('openai-compatible', 'llama'), { inputTokens: 1e6, outputTokens: 1e6 }), 3);
  });

  it('cached input tokens are billed at the cached rate, and at the input rate when none is given', () => {
    const price = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 10 };
    assert.equal(costOf(price, { inputTokens: 1_000_000, cachedInputTokens: 800_000, outputTokens: 0 }), 0.8);
    assert.equal(
      costOf(
        { inputPerMillion: 2, outputPerMillion: 10 },
        { inputTokens: 1e6, cachedInputTokens: 1e6, outputTokens: 0 },
      ),
      2,
    );
  });

  it('an operator price overrides the default of the same model', () => {
    const table = createPriceTable({ openai: { 'gpt-4o': { inputPerMillion: 1, outputPerMillion: 1 } } });
    assert.equal(table.priceOf('openai', 'gpt-4o')?.inputPerMillion, 1);
  });

  it('a bad AGENTD_MODEL_PRICES stops start-up naming the variable', () => {
    for (const value of [
      'not json {',
      '{"openai": 5}',
      '{"openai": {"gpt-4o": {"inputPerMillion": -1, "outputPerMillion": 1}}}',
      '{"openai": {"gpt-4o": {"inputPerMillion": 1}}}',
      '{"openai": {"gpt-4o": {"inputPerMillion": 1, "outputPerMillion": 1, "cost": 2}}}',
      '/no/such/prices.json',
    ]) {
      assert.equal(failure({ AGENTD_MODEL_PRICES: value }).variable, 'AGENTD_MODEL_PRICES', value);
    }
    assert.deepEqual(
      loadConfig(
        { AGENTD_MODEL_PRICES: '{"ollama": {"llama3.2": {"inputPerMillion": 0.1, "outputPerMillion": 0.2}}}' },
        '/srv',
      ).modelPrices,
      { ollama: { 'llama3.2': { inputPerMillion: 0.1, outputPerMillion: 0.2 } } },
    );
  });
});
