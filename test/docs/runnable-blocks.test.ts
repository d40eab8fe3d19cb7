/**
 * Runnable examples in the documentation (the same rules are in docs/writing-docs.md):
 *
 * - A fenced block whose info string is exactly `sh runnable`, in README.md or any page under docs/, is run by
 *   this test; any other block (`sh`, `json`, …) is only shown.
 * - The runnable blocks of one page run in order in one bash session (`set -eo pipefail`), so a variable set by
 *   one block (`AGENT=$(curl … | node -pe …)`) is seen by the next. Each page gets its own fresh agentd (the
 *   builtin model, an empty data directory, no provider), started from the build (`npm run build`).
 * - The session has `AGENTD_URL` and `AGENTD_API_KEY` (a key with every scope), `AGENTD_DATA_DIR` (the server's,
 *   for `agentd accounts create` and `keys create`), `PATH`, `curl`, `node` and `agentd` (also as `npx agentd`:
 *   the repository's own command), and runs in an empty temporary directory. Nothing else: no `jq` (parse JSON
 *   with `node -pe`), no network beyond loopback.
 * - Every command must end with exit status 0 (use `curl -sf` so an HTTP error fails the block).
 * - A line `# → {json}` checks what the commands above it printed, back to the previous `# →` line or the
 *   block's start: their standard output (all of it, or else its last line) must be JSON holding every key of
 *   `{json}`. A value of null means "present, any value"; an object is checked by these same rules; an array
 *   must have as many items, each matching; any other value must be equal.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../../src/package-root.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { markdownFilesUnder } from './markdown.js';
import { mismatch, runnableSegments, runSegments, type RunnableFailure, type Segment } from './runnable.js';

const bootstrapKey = `agd_${'runnableDocs'.repeat(4)}`;

/** A fresh agentd and a session for one page's blocks: the page's failures, as `file:line message`. */
async function runPage(file: string, segments: Segment[]): Promise<string[]> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-runnable-'));
  let server: ServerProcess | null = null;
  try {
    const dataDir = path.join(directory, 'data');
    const work = path.join(directory, 'work');
    const commands = path.join(directory, 'bin');
    fs.mkdirSync(work);
    fs.mkdirSync(commands);
    // `agentd` as installed from this repository: its launcher, which runs the build.
    fs.writeFileSync(
      path.join(commands, 'agentd'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(packageRoot, 'bin', 'agentd.mjs'))} "$@"\n`,
      { mode: 0o755 },
    );
    server = await startServer({
      AGENTD_DATA_DIR: dataDir,
      AGENTD_BOOTSTRAP_KEY: bootstrapKey,
      AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    });
    const failures: RunnableFailure[] = await runSegments(segments, {
      env: {
        PATH: `${commands}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
        HOME: work,
        AGENTD_URL: server.url,
        AGENTD_API_KEY: bootstrapKey,
        // The administration commands (`agentd accounts create`, `keys create`) open the server's database.
        AGENTD_DATA_DIR: dataDir,
      },
      cwd: work,
      timeoutMs: 120_000,
    });
    return failures.map((failure) => `${path.relative(packageRoot, file)}:${failure.line} ${failure.message}`);
  } finally {
    await server?.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

const pages = [path.join(packageRoot, 'README.md'), ...markdownFilesUnder(path.join(packageRoot, 'docs'))]
  .filter((file) => fs.existsSync(file))
  .map((file) => ({ file, segments: runnableSegments(fs.readFileSync(file, 'utf8')) }))
  .filter((page) => page.segments.length > 0);

// Pages run two at a time: each waits mostly on its own server and shell.
describe('the runnable blocks of the documentation', { concurrency: 2 }, () => {
  it('use no jq (not every machine has it)', () => {
    const users = pages.filter((page) => page.segments.some((segment) => /(^|[|;&$(\s])jq\s/m.test(segment.code)));
    assert.deepEqual(
      users.map((page) => path.relative(packageRoot, page.file)),
      [],
    );
  });

  for (const page of pages) {
    it(`${path.relative(packageRoot, page.file)}: every block runs and prints what its # → lines say`, async () => {
      assert.deepEqual(await runPage(page.file, page.segments), []);
    });
  }
});

describe('the runner of runnable blocks', () => {
  const fixture = (name: string) => path.join(packageRoot, 'test', 'fixtures', 'runnable-docs', name);

  it('splits a page into runnable segments at its # → lines, leaving other blocks out', () => {
    const segments = runnableSegments(fs.readFileSync(fixture('failing.md'), 'utf8'));
    assert.deepEqual(
      segments.map((segment) => [segment.line, segment.expectation?.line ?? null, segment.expectation?.json ?? null]),
      [
        [4, 5, { status: 'inactive' }],
        [6, 7, { id: null }],
        [8, 9, { id: null }],
        [13, 14, null],
        [15, null, null],
        [20, 21, { never: 'checked' }],
      ],
    );
    assert.match(segments[3]!.expectation!.invalid ?? '', /JSON/);
  });

  it('matches output as the marker rules say', () => {
    const output = { id: 'agt_1', name: 'Ava', model: { provider: 'builtin', name: 'echo' }, tags: ['a', 'b'] };
    assert.equal(mismatch(output, { id: null, model: { provider: 'builtin' }, tags: ['a', 'b'] }), null);
    assert.equal(mismatch(output, { name: 'Bob' }), '$.name is "Ava", not "Bob"');
    assert.equal(mismatch(output, { status: null }), '$.status is missing');
    assert.equal(mismatch(output, { model: { name: 'other' } }), '$.model.name is "echo", not "other"');
    assert.equal(mismatch(output, { tags: ['a'] }), '$.tags has 2 items, not 1');
    assert.equal(mismatch({ value: null }, { value: null }), null, 'null means present, whatever its value');
  });

  it('passes a right page: variables carry from block to block, npx agentd is the repository’s command', async () => {
    const segments = runnableSegments(fs.readFileSync(fixture('passing.md'), 'utf8'));
    assert.deepEqual(await runPage(fixture('passing.md'), segments), []);
  });

  it('fails a wrong page, naming each line: an output that differs, a failing command and where it stopped', async () => {
    const segments = runnableSegments(fs.readFileSync(fixture('failing.md'), 'utf8'));
    const failures = await runPage(fixture('failing.md'), segments);
    const where = 'test/fixtures/runnable-docs/failing.md';
    const expected = [
      `${where}:5 $.status is "active", not "inactive" in the output above`,
      `${where}:7 $.id is missing in the output above`,
      `${where}:9 the output above is not JSON: not json`,
      `${where}:14 the # → line is not JSON`,
      `${where}:15 the commands from line 15 ended with exit status 1`,
    ];
    assert.deepEqual(
      failures.map((failure, index) => failure.slice(0, expected[index]?.length)),
      expected,
      failures.join('\n'),
    );
  });
});
