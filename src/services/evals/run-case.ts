import { isoTime } from '../../clock.js';
import { AppError, problemBody } from '../../errors.js';
import { newId } from '../../ids.js';
import type { AgentToolsets } from '../../plugins/toolsets.js';
import type { CaseVersionResultView, EvalCaseValue, ScorerSpecValue } from '../../schemas/evals.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { ServiceContext, ServiceDeps } from '../context.js';
import { sendMessage } from '../messages/send-message.js';
import { isolatedToolbox, isStubbed } from './isolated-tools.js';
import { judgeRubric, type JudgeModel } from './judge.js';
import { scoreDeterministic, unansweredScores, type CaseOutcome, type Score } from './scorers.js';

/** One case of an eval to answer with one version of its agent. */
export interface CaseOrder {
  evalId: string;
  accountId: string;
  agentId: string;
  position: number;
  testCase: EvalCaseValue;
  version: number;
  /** The agent as that version configures it (version-agent.ts). */
  agent: AgentRecord;
  /** That version's open plugins, apart from the agent's own. */
  toolsets: AgentToolsets;
  judge: JudgeModel;
  /** The eval's: aborted when it is cancelled or its instance shuts down. */
  signal: AbortSignal;
  /** Runs of the case waiting for a slot or answering, so that a cancel can end them. */
  inFlight: Set<string>;
}

/** The conversation an eval's case is answered in: its own, never a real user's (docs/evals.md, "Isolation"). */
export function evalUserId(evalId: string, caseId: string, version: number): string {
  return `eval:${evalId}:${caseId}:v${version}`;
}

/** The service acts on the eval's account with only the scope a reply needs, as a task's runs do. */
function evalContext(deps: ServiceDeps, order: CaseOrder): ServiceContext {
  return {
    deps,
    actor: { accountId: order.accountId, keyId: `eval:${order.evalId}`, scopes: new Set(['messages:send']) },
    requestId: newId('request'),
  };
}

const internal = () =>
  new AppError('internal', 'An unexpected error occurred; it has been logged with the request id.');

/**
 * Answers a case with one version: each of its messages in order, as a run
 * (trigger `eval`) produced by the normal reply path, isolated (see
 * `ReplyIsolation`): a conversation of the eval's own, memory off, no message
 * webhooks, and tools with side effects stubbed unless the case allows them.
 * The conversation's turns are deleted once the case is answered. Then the
 * case's scorers score it. Never throws but when the eval's signal aborted.
 */
