import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { CreateAgentBody, UpdateAgentBody } from '../../src/schemas/agents.js';
import { fieldErrorsFrom } from '../../src/http/validation-errors.js';

const ajv = new Ajv({ allErrors: true, strict: false });
const validateCreate = ajv.compile(CreateAgentBody);
const validateUpdate = ajv.compile(UpdateAgentBody);

function problems(validate: ValidateFunction, body: unknown) {
  assert.equal(validate(body), false);
  return fieldErrorsFrom(validate.errors ?? [], 'body');
}

describe('validation errors as JSON pointers', () => {
  it('names unknown and read-only fields by their own pointer', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', updatedAt: 'now', color: 'red' }), [
      { path: '/body/updatedAt', message: 'is read-only' },
      { path: '/body/color', message: 'is not a known field' },
    ]);
  });

  it('points at the missing property', () => {
    assert.deepEqual(problems(validateCreate, { bio: 'x' }), [{ path: '/body/name', message: 'is required' }]);
  });

  it('reports a union as the types it accepts', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', bio: 5 }), [
      { path: '/body/bio', message: 'must be string or array' },
    ]);
    assert.deepEqual(problems(validateUpdate, { system: 5 }), [
      { path: '/body/system', message: 'must be string or null' },
    ]);
  });

  it('reports the problem inside the union branch the value was meant for', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', knowledge: [{ title: 't', content: '' }] }), [
      { path: '/body/knowledge/0/content', message: 'must NOT have fewer than 1 characters' },
    ]);
    assert.deepEqual(problems(validateUpdate, { personality: { tone: 5 } }), [
      { path: '/body/personality/tone', message: 'must be string or null' },
    ]);
  });

  it('lists the allowed values of an enum', () => {
    assert.deepEqual(problems(validateUpdate, { status: 'error' }), [
      { path: '/body/status', message: 'must be one of: active, inactive' },
    ]);
  });

  it('escapes pointer segments', () => {
    assert.deepEqual(problems(validateCreate, { name: 'x', 'a/b~c': 1 }), [
      { path: '/body/a~1b~0c', message: 'is not a known field' },
    ]);
  });
});
