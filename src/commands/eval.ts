import { parseArgs } from 'node:util';
import type { AgentdClient, operations } from '../client/index.js';
import { UsageError } from '../cli.js';
import type { RemoteConfig } from '../config.js';
import { scorerTypes, type ScorerType } from '../schemas/evals.js';
import { formatEvalReport, type EvalResult } from './eval-report.js';

/**
 * `agentd eval AGENT_ID --dataset DATASET_ID …`: starts an eval (docs/evals.md), follows it to its end and
 * prints how each version did; the exit status says whether the thresholds held, so a CI job can gate on it.
 */
export interface EvalCommand {
  name: 'eval';
  agentId: string;
  datasetId: string;
  versions: number[] | null;
  judge: { provider: string; model: string } | null;
  concurrency: number | null;
  /** `--min scorer=value`: the least mean score of that scorer type. */
  minimums: Array<{ scorer: ScorerType; min: number }>;
  /** `--min-total value`: the least share of cases that passed every scorer. */
  minTotal: number | null;
  json: boolean;
}

/** The exit statuses: thresholds held, one missed, wrong usage or a failure of the API, stopped by Ctrl-C. */
export const evalExitCodes = { held: 0, missed: 1, failure: 2, interrupted: 130 } as const;

function share(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError(`${flag} takes a number from 0 to 1, not "${text}"`);
  }
  return value;
}

