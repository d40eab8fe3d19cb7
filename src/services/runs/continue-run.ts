import type { ServiceContext } from '../context.js';
import type { Tool } from '../../plugins/plugin.js';
import type { RunRow } from '../../storage/repositories/runs.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import { continueReply } from '../messages/resume-reply.js';
import type { Reply, ResumeStart } from '../messages/reply.js';
import { replay, type Replayed } from './run-journal.js';
import type { WireEvent } from './run-log.js';

/**
 * What a run taken over from a stopped instance tells its readers first: the
 * reply's text as its completed steps said it. A reader that joined the
 * deltas replaces its text with this one (the step that was cut is asked
 * again, and streams again from here).
 */
export function resumedEvent(row: Pick<RunRow, 'id' | 'takeovers'>, replayed: Replayed | null): WireEvent {
  return {
    event: 'run.resumed',
    data: {
      runId: row.id,
      id: replayed?.begin.exchange.replyId ?? null,
      text: replayed?.text ?? '',
      completedSteps: replayed?.modelSteps ?? 0,
      takeovers: row.takeovers,
    },
  };
}

/**
 * The continuation of a run taken over, from its journal: null when the
 * journal is empty (nothing durable happened: the run begins again). A
 * completed model step is not asked again and a completed call not run again;
 * a call with side effects that began without its end recorded is recovered
 * by its tool when it recorded how (`Tool.recoverOutcome`), and otherwise
 * told to the model as of unknown outcome.
 */
export async function continueFromJournal(
  ctx: ServiceContext,
  agent: AgentRecord,
  row: RunRow,
  signal: AbortSignal,
): Promise<Reply | null> {
  const { repositories } = ctx.deps;
  const replayed = replay(await repositories.runSteps.ofRun(row.id));
  if (replayed === null) return null;
  const afterSeq = await repositories.runs.lastSeq(row.id);
  const { begin } = replayed;
  return continueReply(ctx, agent, row.id, signal, {
    exchange: begin.exchange,
    startedTick: performance.now(),
    prompt: begin.prompt,
    takenOver: { afterSeq, resumed: resumedEvent(row, replayed) },
    start: () => startOf(replayed),
    recover: (tools) => recoverCalls(replayed, tools.toolbox.tools, signal),
  });
}

function startOf(replayed: Replayed): ResumeStart {
  const { round } = replayed;
  const prior = {
    text: replayed.text,
    toolCalls: replayed.toolCalls,
    usage: replayed.usage,
    final: replayed.final,
    journalSeq: replayed.lastSeq,
  };
  if (round === null) return { steps: replayed.steps, stepText: '', calls: [], step: 0, prior };
  return {
    steps: replayed.steps,
    stepText: round.stepText,
    calls: round.calls.map((call) => {
      const { started, intent: _intent, ...rest } = call;
      // Began with side effects, its end not recorded (and not recovered): not run again.
      return call.result === undefined && started === true ? { ...rest, unknown: true } : rest;
    }),
    step: round.step,
    prior,
  };
}

/** Asks each tool whose call began and recorded its intent for the call's outcome; fills the results it knows. */
async function recoverCalls(replayed: Replayed, tools: ReadonlyMap<string, Tool>, signal: AbortSignal): Promise<void> {
  for (const call of replayed.round?.calls ?? []) {
    if (call.result !== undefined || call.started !== true || call.intent === undefined) continue;
    const tool = tools.get(call.toolName);
    if (tool?.recoverOutcome === undefined) continue;
    let input: unknown;
    try {
      input = JSON.parse(call.input);
    } catch {
      continue;
    }
    try {
      const output = await tool.recoverOutcome(input, call.intent, { abortSignal: signal });
      if (output === undefined) continue;
      call.result = {
        toolCallId: call.toolCallId,
        name: call.toolName,
        input,
        output,
        durationMs: 0,
        ...(call.decision !== undefined ? { approval: call.decision } : {}),
      };
      replayed.toolCalls.push(call.result);
    } catch {
      // Unknown it stays.
    }
  }
}
