import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { generateDocs } from './docs-reference.js';

/** `npm run docs:generate`: rewrites docs/configuration.md and docs/scopes.md from the code. */
for (const { file, text } of await generateDocs()) {
  fs.writeFileSync(file, text);
  process.stdout.write(`wrote ${path.relative(packageRoot, file)}\n`);
}
