import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { exposedToolName } from '../../src/plugins/mcp/tool-name.js';

/** The names an MCP server's tools get before the model sees them, which providers must accept. */
describe('the exposed name of an MCP tool', () => {
  it('is the prefix and the server’s name joined by an underscore', () => {
    assert.equal(exposedToolName('mcp', 'lookup_word'), 'mcp_lookup_word');
    assert.equal(exposedToolName('github', 'create-issue'), 'github_create-issue');
  });

  it('replaces the characters providers refuse', () => {
    assert.equal(exposedToolName('files', 'read.file'), 'files_read_file');
    assert.equal(exposedToolName('files', 'lire/fichier été'), 'files_lire_fichier__t_');
  });

  it('always matches what OpenAI and Anthropic accept, whatever the server calls its tool', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,19}$/),
        fc.string({ minLength: 1, maxLength: 200 }),
        (prefix, name) => {
          assert.match(exposedToolName(prefix, name), /^[A-Za-z0-9_-]{1,64}$/);
        },
      ),
    );
  });
});
