import { useEffect, useRef, useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { hrefOf } from '../../route.js';
import { Loaded, messageOf, useResource } from '../../ui/resource.js';
import { millisecondsText } from '../runs/format.js';
import { Time } from '../time.js';
import { EvalStatus, Progress, useRefreshWhile } from './eval-list.js';
import { activeStatuses, cancelEval, getEval } from './requests.js';
import type { CaseResult, CaseVersionResult, Eval, VersionTotals } from './types.js';

/** A score or a mean of scores, 0–1, with two decimals. */
const scoreText = (score: number) => score.toFixed(2);

function costText(usd: number): string {
  if (usd === 0) return '$0';
  return usd < 0.01 ? `$${usd.toPrecision(2)}` : `$${usd.toFixed(4)}`;
}

/** Pass or fail in text as well as colour: a mark and a word. */
function Verdict({ passed }: { passed: boolean }) {
  return (
    <span class={passed ? 'verdict verdict-pass' : 'verdict verdict-fail'}>{passed ? '✓ passed' : '✗ failed'}</span>
  );
}

function problemDetail(error: Record<string, unknown> | null): string | null {
  if (!error) return null;
  return typeof error.detail === 'string' ? error.detail : typeof error.title === 'string' ? error.title : 'Failed.';
}

/**
 * One eval's results: its totals per scorer with the versions side by side,
 * then its cases as the API orders them (those whose outcome differs between
 * the versions first, marked), each version's reply, tool calls, finish
 * reason, latency, tokens, cost and scores. Read again every 2 s while it runs.
 */
export function EvalResults({ agent, evalId }: { agent: Agent; evalId: string }) {
  const [resource, reload] = useResource((signal) => getEval(agent.id, evalId, null, signal), [agent.id, evalId]);
  useRefreshWhile(resource, (data) => activeStatuses.has(data.status), reload);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [evalId]);

  return (
    <>
      <h2 id="eval-title" tabIndex={-1} ref={heading}>
        {resource.status === 'ready' ? `Eval of ${resource.data.datasetName}` : 'Eval'}
      </h2>
      <Loaded resource={resource} what="the eval" onRetry={reload}>
        {(evaluation) => <EvalBody agent={agent} evaluation={evaluation} onChanged={reload} />}
      </Loaded>
    </>
  );
}

function EvalBody({ agent, evaluation, onChanged }: { agent: Agent; evaluation: Eval; onChanged: () => void }) {
  const [more, setMore] = useState<{ cases: CaseResult[]; nextCursor: string | null } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A new first page (the eval read again) starts the list over.
  useEffect(() => setMore(null), [evaluation]);

  const cases = [...evaluation.cases, ...(more?.cases ?? [])];
  const nextCursor = more ? more.nextCursor : evaluation.casesPagination.nextCursor;

  const loadMore = async () => {
    if (!nextCursor) return;
    setBusy(true);
    setProblem(null);
    try {
      const page = await getEval(agent.id, evaluation.id, nextCursor);
      setMore({ cases: [...(more?.cases ?? []), ...page.cases], nextCursor: page.casesPagination.nextCursor });
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await cancelEval(agent.id, evaluation.id);
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setBusy(false);
      onChanged();
    }
  };

  const compared = evaluation.versions.length === 2;
  const error = problemDetail(evaluation.error);
  return (
    <>
      <dl class="facts eval-facts">
        <dt>Status</dt>
        <dd>
          <EvalStatus evaluation={evaluation} />
        </dd>
        <dt>Versions</dt>
        <dd>{evaluation.versions.map((version) => `v${version}`).join(' and ')}</dd>
        <dt>Progress</dt>
        <dd>
          <Progress evaluation={evaluation} />
        </dd>
        <dt>Judge</dt>
        <dd>
          <code>
            {evaluation.judge.provider}/{evaluation.judge.model}
          </code>
        </dd>
        <dt>Started</dt>
        <dd>
          <Time value={evaluation.startedAt} />
        </dd>
        <dt>Finished</dt>
        <dd>
          <Time value={evaluation.finishedAt} />
        </dd>
      </dl>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {activeStatuses.has(evaluation.status) && (
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={cancel}>
            Cancel eval
          </button>
        </div>
      )}
      <TotalsTable evaluation={evaluation} />
      <section aria-labelledby="eval-cases-title">
        <h3 id="eval-cases-title">Cases</h3>
        {compared && (
          <p class="hint">
            {evaluation.differing} {evaluation.differing === 1 ? 'case differs' : 'cases differ'} between v
            {evaluation.versions[0]} and v{evaluation.versions[1]}
            {evaluation.differing > 0 ? ': listed first, marked “Differs”.' : '.'}
          </p>
        )}
        {cases.length === 0 ? (
          <p role="status">No case has a result yet.</p>
        ) : (
          <ol class="eval-cases">
            {cases.map((each) => (
              <CaseCard key={each.caseId} agent={agent} evaluation={evaluation} result={each} />
            ))}
          </ol>
        )}
        {nextCursor && (
          <button type="button" class="secondary" disabled={busy} onClick={loadMore}>
            {busy ? 'Loading more cases…' : 'More cases'}
          </button>
        )}
      </section>
    </>
  );
}

