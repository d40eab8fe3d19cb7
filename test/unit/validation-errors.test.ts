import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Ajv, type ValidateFunction } from 'ajv';
import { CreateAgentBody, UpdateAgentBody } from '../../src/schemas/agents.js';
import { fieldErrorsFrom } from '../../src/http/validation-errors.js';
import { valueProblems } from '../../src/validation-wording.js';
import { httpPluginConfigSchema } from '../../src/plugins/http/config.js';

// As the server makes its validators: verbose, so an error carries its schema.
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
const validateCreate = ajv.compile(CreateAgentBody);
const validateUpdate = ajv.compile(UpdateAgentBody);

function problems(validate: ValidateFunction, body: unknown) {
  assert.equal(validate(body), false);
  return fieldErrorsFrom(validate.errors ?? [], 'body');
}

describe('validation errors as JSON pointers', () => {
  it('names unknown and read-only fields by their own pointer', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', updatedAt: 'now', color: 'red' }), [
      { path: '/body/updatedAt', code: 'read_only', message: 'is read-only' },
      { path: '/body/color', code: 'unknown_property', message: 'is not a known field' },
    ]);
  });

  it('points at the missing property', () => {
    assert.deepEqual(problems(validateCreate, { bio: 'x' }), [
      { path: '/body/name', code: 'required', message: 'is required' },
    ]);
  });

  it('reports a union as the types it accepts, in words', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', bio: 5 }), [
      { path: '/body/bio', code: 'type', message: 'must be a string or a list' },
    ]);
    assert.deepEqual(problems(validateUpdate, { system: 5 }), [
      { path: '/body/system', code: 'type', message: 'must be a string or null' },
    ]);
  });

  it('reports the problem inside the union branch the value was meant for', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', knowledge: [{ title: 't', content: '' }] }), [
      { path: '/body/knowledge/0/content', code: 'too_short', message: 'must not be empty' },
    ]);
    assert.deepEqual(problems(validateUpdate, { personality: { tone: 5 } }), [
      { path: '/body/personality/tone', code: 'type', message: 'must be a string or null' },
    ]);
  });

  it('lists the allowed values of an enum', () => {
    assert.deepEqual(problems(validateUpdate, { status: 'error' }), [
      { path: '/body/status', code: 'enum', message: 'must be one of: active, inactive' },
    ]);
  });

  it('escapes pointer segments', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', 'a/b~c': 1 }), [
      { path: '/body/a~1b~0c', code: 'unknown_property', message: 'is not a known field' },
    ]);
  });

  it('tells a key of a map that is not in the form its keys take', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', plugins: [{ name: 'http', secrets: { '1 bad': 'v' } }] }), [
      {
        path: '/body/plugins/0/secrets/1 bad',
        code: 'invalid_key',
        message:
          'is not an accepted key: it must be a name of up to 100 letters, digits, "_", "." or "-", starting with a letter',
      },
    ]);
  });

  it('says an empty name is empty once, and a blank one is blank', () => {
    assert.deepEqual(problems(validateCreate, { name: '' }), [
      { path: '/body/name', code: 'too_short', message: 'must not be empty' },
    ]);
    assert.deepEqual(problems(validateCreate, { name: '   ' }), [
      { path: '/body/name', code: 'pattern', message: 'must not be blank' },
    ]);
  });

  it('names limits, types and ids in words, never a raw pattern', () => {
    const found = problems(validateCreate, {
      name: 'x'.repeat(101),
      knowledgeBases: ['kb_1'],
      model: { provider: 'Open AI', name: 'm', temperature: 3, maxSteps: 2.5, maxOutputTokens: 0 },
      metadata: { '': 'x' },
      deletionProtection: 'yes',
    });
    assert.deepEqual(found, [
      { path: '/body/name', code: 'too_long', message: 'must be at most 100 characters long' },
      { path: '/body/knowledgeBases/0', code: 'invalid_id', message: 'is not a knowledge base id' },
      {
        path: '/body/model/provider',
        code: 'pattern',
        message: 'must be a name of up to 50 lowercase letters, digits or "-", starting with a letter',
      },
      { path: '/body/model/temperature', code: 'too_large', message: 'must be at most 2' },
      { path: '/body/model/maxOutputTokens', code: 'too_small', message: 'must be at least 1' },
      { path: '/body/model/maxSteps', code: 'type', message: 'must be a whole number' },
      { path: '/body/deletionProtection', code: 'type', message: 'must be true or false' },
      { path: '/body/metadata', code: 'invalid_key', message: 'has an invalid key ""' },
    ]);
  });
});

describe('TypeBox problems (plugin configs, platform settings) in the same words', () => {
  const wordsOf = (schema: Parameters<typeof Value.Errors>[0], value: unknown) =>
    valueProblems(Value.Errors(schema, value), 20);

  it('names a plugin pattern, a limit and an unknown field', () => {
    const config = { timeoutMs: 0, maxResponseBytes: 1024, allowedHosts: ['not a host!'], color: 1 };
    assert.deepEqual(wordsOf(httpPluginConfigSchema, config), [
      { path: '/color', code: 'unknown_property', message: 'is not a known field' },
      { path: '/allowedHosts/0', code: 'pattern', message: 'must be a host name, or *. and a domain' },
      { path: '/timeoutMs', code: 'too_small', message: 'must be at least 1000' },
    ]);
  });

  it('names a union of literals as its values, and a missing property once', () => {
    const schema = Type.Object({ mode: Type.Union([Type.Literal('a'), Type.Literal('b')]), url: Type.String() });
    assert.deepEqual(wordsOf(schema, { mode: 'c' }), [
      { path: '/url', code: 'required', message: 'is required' },
      { path: '/mode', code: 'enum', message: 'must be one of: a, b' },
    ]);
  });
});
