import fs from 'node:fs';
import { clientTypesFile, generateClientTypes } from './client-types.js';

/** `npm run client:types`: rewrites src/client/openapi.d.ts from the server's current OpenAPI document. */
fs.writeFileSync(clientTypesFile, await generateClientTypes());
process.stdout.write(`wrote ${clientTypesFile}\n`);