/** Per scorer type, each version's mean score and passes, side by side; then the cases' outcomes. */
function TotalsTable({ evaluation }: { evaluation: Eval }) {
  const totals = evaluation.versions.map(
    (version) => evaluation.totals.find((each) => each.version === version) ?? null,
  );
  const types = [...new Set(evaluation.totals.flatMap((total) => total.scorers.map((scorer) => scorer.type)))];
  const scorerCell = (total: VersionTotals | null, type: string) => {
    const scorer = total?.scorers.find((each) => each.type === type);
    if (!scorer || scorer.count === 0) return '—';
    return `${scoreText(scorer.meanScore)} (${scorer.passed}/${scorer.count} passed)`;
  };
  return (
    <section aria-labelledby="eval-totals-title">
      <h3 id="eval-totals-title">Totals</h3>
      <table class="eval-totals">
        <caption class="visually-hidden">Mean score and passes per scorer, per version</caption>
        <thead>
          <tr>
            <th scope="col">Scorer</th>
            {evaluation.versions.map((version) => (
              <th scope="col" key={version}>
                v{version}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {types.map((type) => (
            <tr key={type}>
              <th scope="row">{type}</th>
              {totals.map((total, index) => (
                <td key={index}>{scorerCell(total, type)}</td>
              ))}
            </tr>
          ))}
          <tr class="eval-totals-cases">
            <th scope="row">Cases passed</th>
            {totals.map((total, index) => (
              <td key={index}>
                {total ? `${total.passed} of ${total.cases}` : '—'}
                {total && total.errored > 0 ? ` (${total.errored} could not be answered)` : ''}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}

function CaseCard({ agent, evaluation, result }: { agent: Agent; evaluation: Eval; result: CaseResult }) {
  const titleId = `case-${result.position}`;
  return (
    <li class={result.differs ? 'eval-case eval-case-differs' : 'eval-case'}>
      <article aria-labelledby={titleId}>
        <h4 id={titleId}>
          <code>{result.caseId}</code>
          {result.differs && (
            <>
              {' '}
              <span class="differs-mark">Differs</span>
            </>
          )}
        </h4>
        <div class="case-versions">
          {evaluation.versions.map((version) => {
            const outcome = result.results.find((each) => each.version === version);
            return outcome ? (
              <VersionOutcome key={version} agent={agent} caseId={result.caseId} outcome={outcome} />
            ) : (
              <section key={version} class="case-version" aria-label={`v${version}`}>
                <h5>v{version}</h5>
                <p class="hint">No result yet.</p>
              </section>
            );
          })}
        </div>
      </article>
    </li>
  );
}

function VersionOutcome({ agent, caseId, outcome }: { agent: Agent; caseId: string; outcome: CaseVersionResult }) {
  const error = problemDetail(outcome.error);
  return (
    <section class="case-version" aria-label={`${caseId}, v${outcome.version}`}>
      <h5>
        v{outcome.version} <Verdict passed={outcome.passed} />
      </h5>
      {error ? (
        <p class="problem">Not answered: {error}</p>
      ) : (
        <blockquote class="case-reply">{outcome.text || '(empty reply)'}</blockquote>
      )}
      {outcome.toolCalls.length > 0 && (
        <ul class="case-tools">
          {outcome.toolCalls.map((call, index) => (
            <li key={index}>
              <code>{call.name}</code> <code class="case-json">{JSON.stringify(call.input)}</code>
              {call.stubbed
                ? ' — not run (side effects)'
                : call.error
                  ? ` — error: ${call.error}`
                  : call.output !== undefined
                    ? ' — ran'
                    : ''}
            </li>
          ))}
        </ul>
      )}
      <dl class="facts case-facts">
        <dt>Finish</dt>
        <dd>{outcome.finishReason ?? '—'}</dd>
        <dt>Latency</dt>
        <dd>{millisecondsText(outcome.latencyMs)}</dd>
        <dt>Tokens</dt>
        <dd>
          {outcome.usage.totalTokens} ({outcome.usage.inputTokens} in, {outcome.usage.outputTokens} out)
        </dd>
        <dt>Cost</dt>
        <dd>{costText(outcome.costUsd)}</dd>
        {outcome.runIds.length > 0 && (
          <>
            <dt>Runs</dt>
            <dd>
              {outcome.runIds.map((runId, index) => (
                <span key={runId}>
                  {index > 0 && ', '}
                  <a href={hrefOf({ name: 'run', agentId: agent.id, runId })}>
                    run {index + 1}
                    <span class="visually-hidden">
                      {' '}
                      of {caseId}, v{outcome.version}
                    </span>
                  </a>
                </span>
              ))}
            </dd>
          </>
        )}
      </dl>
      {outcome.scores.length > 0 ? (
        <ul class="case-scores">
          {outcome.scores.map((score, index) => (
            <li key={index} class={score.passed ? 'score score-pass' : 'score score-fail'}>
              <span class="score-mark" aria-hidden="true">
                {score.passed ? '✓' : '✗'}
              </span>
              <span class="visually-hidden">{score.passed ? ' passed' : ' failed'}:</span> <strong>{score.type}</strong>{' '}
              {scoreText(score.score)}: {score.reason}
            </li>
          ))}
        </ul>
      ) : (
        <p class="hint">No scorers: answering is passing.</p>
      )}
    </section>
  );
}