export async function runCase(deps: ServiceDeps, order: CaseOrder): Promise<CaseVersionResultView> {
  const ctx = evalContext(deps, order);
  const { testCase, signal } = order;
  const userId = evalUserId(order.evalId, testCase.id, order.version);
  const replies: string[] = [];
  const toolCalls: CaseVersionResultView['toolCalls'] = [];
  const runIds: string[] = [];
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let costUsd = 0;
  let latencyMs = 0;
  let finishReason: string | null = null;
  let error: Record<string, unknown> | null = null;
  const context = {
    ...(testCase.context ?? {}),
    ...(testCase.userId !== undefined ? { userId: testCase.userId } : {}),
  };
  try {
    for (const text of testCase.messages) {
      const runId = newId('run');
      runIds.push(runId);
      await deps.repositories.runs.createQueued({
        id: runId,
        accountId: order.accountId,
        agentId: order.agentId,
        trigger: 'eval',
        taskId: null,
        userId,
        roomId: null,
        input: text,
        instanceId: deps.runs.instanceId,
        createdAt: isoTime(deps.clock.now()),
        approvalId: null,
      });
      order.inFlight.add(runId);
      let ended;
      try {
        const reply = await sendMessage({
          ctx,
          agentId: order.agentId,
          input: { text, userId, ...(Object.keys(context).length > 0 ? { context } : {}), stream: false },
          signal,
          trigger: 'eval',
          queuedRunId: runId,
          isolation: {
            agent: order.agent,
            toolbox: async (agent) =>
              isolatedToolbox(await order.toolsets.toolboxFor(agent), testCase.allowSideEffects),
          },
        });
        ended = await reply.outcome();
      } catch (failure) {
        const appError = failure instanceof AppError ? failure : internal();
        if (!(failure instanceof AppError))
          deps.logger.error({ err: failure, evalId: order.evalId, runId }, 'an eval case failed');
        // A run refused before it began (a spend limit, the eval cancelled while it waited for a slot) is still queued.
        await deps.repositories.runs
          .failUnstarted(runId, {
            status: 'failed',
            problem: problemBody(appError, ctx.requestId),
            at: isoTime(deps.clock.now()),
          })
          .catch(() => false);
        ended = { status: 'failed' as const, reply: null, failure: appError };
      } finally {
        order.inFlight.delete(runId);
      }
      if (signal.aborted) throw signal.reason ?? new Error('The eval was stopped.');
      const reply = ended.reply;
      if (reply !== null) {
        replies.push(reply.text);
        finishReason = reply.finishReason;
        usage.inputTokens += reply.usage.inputTokens;
        usage.outputTokens += reply.usage.outputTokens;
        usage.totalTokens += reply.usage.totalTokens;
        costUsd += reply.usage.costUsd ?? 0;
        latencyMs += reply.latencyMs;
        for (const call of reply.toolCalls) {
          toolCalls.push({
            name: call.name,
            input: call.input,
            ...(call.output !== undefined ? { output: call.output } : {}),
            ...(call.error !== undefined ? { error: call.error } : {}),
            stubbed: isStubbed(call.output),
          });
        }
      }
      if (ended.status !== 'completed') {
        const appError = ended.failure ?? new AppError('service_unavailable', `The reply ended ${ended.status}.`);
        error = problemBody(appError, ctx.requestId);
        break;
      }
    }
  } finally {
    await forgetCaseConversation(deps, order.agentId, userId);
  }
  const text = replies.at(-1) ?? '';
  const outcome: CaseOutcome = { text, toolCalls, finishReason, latencyMs, totalTokens: usage.totalTokens, costUsd };
  const scores =
    error === null
      ? await scoreCase(deps, order, outcome)
      : unansweredScores(testCase.expect, String((error as { detail?: unknown }).detail ?? 'the reply failed'));
  return {
    version: order.version,
    status: error === null ? 'completed' : 'failed',
    passed: error === null && scores.every((score) => score.passed),
    replies,
    text,
    toolCalls,
    finishReason,
    latencyMs,
    usage,
    costUsd: Math.round(costUsd * 1e9) / 1e9,
    runIds,
    scores,
    error,
    finishedAt: isoTime(deps.clock.now()),
  };
}

async function scoreCase(deps: ServiceDeps, order: CaseOrder, outcome: CaseOutcome): Promise<Score[]> {
  const scores: Score[] = [];
  for (const spec of order.testCase.expect as ScorerSpecValue[]) {
    if (spec.type === 'rubric') {
      scores.push(
        await judgeRubric(
          deps,
          order.judge,
          {
            messages: order.testCase.messages,
            text: outcome.text,
            criteria: spec.criteria,
            minScore: spec.minScore ?? 0.5,
          },
          order.signal,
        ),
      );
    } else scores.push(scoreDeterministic(spec, outcome));
  }
  return scores;
}

/** The case's turns go once it is answered: an eval leaves no conversation behind. */
async function forgetCaseConversation(deps: ServiceDeps, agentId: string, userId: string): Promise<void> {
  const { repositories, logger } = deps;
  const filter = { conversation: `user:${userId}` };
  try {
    await repositories.db.transaction().execute(async (transaction) => {
      await repositories.memoryVectors?.deleteTurns(agentId, filter, transaction);
      await repositories.messages.deleteTurns(agentId, filter, transaction);
    });
  } catch (error) {
    logger.warn({ err: error, agentId }, "could not delete an eval case's conversation");
  }
}
