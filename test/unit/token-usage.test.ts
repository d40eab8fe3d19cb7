import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenUsageOf } from '../../src/providers/ai-sdk-model.js';

/**
 * A provider's usage report is outside input: an OpenAI-compatible server sends what it likes, and usage feeds
 * the metrics, the costs and the spend limits. What is not a count of tokens counts as none.
 */
describe('token usage as a provider reports it', () => {
  const usage = (input: unknown, output: unknown, cached?: unknown) =>
    tokenUsageOf({
      inputTokens: { total: input as number, cacheRead: cached as number },
      outputTokens: { total: output as number },
    });

  it('a usage report cannot lower or poison the totals: negative, text, NaN and objects count as none', () => {
    assert.deepEqual(usage(-100_000, 5), { inputTokens: 0, outputTokens: 5, totalTokens: 5 });
    assert.deepEqual(usage('500', '20'), { inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    assert.deepEqual(usage(Number.NaN, { tokens: 3 }), { inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    assert.deepEqual(usage(1.5, 2 ** 60), { inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('a usage report cannot cache more tokens than it read', () => {
    assert.deepEqual(usage(100, 5, 400), {
      inputTokens: 100,
      outputTokens: 5,
      totalTokens: 105,
      cachedInputTokens: 100,
    });
    assert.deepEqual(usage(100, 5, 40), { inputTokens: 100, outputTokens: 5, totalTokens: 105, cachedInputTokens: 40 });
    assert.deepEqual(usage(100, 5, undefined), { inputTokens: 100, outputTokens: 5, totalTokens: 105 });
  });
});
