import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { repositoryPath } from '../helpers/repository.js';
import { serverNodeFlags } from '../helpers/server-process.js';

const packageJson = JSON.parse(fs.readFileSync(repositoryPath('package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const dockerfile = fs.readFileSync(repositoryPath('Dockerfile'), 'utf8');

describe('the Node.js flags the server runs with', () => {
  it('are the same in `npm start`, the container image and the processes tests and benchmarks start', () => {
    assert.equal(packageJson.scripts.start, `node ${serverNodeFlags.join(' ')} dist/main.js serve`);
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    assert.deepEqual(JSON.parse(command ?? '[]'), ['node', ...serverNodeFlags, 'dist/main.js', 'serve']);
  });
});