/** Parses the words after `eval`. Its flags are its own, so they are read here rather than with the others. */
export function parseEvalCommand(argv: string[]): EvalCommand | { name: 'help' } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        dataset: { type: 'string' },
        versions: { type: 'string' },
        judge: { type: 'string' },
        concurrency: { type: 'string' },
        min: { type: 'string', multiple: true },
        'min-total': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`eval: ${(error as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: 'help' };
  if (positionals.length !== 1) throw new UsageError('eval needs one AGENT_ID');
  if (!values.dataset) throw new UsageError('eval needs --dataset DATASET_ID');

  let versions: number[] | null = null;
  if (values.versions !== undefined) {
    const words = values.versions.split(',').map((word) => word.trim());
    if (words.length > 2 || words.some((word) => !/^[1-9][0-9]{0,9}$/.test(word))) {
      throw new UsageError('--versions takes one or two version numbers, e.g. 3,4');
    }
    versions = words.map(Number);
    if (versions.length === 2 && versions[0] === versions[1])
      throw new UsageError('--versions names one version twice');
  }

  let judge: EvalCommand['judge'] = null;
  if (values.judge !== undefined) {
    // Model names may hold slashes themselves (openrouter's "meta-llama/…"): the provider is the first part.
    const slash = values.judge.indexOf('/');
    if (slash <= 0 || slash === values.judge.length - 1) {
      throw new UsageError('--judge takes PROVIDER/MODEL, e.g. openai/gpt-4o-mini');
    }
    judge = { provider: values.judge.slice(0, slash), model: values.judge.slice(slash + 1) };
  }

  let concurrency: number | null = null;
  if (values.concurrency !== undefined) {
    if (!/^[0-9]{1,2}$/.test(values.concurrency) || Number(values.concurrency) < 1) {
      throw new UsageError('--concurrency takes a number of cases from 1 to 10');
    }
    concurrency = Number(values.concurrency);
  }

  const minimums: EvalCommand['minimums'] = [];
  for (const given of values.min ?? []) {
    const equals = given.indexOf('=');
    const scorer = equals > 0 ? given.slice(0, equals) : '';
    if (!(scorerTypes as readonly string[]).includes(scorer)) {
      throw new UsageError(`--min takes SCORER=0..1 with SCORER one of ${scorerTypes.join(', ')}, not "${given}"`);
    }
    if (minimums.some((minimum) => minimum.scorer === scorer)) throw new UsageError(`--min ${scorer} is given twice`);
    minimums.push({ scorer: scorer as ScorerType, min: share(`--min ${scorer}`, given.slice(equals + 1)) });
  }

  return {
    name: 'eval',
    agentId: positionals[0] as string,
    datasetId: values.dataset,
    versions,
    judge,
    concurrency,
    minimums,
    minTotal: values['min-total'] !== undefined ? share('--min-total', values['min-total']) : null,
    json: values.json ?? false,
  };
}

type VersionTotals = EvalResult['totals'][number];

/** Floating-point sums (a mean of 0.9 computed as 0.8999…) do not miss a threshold they meet. */
const tolerance = 1e-9;

/**
 * The thresholds the version's totals miss, each said in words (none: they all hold). A scorer no case of the
 * dataset has (no scores given) misses its threshold: nothing shows that it holds.
 */
export function missedThresholds(
  totals: VersionTotals,
  thresholds: Pick<EvalCommand, 'minimums' | 'minTotal'>,
): string[] {
  const missed: string[] = [];
  for (const { scorer, min } of thresholds.minimums) {
    const total = totals.scorers.find((candidate) => candidate.type === scorer);
    if (!total || total.count === 0) {
      missed.push(`${scorer}: no case of version ${totals.version} was scored by it (--min ${scorer}=${min})`);
    } else if (total.meanScore + tolerance < min) {
      missed.push(`${scorer}: mean score ${round(total.meanScore)} < ${min} in version ${totals.version}`);
    }
  }
  if (thresholds.minTotal !== null) {
    const passed = totals.cases === 0 ? 0 : totals.passed / totals.cases;
    if (passed + tolerance < thresholds.minTotal) {
      missed.push(
        `total: ${totals.passed}/${totals.cases} cases passed (${round(passed)}) < ${thresholds.minTotal} in version ${totals.version}`,
      );
    }
  }
  return missed;
}

function round(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

type Problem = { title?: string; detail?: string; status?: number; errors?: Array<{ path: string; message: string }> };

/** A request the API refused, with the problem it answered. */
class EvalApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | null,
  ) {
    super(problem?.detail ?? `HTTP ${status}`);
  }

  describe(): string {
    const { problem } = this;
    if (!problem?.title) return this.message;
    // The detail of a refused request repeats its fields' problems: each is said once, at its place.
    const fields = (problem.errors ?? []).map((error) => `\n  ${error.path}: ${error.message}`);
    return `${problem.title} (${this.status}):${fields.length > 0 ? fields.join('') : ` ${problem.detail ?? ''}`}`;
  }
}

function unwrap<Data>(result: { data?: Data; error?: unknown; response: Response }): Data {
  if (result.response.ok && result.data !== undefined) return result.data;
  const problem = typeof result.error === 'object' && result.error !== null ? (result.error as Problem) : null;
  throw new EvalApiError(result.response.status, problem);
}

type CreateEvalBody = operations['createEval']['requestBody']['content']['application/json'];

export interface EvalRunOptions {
  /** How long to wait between two looks at the eval (1 s). */
  pollIntervalMs?: number;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Runs the command to its end and answers its exit status; only an error nobody expected is thrown. */
export async function runEvalCommand(
  client: AgentdClient,
  command: EvalCommand,
  config: RemoteConfig,
  { pollIntervalMs = 1000, stdout = process.stdout, stderr = process.stderr }: EvalRunOptions = {},
): Promise<number> {
  const say = (line: string) => stderr.write(`${line}\n`);
  const path = { agentId: command.agentId };
  const interrupted = new AbortController();
  const onInterrupt = () => {
    // A second Ctrl-C does not wait for the cancel to be answered.
    if (interrupted.signal.aborted) process.exit(evalExitCodes.interrupted);
    interrupted.abort();
  };
  process.on('SIGINT', onInterrupt);
  let evalId: string | null = null;
  try {
    const body: CreateEvalBody = {
      datasetId: command.datasetId,
      ...(command.versions ? { versions: command.versions } : {}),
      ...(command.judge ? { judge: command.judge } : {}),
      ...(command.concurrency !== null ? { concurrency: command.concurrency } : {}),
    };
    // Not aborted by Ctrl-C: an eval the server created must be known to be cancelled.
    const started = unwrap(await client.api.POST('/v1/agents/{agentId}/evals', { params: { path }, body }));
    evalId = started.id;
    say(`Eval ${evalId} of ${command.agentId} on "${started.datasetName}": versions ${started.versions.join(', ')}`);

    const followed = await follow(
      client,
      { ...path, evalId },
      { pollIntervalMs, interrupted: interrupted.signal, stderr },
    );
    if (followed === null) {
      const cancelled = await client.api.POST('/v1/agents/{agentId}/evals/{evalId}/cancel', {
        params: { path: { ...path, evalId } },
      });
      say(
        cancelled.response.ok
          ? `Interrupted: eval ${evalId} cancelled (the results so far stay).`
          : `Interrupted; eval ${evalId} was not cancelled: ${new EvalApiError(cancelled.response.status, cancelled.error as Problem).describe()}`,
      );
      return evalExitCodes.interrupted;
    }

    const result = await readWhole(client, { ...path, evalId });
    stdout.write(command.json ? `${JSON.stringify(result, null, 2)}\n` : formatEvalReport(result));
    if (result.status !== 'completed') {
      const why = result.error ? `: ${String((result.error as Problem).detail ?? '')}` : '';
      say(`agentd: eval ${evalId} ended ${result.status}${why}`);
      return evalExitCodes.failure;
    }
    const judged = result.totals.at(-1);
    const missed = judged ? missedThresholds(judged, command) : [];
    for (const line of missed) say(`agentd: threshold missed: ${line}`);
    return missed.length > 0 ? evalExitCodes.missed : evalExitCodes.held;
  } catch (error) {
    if (error instanceof EvalApiError) {
      say(`agentd: ${error.describe()}`);
      return evalExitCodes.failure;
    }
    // fetch fails with "fetch failed" and keeps the reason (ECONNREFUSED…) in `cause`.
    if (error instanceof TypeError && error.cause instanceof Error) {
      const reason = (error.cause as Error & { code?: string }).code ?? error.cause.message;
      say(`agentd: cannot reach agentd at ${config.baseUrl} (${reason}); is it running? (AGENTD_URL)`);
      if (evalId !== null) say(`agentd: eval ${evalId} may still be running`);
      return evalExitCodes.failure;
    }
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** Looks at the eval every interval until it ends (its status), or null once interrupted. */
async function follow(
  client: AgentdClient,
  path: { agentId: string; evalId: string },
  options: { pollIntervalMs: number; interrupted: AbortSignal; stderr: NodeJS.WritableStream & { isTTY?: boolean } },
): Promise<string | null> {
  const { interrupted, stderr } = options;
  let shown = '';
  for (;;) {
    if (interrupted.aborted) break;
    // One case per look: only the status and progress are read while it runs.
    const result = await client.api
      .GET('/v1/agents/{agentId}/evals/{evalId}', {
        params: { path, query: { limit: 1 } },
        signal: interrupted,
      })
      .catch((error: unknown) => {
        if (interrupted.aborted) return null;
        throw error;
      });
    if (result === null) break;
    const current = unwrap(result);
    const { done, total } = current.progress;
    const line = `${current.status} ${done}/${total}`;
    // On a terminal one line is redrawn; in a log (CI) a line is written when the progress changes.
    if (stderr.isTTY) stderr.write(`\r${line}\u001b[K`);
    else if (line !== shown) stderr.write(`${line}\n`);
    shown = line;
    if (current.status !== 'queued' && current.status !== 'running') {
      if (stderr.isTTY) stderr.write('\n');
      return current.status;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, options.pollIntervalMs);
      function finish() {
        clearTimeout(timer);
        interrupted.removeEventListener('abort', finish);
        resolve();
      }
      interrupted.addEventListener('abort', finish);
    });
  }
  if (stderr.isTTY) stderr.write('\n');
  return null;
}

/** The ended eval with every case's result, page after page (the differing ones come first). */
async function readWhole(client: AgentdClient, path: { agentId: string; evalId: string }): Promise<EvalResult> {
  let cursor: string | undefined;
  let whole: EvalResult | null = null;
  do {
    const page = unwrap(
      await client.api.GET('/v1/agents/{agentId}/evals/{evalId}', {
        params: { path, query: { limit: 200, ...(cursor ? { cursor } : {}) } },
      }),
    );
    whole = whole === null ? page : { ...page, cases: [...whole.cases, ...page.cases] };
    cursor = page.casesPagination.hasMore ? (page.casesPagination.nextCursor ?? undefined) : undefined;
  } while (cursor !== undefined);
  return whole;
}
