import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../../src/package-root.js';
import { brokenLinks, githubSlug, headingAnchors, markdownFilesUnder, markdownLinks } from './markdown.js';

/** The pages whose relative links must lead somewhere: the front door, its neighbours and every page under docs/ and bench/. */
function documentationFiles(root: string): string[] {
  return [
    ...['README.md', 'SECURITY.md', 'CHANGELOG.md'].map((name) => path.join(root, name)).filter(fs.existsSync),
    ...markdownFilesUnder(path.join(root, 'docs')),
    ...markdownFilesUnder(path.join(root, 'bench')),
  ];
}

function anchorsCache(): (file: string) => Set<string> {
  const cache = new Map<string, Set<string>>();
  return (file) => {
    if (!cache.has(file)) cache.set(file, headingAnchors(fs.readFileSync(file, 'utf8')));
    return cache.get(file)!;
  };
}

describe('links in the documentation', () => {
  it('every relative link leads to a file that exists and, with #anchor, to a heading of that page', () => {
    const anchorsOf = anchorsCache();
    const broken = documentationFiles(packageRoot).flatMap((file) => brokenLinks(file, anchorsOf));
    assert.deepEqual(
      broken.map(
        ({ file, line, target, reason }) => `${path.relative(packageRoot, file)}:${line} ${target} (${reason})`,
      ),
      [],
    );
  });

  it('anchors are made as GitHub makes them', () => {
    assert.equal(githubSlug('Models and providers'), 'models-and-providers');
    assert.equal(githubSlug('`AGENTD_RATE_LIMITS`: per-minute limits'), 'agentd_rate_limits-per-minute-limits');
    assert.equal(githubSlug('What’s new? (0.1.0)'), 'whats-new-010');
    assert.equal(githubSlug('[Tasks](docs/tasks.md) & *schedules*'), 'tasks--schedules');
    const anchors = headingAnchors(
      '# Title\n\n## Usage\n\n```sh\n# not a heading\n```\n\n## Usage\n\nSetext\n------\n',
    );
    assert.deepEqual([...anchors], ['title', 'usage', 'usage-1', 'setext']);
  });

  it('finds links outside code and reports the ones that lead nowhere', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-links-'));
    try {
      fs.writeFileSync(path.join(directory, 'other.md'), '# Other page\n\n## A part\n');
      const page = path.join(directory, 'page.md');
      fs.writeFileSync(
        page,
        [
          '# Page',
          '[fine](other.md#a-part) and [external](https://example.com/x.md) and `[not a link](nowhere.md)`',
          '[missing](gone.md) ![picture](other.md "title") [bad anchor](other.md#no-part) [here](#page)',
          '```md',
          '[in a code block](nowhere.md)',
          '```',
          '[ref]: ./other.md',
          '<a href="missing-too.md">html</a>',
        ].join('\n'),
      );
      assert.deepEqual(
        markdownLinks(fs.readFileSync(page, 'utf8')).map((link) => link.target),
        [
          'other.md#a-part',
          'https://example.com/x.md',
          'gone.md',
          'other.md',
          'other.md#no-part',
          '#page',
          './other.md',
          'missing-too.md',
        ],
      );
      assert.deepEqual(
        brokenLinks(page, anchorsCache()).map(({ line, target, reason }) => `${line} ${target} ${reason}`),
        ['3 gone.md no such file', '3 other.md#no-part no such heading', '8 missing-too.md no such file'],
      );
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
