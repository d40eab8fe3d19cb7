import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createAgentdClient } from '../../src/client/index.js';
import { parseCommand, UsageError } from '../../src/cli.js';
import { formatEvalReport, type EvalResult } from '../../src/commands/eval-report.js';
import { missedThresholds, runEvalCommand, type EvalCommand } from '../../src/commands/eval.js';

const base = { agentId: 'agt_1', datasetId: 'eds_1' };

describe('agentd eval: its arguments', () => {
  it('reads the dataset, versions, judge, concurrency, thresholds and --json', () => {
    assert.deepEqual(
      parseCommand([
        'eval',
        'agt_1',
        '--dataset',
        'eds_1',
        '--versions',
        '3,4',
        '--judge',
        'openrouter/meta-llama/llama-3-8b',
        '--concurrency',
        '4',
        '--min',
        'contains=0.9',
        '--min',
        'rubric=0.75',
        '--min-total',
        '1',
        '--json',
      ]),
      {
        name: 'eval',
        ...base,
        versions: [3, 4],
        judge: { provider: 'openrouter', model: 'meta-llama/llama-3-8b' },
        concurrency: 4,
        minimums: [
          { scorer: 'contains', min: 0.9 },
          { scorer: 'rubric', min: 0.75 },
        ],
        minTotal: 1,
        json: true,
      },
    );
    assert.deepEqual(parseCommand(['eval', 'agt_1', '--dataset', 'eds_1']), {
      name: 'eval',
      ...base,
      versions: null,
      judge: null,
      concurrency: null,
      minimums: [],
      minTotal: null,
      json: false,
    });
    assert.deepEqual(parseCommand(['eval', 'agt_1', '--dataset', 'eds_1', '--versions', '7']).name, 'eval');
    assert.deepEqual(parseCommand(['eval', '--help']), { name: 'help' });
  });

  it('refuses what it cannot run, saying what is wrong', () => {
    const refused: Array<[string[], RegExp]> = [
      [['eval', '--dataset', 'eds_1'], /one AGENT_ID/],
      [['eval', 'agt_1', 'agt_2', '--dataset', 'eds_1'], /one AGENT_ID/],
      [['eval', 'agt_1'], /--dataset/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--versions', '3,4,5'], /one or two version numbers/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--versions', '0'], /one or two version numbers/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--versions', 'three'], /one or two version numbers/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--versions', '4,4'], /twice/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--judge', 'gpt-4o'], /PROVIDER\/MODEL/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--judge', 'openai/'], /PROVIDER\/MODEL/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--concurrency', '0'], /1 to 10/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min', 'contains'], /SCORER=0\.\.1/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min', 'vibes=0.5'], /one of contains, notContains/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min', 'contains=1.5'], /from 0 to 1, not "1.5"/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min', 'contains='], /from 0 to 1/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min', 'regex=0.5', '--min', 'regex=0.6'], /given twice/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min-total', '2'], /--min-total takes a number from 0 to 1/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--min-total=-0.1'], /--min-total takes a number from 0 to 1/],
      [['eval', 'agt_1', '--dataset', 'eds_1', '--status', 'x'], /eval: Unknown option '--status'/],
    ];
    for (const [argv, message] of refused) {
      assert.throws(
        () => parseCommand(argv),
        (error: unknown) => error instanceof UsageError && message.test(error.message),
        argv.join(' '),
      );
    }
  });
});

function totalsOf(version: number, passed: number, cases: number, scorers: Array<[string, number, number, number]>) {
  return {
    version,
    cases,
    passed,
    failed: cases - passed,
    errored: 0,
    scorers: scorers.map(([type, count, passedCount, meanScore]) => ({
      type: type as EvalResult['totals'][number]['scorers'][number]['type'],
      count,
      passed: passedCount,
      meanScore,
    })),
  };
}

function scores(failing: string[], passing: string[]) {
  return [
    ...passing.map((type) => ({ type, score: 1, passed: true, reason: 'ok' })),
    ...failing.map((type) => ({ type, score: 0, passed: false, reason: 'no' })),
  ] as EvalResult['cases'][number]['results'][number]['scores'];
}

function caseResult(version: number, passed: boolean, scoreList = scores([], ['contains'])) {
  return {
    version,
    status: 'completed' as const,
    passed,
    replies: ['Hi'],
    text: 'Hi',
    toolCalls: [],
    finishReason: 'stop',
    latencyMs: 12,
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    costUsd: 0,
    runIds: ['run_1'],
    scores: scoreList,
    error: null,
    finishedAt: '2026-01-01T00:00:02.000Z',
  };
}

/** A problem as the API gives it (a failed case's or eval's `error`). */
function problem(detail: string) {
  return {
    type: 'https://agentd.dev/errors/provider_unavailable',
    title: 'Provider unavailable',
    status: 503,
    code: 'provider_unavailable' as const,
    detail,
    requestId: 'req_1',
  };
}

