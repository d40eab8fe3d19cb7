import { useState } from 'preact/hooks';
import { hrefOf } from '../../route.js';
import { countText, millisecondsText } from './format.js';
import { PromptInspector } from './prompt-inspector.js';
import type { Run } from './requests.js';
import type { RunStep, RunSteps } from './step-types.js';

/** Where a step's bar starts and how long it is, in milliseconds from the run's start. */
interface Span {
  offset: number;
  duration: number;
}

/**
 * Each step's place on the run's time line: from its `at` when it has one,
 * else right after the step before it.
 */
function spansOf(steps: RunStep[], startedAt: string | null): Span[] {
  const start = startedAt ? Date.parse(startedAt) : Number.NaN;
  let end = 0;
  return steps.map((step) => {
    const duration = step.durationMs ?? 0;
    const at = step.at ? Date.parse(step.at) - start : Number.NaN;
    const offset = Number.isFinite(at) && at >= 0 ? at : end;
    end = Math.max(end, offset + duration);
    return { offset, duration };
  });
}

/**
 * A run's steps in order, one row each, with a bar placed where the step
 * began and as long as it took, to scale of the whole run (its own duration,
 * or the steps' extent when that is longer: a run still going, or clocks
 * that differ). A tool step opens its input and result; a model step opens
 * the prompt inspector. Several can be open at once, to compare them.
 */
export function RunTimeline({
  agentId,
  runId,
  steps,
  run,
}: {
  agentId: string;
  runId: string;
  steps: RunSteps;
  run: Run | null;
}) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  const stepsTotal = steps.data.reduce((sum, step) => sum + (step.durationMs ?? 0), 0);
  const spans = spansOf(steps.data, run?.startedAt ?? null);
  const extent = spans.reduce((most, span) => Math.max(most, span.offset + span.duration), 0);
  const runTotal = run?.startedAt
    ? Date.parse(run.finishedAt ?? new Date().toISOString()) - Date.parse(run.startedAt)
    : 0;
  const total = Math.max(extent, Number.isFinite(runTotal) ? runTotal : 0, 1);

  return (
    <>
      <p class="hint">
        {steps.data.length} {steps.data.length === 1 ? 'step' : 'steps'}, {millisecondsText(stepsTotal)} in all of{' '}
        {millisecondsText(total)}; each bar is where the step ran in the run, to scale.
      </p>
      <ol class="run-timeline" aria-labelledby="run-steps-title">
        {steps.data.map((step, position) => {
          const opens = step.kind === 'model' || step.kind === 'tool';
          const isOpen = open.has(step.index);
          const panelId = `step-${step.index}-detail`;
          const span = spans[position] ?? { offset: 0, duration: 0 };
          const share = Math.min(100, (span.duration / total) * 100);
          const start = Math.min(100 - share, (span.offset / total) * 100);
          const label = (
            <>
              <span class="step-label">
                <StepLabel step={step} agentId={agentId} />
              </span>
              <span class="step-duration">{millisecondsText(step.durationMs)}</span>
            </>
          );
          return (
            <li key={step.index} class={`step step-${step.kind}`}>
              {opens ? (
                <button
                  type="button"
                  class="step-head"
                  aria-expanded={isOpen}
                  aria-controls={isOpen ? panelId : undefined}
                  onClick={() => toggle(step.index)}
                >
                  {label}
                </button>
              ) : (
                <div class="step-head">{label}</div>
              )}
              {step.durationMs !== null && (
                <div class="step-track" aria-hidden="true">
                  <div class="step-bar" style={{ marginLeft: `${start}%`, width: `${share}%` }} />
                </div>
              )}
              {isOpen && (
                <div id={panelId} class="step-detail">
                  {step.kind === 'tool' && <ToolDetail step={step} />}
                  {step.kind === 'model' && (
                    <>
                      <ModelDetail step={step} />
                      <PromptInspector
                        agentId={agentId}
                        runId={runId}
                        index={step.index}
                        title={`Prompt of model step ${step.model?.step ?? step.index}`}
                      />
                    </>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** A step's one line; approval and resume steps link the run the reply went on in or came from. */
function StepLabel({ step, agentId }: { step: RunStep; agentId: string }) {
  const runLink = (runId: string) => <a href={hrefOf({ name: 'run', agentId, runId })}>{runId}</a>;
  const { model, tool, approval, resume } = step;
  if (model) {
    const usage = model.usage;
    const facts = [
      `${model.provider}/${model.name}`,
      model.finishReason,
      `${countText(usage.inputTokens)} in / ${countText(usage.outputTokens)} out / ${countText(usage.cachedInputTokens ?? 0)} cached tokens`,
      ...(model.firstTokenMs !== null ? [`first token ${millisecondsText(model.firstTokenMs)}`] : []),
      ...(model.retries > 0 ? [`${model.retries} ${model.retries === 1 ? 'retry' : 'retries'}`] : []),
    ];
    return (
      <>
        <strong>Model step {model.step}</strong>: {facts.join(' · ')}
      </>
    );
  }
  if (tool) {
    return (
      <>
        <strong>Tool {tool.name}</strong>
        {tool.approval ? ` · ${tool.approval.status}` : ''}
        {tool.error !== undefined && <span class="step-error"> · failed: {tool.error}</span>}
      </>
    );
  }
  if (approval) {
    return (
      <>
        <strong>Approval</strong> of {approval.toolName}: {approval.status}
        {approval.reason ? ` (${approval.reason})` : ''}
        {approval.resumedRunId && <> · went on in run {runLink(approval.resumedRunId)}</>}
      </>
    );
  }
  if (resume) {
    return (
      <>
        <strong>Resumed</strong> after the decision on {resume.calls} {resume.calls === 1 ? 'call' : 'calls'}
        {resume.fromRunId && <> of run {runLink(resume.fromRunId)}</>}
      </>
    );
  }
  return <strong>{step.kind}</strong>;
}

function ToolDetail({ step }: { step: RunStep }) {
  const tool = step.tool;
  if (!tool) return null;
  return (
    <div class="tool-detail">
      <h3 class="step-detail-title">Input</h3>
      <pre class="step-json">{JSON.stringify(tool.input, null, 2)}</pre>
      {tool.error !== undefined ? (
        <>
          <h3 class="step-detail-title">Error</h3>
          <pre class="step-json step-error">{tool.error}</pre>
        </>
      ) : (
        <>
          <h3 class="step-detail-title">Output</h3>
          <pre class="step-json">{tool.output === undefined ? '(none)' : JSON.stringify(tool.output, null, 2)}</pre>
        </>
      )}
    </div>
  );
}

function ModelDetail({ step }: { step: RunStep }) {
  const model = step.model;
  if (!model) return null;
  return (
    <div class="model-detail">
      {model.text && (
        <>
          <h3 class="step-detail-title">Said</h3>
          <p class="step-text">{model.text}</p>
        </>
      )}
      {model.toolCalls.length > 0 && (
        <>
          <h3 class="step-detail-title">Asked for</h3>
          <ul class="step-calls">
            {model.toolCalls.map((call) => (
              <li key={call.toolCallId}>
                {call.name} <code>{JSON.stringify(call.input)}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
