import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the nearest folder above this module holding package.json.
 * This module runs from dist/, from src/ (tsx) and from the compiled copy the
 * tests run (.test-dist/src/), not all at the same depth.
 */
function findPackageRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory;
    if (path.dirname(directory) === directory) return path.join(start, '..');
  }
}

export const packageRoot = findPackageRoot();
