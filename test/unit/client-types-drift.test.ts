import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { clientTypesFile, generateClientTypes } from '../../scripts/client-types.js';

test('the committed client types are what the current route schemas generate (run `npm run client:types`)', async () => {
  const committed = fs.readFileSync(clientTypesFile, 'utf8');
  const fresh = await generateClientTypes();
  assert.ok(
    committed === fresh,
    'src/client/openapi.d.ts differs from a fresh generation: run `npm run client:types` and commit the result',
  );
});