function evalOf(fields: Partial<EvalResult> = {}): EvalResult {
  return {
    id: 'evl_1',
    agentId: 'agt_1',
    datasetId: 'eds_1',
    datasetName: 'Support',
    versions: [3, 4],
    judge: { provider: 'builtin', model: 'echo' },
    concurrency: 2,
    status: 'completed',
    progress: { total: 6, done: 6 },
    totals: [
      totalsOf(3, 1, 3, [
        ['contains', 3, 2, 0.6667],
        ['regex', 2, 1, 0.5],
      ]),
      totalsOf(4, 2, 3, [
        ['contains', 3, 3, 1],
        ['regex', 2, 1, 0.5],
      ]),
    ],
    differing: 1,
    error: null,
    takeovers: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:02.500Z',
    cases: [
      {
        caseId: 'refund',
        position: 1,
        differs: true,
        results: [caseResult(3, false, scores(['contains'], ['regex'])), caseResult(4, true)],
      },
      {
        caseId: 'greeting',
        position: 0,
        differs: false,
        results: [caseResult(3, true), caseResult(4, true)],
      },
      {
        caseId: 'tracking',
        position: 2,
        differs: false,
        results: [caseResult(3, false, scores(['regex'], ['contains'])), caseResult(4, false, scores(['regex'], []))],
      },
    ],
    casesPagination: { limit: 200, hasMore: false, nextCursor: null },
    ...fields,
  } as EvalResult;
}

describe('agentd eval: thresholds', () => {
  const totals = evalOf().totals[1]!;
  it('hold when each scorer type mean and the share of cases passed reach them', () => {
    assert.deepEqual(
      missedThresholds(totals, {
        minimums: [
          { scorer: 'contains', min: 1 },
          { scorer: 'regex', min: 0.5 },
        ],
        minTotal: 2 / 3,
      }),
      [],
    );
    assert.deepEqual(missedThresholds(totals, { minimums: [], minTotal: null }), []);
  });

  it('are missed below them, or when no case has the scorer, each said', () => {
    assert.deepEqual(
      missedThresholds(totals, {
        minimums: [
          { scorer: 'regex', min: 0.51 },
          { scorer: 'rubric', min: 0 },
        ],
        minTotal: 0.7,
      }),
      [
        'regex: mean score 0.5 < 0.51 in version 4',
        'rubric: no case of version 4 was scored by it (--min rubric=0)',
        'total: 2/3 cases passed (0.667) < 0.7 in version 4',
      ],
    );
    // A mean a float sum puts a hair below its exact value still meets it.
    const nearly = totalsOf(1, 9, 10, [['contains', 10, 9, 0.8999999999999999]]);
    assert.deepEqual(missedThresholds(nearly, { minimums: [{ scorer: 'contains', min: 0.9 }], minTotal: 0.9 }), []);
  });
});

describe('agentd eval: the report', () => {
  it('puts the versions side by side per scorer, then the differing cases, then those failed in both', () => {
    assert.equal(
      formatEvalReport(evalOf()),
      [
        'Eval evl_1 on "Support" (eds_1): completed, 6/6 results, 2.5 s',
        '',
        'scorer        v3          v4          difference',
        'contains      2/3  0.667  3/3  1.000  +0.333',
        'regex         1/2  0.500  1/2  0.500  +0.000',
        'cases passed  1/3  0.333  2/3  0.667  +0.333',
        'errored       0           0',
        '',
        '1 case differs between the versions:',
        'case    v3                v4',
        'refund  failed: contains  passed',
        '',
        '1 case failed the same way in both versions:',
        'case      v3             v4',
        'tracking  failed: regex  failed: regex',
        '',
        '1 of 3 cases passed in both versions.',
        '',
      ].join('\n'),
    );
  });

  it('with one version: no difference column, and an errored case says why', () => {
    const failed = {
      ...caseResult(4, false, scores(['contains'], [])),
      status: 'failed' as const,
      error: problem('The provider did not answer.'),
    };
    const report = formatEvalReport(
      evalOf({
        versions: [4],
        totals: [{ ...totalsOf(4, 0, 1, [['contains', 1, 0, 0]]), failed: 0, errored: 1 }],
        progress: { total: 1, done: 1 },
        differing: 0,
        cases: [{ caseId: 'down', position: 0, differs: false, results: [failed] }],
      }),
    );
    assert.match(report, /^scorer {8}v4\ncontains {6}0\/1 {2}0\.000\ncases passed {2}0\/1 {2}0\.000\nerrored {7}1\n/m);
    assert.match(report, /^down {2}error: The provider did not answer\.$/m);
    assert.match(report, /^0 of 1 case passed\.$/m);
  });
});

