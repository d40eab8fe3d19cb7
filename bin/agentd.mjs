#!/usr/bin/env node
// The `agentd` command (package.json "bin"). It runs the build, dist/main.js,
// when that is at least as new as the sources, and otherwise the sources
// themselves through tsx, so a clone answers `npx agentd …` before (or
// without) `npm run build` and never runs code older than what it holds.
// An installed package carries dist/ and no src/: it always runs dist/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'main.js');
const sources = path.join(root, 'src');

/** The newest modification time of a file under `directory`, 0 when there is none. */
function newestModification(directory) {
  let newest = 0;
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestModification(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Why dist/ cannot be run as it is (missing, or older than src/), or null when it can. */
function whyNotBuilt() {
  if (!fs.existsSync(built)) return 'dist/ is not built';
  if (!fs.existsSync(sources)) return null;
  // tsc rewrites every file it emits, so dist/main.js is as new as the last build.
  return fs.statSync(built).mtimeMs < newestModification(sources) ? 'dist/ is older than src/' : null;
}

const reason = whyNotBuilt();
if (reason === null) {
  await import(pathToFileURL(built).href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    // Installed without the development packages: an older build still beats none.
    if (fs.existsSync(built)) {
      process.stderr.write(`agentd: ${reason} and tsx is not installed; running the old build\n`);
      await import(pathToFileURL(built).href);
    } else {
      process.stderr.write(`agentd: ${reason} and tsx is not installed: run \`npm install\` or \`npm run build\`\n`);
      process.exit(1);
    }
  }
  if (register) {
    register();
    await import(pathToFileURL(path.join(sources, 'main.ts')).href);
  }
}
