import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { maxCompiledSchemas, ToolInputValidators } from '../../src/conversation/tool-input-validators.js';
import type { Tool } from '../../src/plugins/plugin.js';

const logger = pino({ level: 'silent' });

function calculateTool(required = 'expression'): Tool {
  return {
    name: 'calculate',
    description: 'adds',
    inputSchema: { type: 'object', properties: { [required]: { type: 'string' } }, required: [required] },
    execute: async () => null,
  } as unknown as Tool;
}

test('equal schemas of tools opened again for each agent compile once, and still check input', () => {
  const validators = new ToolInputValidators();
  for (let agent = 0; agent < 1000; agent += 1) {
    const validate = validators.validatorOf(calculateTool(), logger);
    assert.ok(validate);
    assert.equal(validate({ expression: '2+2' }), true);
    assert.equal(validate({}), false);
  }
  assert.equal(validators.compiledCount, 1);
});

test('distinct schemas never keep more than the bound compiled', () => {
  const validators = new ToolInputValidators();
  for (let index = 0; index < maxCompiledSchemas * 3; index += 1) {
    const validate = validators.validatorOf(calculateTool(`field${index}`), logger);
    assert.equal(validate!({ [`field${index}`]: 'x' }), true);
    assert.ok(validators.compiledCount <= maxCompiledSchemas);
  }
});