/** A fake agentd answering the eval operations, recording what it was asked. */
function fakeServer(script: { create: () => Response; polls: EvalResult[] }) {
  const requests: string[] = [];
  let poll = 0;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
    });
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (request.method === 'POST' && url.pathname.endsWith('/evals')) return script.create();
    if (request.method === 'POST' && url.pathname.endsWith('/cancel')) {
      return json(200, { ...script.polls[0], status: 'cancelled' });
    }
    const current = script.polls[Math.min(poll, script.polls.length - 1)]!;
    if (url.searchParams.get('limit') === '1') poll += 1;
    return json(200, current);
  };
  return { requests, fetch, json };
}

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += String(chunk)));
  return { stream, text: () => text };
}

const command: EvalCommand = {
  name: 'eval',
  ...base,
  versions: [3, 4],
  judge: null,
  concurrency: null,
  minimums: [{ scorer: 'contains', min: 1 }],
  minTotal: null,
  json: false,
};
const config = { baseUrl: 'http://agentd.test', apiKey: `agd_${'a'.repeat(40)}` };

describe('agentd eval: following an eval', () => {
  const running = evalOf({ status: 'running', progress: { total: 6, done: 2 }, cases: [] });

  it('polls until the eval ends, prints the report, and exits 0 when the thresholds hold, 1 when one is missed', async () => {
    for (const [minimums, expected] of [
      [[{ scorer: 'contains', min: 1 }], 0],
      [[{ scorer: 'regex', min: 0.6 }], 1],
    ] as const) {
      const server = fakeServer({
        create: () => server.json(202, { ...running, status: 'queued' }),
        polls: [running, evalOf()],
      });
      const stdout = capture();
      const stderr = capture();
      const code = await runEvalCommand(
        createAgentdClient({ ...config, fetch: server.fetch }),
        { ...command, minimums: [...minimums] },
        config,
        { pollIntervalMs: 1, stdout: stdout.stream, stderr: stderr.stream },
      );
      assert.equal(code, expected, stderr.text());
      assert.deepEqual(server.requests, [
        'POST /v1/agents/agt_1/evals',
        'GET /v1/agents/agt_1/evals/evl_1?limit=1',
        'GET /v1/agents/agt_1/evals/evl_1?limit=1',
        'GET /v1/agents/agt_1/evals/evl_1?limit=200',
      ]);
      assert.equal(stdout.text(), formatEvalReport(evalOf()));
      assert.match(stderr.text(), /^running 2\/6\ncompleted 6\/6\n/m);
      if (expected === 1) assert.match(stderr.text(), /threshold missed: regex: mean score 0\.5 < 0\.6 in version 4/);
    }
  });

  it('exits 2 with the problem’s title, detail and fields when the API refuses the eval', async () => {
    const server = fakeServer({
      create: () =>
        server.json(400, {
          type: 'https://agentd.dev/errors/validation_failed',
          title: 'Validation failed',
          status: 400,
          code: 'validation_failed',
          detail: 'The request is not valid.',
          errors: [{ path: '/body/versions/1', code: 'invalid', message: 'is not a version of this agent' }],
        }),
      polls: [],
    });
    const stdout = capture();
    const stderr = capture();
    const code = await runEvalCommand(createAgentdClient({ ...config, fetch: server.fetch }), command, config, {
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    assert.equal(code, 2);
    assert.equal(stdout.text(), '');
    assert.equal(
      stderr.text(),
      'agentd: Validation failed (400):\n  /body/versions/1: is not a version of this agent\n',
    );
  });

  it('exits 2 when the eval ends failed, whatever the thresholds', async () => {
    const failed = evalOf({
      status: 'failed',
      error: problem('Version 3 needs a secret the agent no longer holds.'),
    });
    const server = fakeServer({ create: () => server.json(202, running), polls: [failed] });
    const stderr = capture();
    const code = await runEvalCommand(createAgentdClient({ ...config, fetch: server.fetch }), command, config, {
      stdout: capture().stream,
      stderr: stderr.stream,
    });
    assert.equal(code, 2);
    assert.match(stderr.text(), /eval evl_1 ended failed: Version 3 needs a secret the agent no longer holds\./);
  });

  it('cancels the eval on Ctrl-C before exiting', async () => {
    const server = fakeServer({ create: () => server.json(202, running), polls: [running] });
    const stderr = capture();
    // Interrupted at its first look at the eval, as a person pressing Ctrl-C while it runs.
    stderr.stream.once('data', () => process.emit('SIGINT'));
    const code = await runEvalCommand(createAgentdClient({ ...config, fetch: server.fetch }), command, config, {
      pollIntervalMs: 60_000,
      stdout: capture().stream,
      stderr: stderr.stream,
    });
    assert.equal(code, 130);
    assert.equal(server.requests.at(-1), 'POST /v1/agents/agt_1/evals/evl_1/cancel');
    assert.match(stderr.text(), /Interrupted: eval evl_1 cancelled/);
    assert.equal(process.listenerCount('SIGINT'), 0);
  });
});
