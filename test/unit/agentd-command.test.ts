import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repositoryPath } from '../helpers/repository.js';

/**
 * bin/agentd.mjs, the `agentd` command, in a package of its own: a dist/main.js and a src/main.ts that each
 * say which one ran, so what the launcher chose is seen without building anything.
 */
describe('the agentd command (bin/agentd.mjs)', () => {
  let root: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const age = (file: string, secondsAgo: number) => {
    const time = new Date(Date.now() - secondsAgo * 1000);
    fs.utimesSync(path.join(root, file), time, time);
  };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, 'bin', 'agentd.mjs'), ...args], { encoding: 'utf8', timeout: 60_000 });

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-command-'));
    fs.mkdirSync(path.join(root, 'bin'));
    fs.copyFileSync(repositoryPath('bin', 'agentd.mjs'), path.join(root, 'bin', 'agentd.mjs'));
    write('package.json', '{ "type": "module" }\n');
    write('dist/main.js', 'process.stdout.write(`dist ${process.argv.slice(2).join(" ")}`);\n');
    // A type only TypeScript understands: this file runs through tsx or not at all.
    write(
      'src/main.ts',
      'const from: string = "src";\nprocess.stdout.write(`${from} ${process.argv.slice(2).join(" ")}`);\n',
    );
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('runs the build when it is newer than the sources, with the arguments given', () => {
    age('src/main.ts', 60);
    age('dist/main.js', 0);
    const result = run('agents', 'list');
    assert.equal(result.stdout, 'dist agents list', result.stderr);
  });

  it('runs the sources through tsx when the build is older than them, or missing', () => {
    // tsx comes from the repository's packages, as in a clone after `npm install`.
    fs.symlinkSync(repositoryPath('node_modules'), path.join(root, 'node_modules'), 'dir');
    try {
      age('dist/main.js', 60);
      age('src/main.ts', 0);
      assert.equal(run('help').stdout, 'src help', run('help').stderr);
      fs.renameSync(path.join(root, 'dist'), path.join(root, 'dist-aside'));
      try {
        assert.equal(run('help').stdout, 'src help');
      } finally {
        fs.renameSync(path.join(root, 'dist-aside'), path.join(root, 'dist'));
      }
    } finally {
      fs.unlinkSync(path.join(root, 'node_modules'));
    }
  });

  it('without tsx, runs an old build saying so, and with no build at all says what to run', () => {
    age('dist/main.js', 60);
    age('src/main.ts', 0);
    const old = run('help');
    assert.equal(old.stdout, 'dist help');
    assert.match(old.stderr, /dist\/ is older than src\/ and tsx is not installed; running the old build/);
    fs.renameSync(path.join(root, 'dist'), path.join(root, 'dist-aside'));
    try {
      const none = run('help');
      assert.equal(none.status, 1);
      assert.match(none.stderr, /dist\/ is not built and tsx is not installed: run `npm install` or `npm run build`/);
    } finally {
      fs.renameSync(path.join(root, 'dist-aside'), path.join(root, 'dist'));
    }
  });

  it('as an installed package (dist/ and no src/), runs the build', () => {
    fs.renameSync(path.join(root, 'src'), path.join(root, 'src-aside'));
    try {
      age('dist/main.js', 3600);
      assert.equal(run('help').stdout, 'dist help');
    } finally {
      fs.renameSync(path.join(root, 'src-aside'), path.join(root, 'src'));
    }
  });
});

describe('the prepare script (scripts/prepare.mjs)', () => {
  const prepare = (command: string) => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-prepare-'));
    // A package whose build leaves a mark, so whether prepare built is seen.
    fs.writeFileSync(
      path.join(directory, 'package.json'),
      JSON.stringify({
        name: 'prepare-probe',
        private: true,
        scripts: { build: "node -e \"require('fs').writeFileSync('built', '')\"" },
      }),
    );
    try {
      const result = spawnSync(process.execPath, [repositoryPath('scripts', 'prepare.mjs')], {
        cwd: directory,
        env: { ...process.env, npm_command: command },
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { status: result.status, built: fs.existsSync(path.join(directory, 'built')) };
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  };

  it('builds for npm install, npm ci and npm pack', () => {
    for (const command of ['install', 'ci', 'pack'])
      assert.deepEqual(prepare(command), { status: 0, built: true }, command);
  });

  it('does not build when npx links the project to run its bin (npm exec): the command runs the sources', () => {
    assert.deepEqual(prepare('exec'), { status: 0, built: false });
  });
});
