/**
 * What each run engine adds to an install: every library installed alone into an empty folder with npm (on the
 * Node that runs this script), the version npm resolved there, the packages it brought (its own included),
 * the size of node_modules, and what the newest published version requires of Node.
 *
 *   node --import tsx bench/run-engines/footprint.ts
 *
 * npm picks the newest version whose `engines` this Node satisfies, so on Node 20 the resolved version can
 * be older than the newest one: both are printed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machineLine } from './engines.js';

const libraries = ['@dbos-inc/dbos-sdk', 'pg-boss', 'graphile-worker', 'pg'];
const agentdModules = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../node_modules');

function directorySize(directory: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) total += directorySize(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

const npm = (directory: string, ...args: string[]) =>
  execFileSync('npm', args, { cwd: directory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

console.log(`# install footprint — ${machineLine()}, npm ${npm(os.tmpdir(), '--version').trim()}`);
for (const library of libraries) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'run-engines-footprint-'));
  try {
    fs.writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ name: 'footprint', private: true }));
    npm(directory, 'install', '--no-audit', '--no-fund', '--loglevel=error', library);
    const installed = JSON.parse(
      fs.readFileSync(path.join(directory, 'node_modules', library, 'package.json'), 'utf8'),
    ) as { version: string; engines?: { node?: string } };
    const paths = npm(directory, 'ls', '--all', '--parseable')
      .trim()
      .split('\n')
      .slice(1) // the folder itself
      .filter((line, index, all) => all.indexOf(line) === index);
    const packages = paths.length;
    // Those agentd does not already install (same name and version in its own node_modules).
    const added = paths.filter((packagePath) => {
      const name = packagePath.slice(packagePath.lastIndexOf('node_modules/') + 'node_modules/'.length);
      const ours = path.join(agentdModules, name, 'package.json');
      if (!fs.existsSync(ours)) return true;
      const version = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
      return version(ours) !== version(path.join(packagePath, 'package.json'));
    }).length;
    const megabytes = directorySize(path.join(directory, 'node_modules')) / 1024 / 1024;
    const latest = JSON.parse(npm(directory, 'view', library, 'version', 'engines', '--json')) as {
      version: string;
      engines?: { node?: string };
    };
    console.log(
      `${library.padEnd(20)} resolved ${installed.version.padEnd(8)} (node ${installed.engines?.node ?? 'any'})  ` +
        `${String(packages).padStart(3)} packages (${String(added).padStart(2)} not in agentd's)  ${megabytes.toFixed(1).padStart(5)} MB  ` +
        `newest ${latest.version} needs node ${latest.engines?.node ?? 'any'}`,
    );
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}
