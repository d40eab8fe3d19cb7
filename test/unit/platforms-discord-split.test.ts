import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { discordMessageLimit, splitMessage } from '../../src/platforms/discord/split-message.js';

describe('splitting a reply for Discord', () => {
  it('leaves a short reply whole', () => {
    assert.deepEqual(splitMessage('hello'), ['hello']);
    assert.deepEqual(splitMessage('x'.repeat(discordMessageLimit)), ['x'.repeat(discordMessageLimit)]);
    assert.deepEqual(splitMessage(''), []);
  });

  it('cuts after a line break, else after a space, else at the limit', () => {
    assert.deepEqual(splitMessage('aaaaaaa\nbbbb', 10), ['aaaaaaa\n', 'bbbb']);
    assert.deepEqual(splitMessage('aaaaaaa bbbb', 10), ['aaaaaaa ', 'bbbb']);
    assert.deepEqual(splitMessage('abcdefghijklmnop', 10), ['abcdefghij', 'klmnop']);
    // A break early in the window would make a sliver: the space further on is used instead.
    assert.deepEqual(splitMessage('a\nbbbbb cccccc', 10), ['a\nbbbbb ', 'cccccc']);
  });

  it('never cuts an emoji in two', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(5)}`;
    const pieces = splitMessage(text, 10);
    assert.deepEqual(pieces, ['a'.repeat(9), `😀${'b'.repeat(5)}`]);
  });

  it('loses nothing and keeps every piece within the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ' ', '\n', '😀', 'é'), maxLength: 300 }),
        fc.integer({ min: 4, max: 40 }),
        (text, limit) => {
          const pieces = splitMessage(text, limit);
          assert.equal(pieces.join(''), text);
          for (const piece of pieces) {
            assert.ok(piece.length > 0 && piece.length <= limit);
            assert.ok(!/^[\udc00-\udfff]/.test(piece), 'a piece starts with half an emoji');
          }
        },
      ),
    );
  });
});
