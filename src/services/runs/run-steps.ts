import type { StoredToolCall } from '../../conversation/history-window.js';
import { renderFacts } from '../../conversation/memory/memory-prompt.js';
import {
  promptMessageText,
  renderTurn,
  toolStepMessages,
  type AssembledPrompt,
  type PromptMessage,
} from '../../conversation/prompt.js';
import { estimateMessageTokens, estimateTokens } from '../../conversation/tokens.js';
import { notFound } from '../../errors.js';
import { contextWindowOf } from '../../providers/model-limits.js';
import type { Static } from '@sinclair/typebox';
import type { PromptSection, RunStepPromptView, RunStepsView, RunStepView } from '../../schemas/run-steps.js';
import type { ApprovalRow } from '../../storage/repositories/approvals.js';
import type { RunRow } from '../../storage/repositories/runs.js';
import type { RunStepRow } from '../../storage/repositories/run-steps.js';
import { requireScope, type ServiceContext } from '../context.js';
import { parseEntry, type BeginEntry, type JournalEntry, type ModelStepEntry } from './run-journal.js';
import { findOwnRun, runView } from './runs.js';

/**
 * A run's steps, read from its journal (src/services/runs/run-journal.ts):
 * the model steps with their prompt's make-up, the tool calls, the approvals
 * the run paused for and, for a run that went on after decisions, where it
 * resumed. The prompt as sent is rebuilt from the journal's `begin` entry
 * (the prompt the reply assembled) and the tool rounds before the step, as
 * the reply built each model call from them.
 */

type Section = Static<typeof PromptSection>;

const sectionLabels: Record<Section['name'], string> = {
  system: 'Character, goals and instructions',
  summary: 'Summary',
  facts: 'Facts',
  tools: 'Tools offered',
  history: 'History',
  knowledge: 'Knowledge',
  recalled: 'Recalled turns',
  context: 'Context',
  notes: 'Other notes',
  message: 'The message',
  'tool-rounds': 'Earlier tool rounds',
};

function section(name: Section['name'], tokens: number, items: number): Section {
  return { name, label: sectionLabels[name], tokens, items };
}

/** Which of the message's notes a note is, by the heading each note is rendered with (src/conversation/prompt.ts). */
function noteKind(note: string): 'knowledge' | 'recalled' | 'context' | 'notes' {
  if (note.startsWith('Knowledge relevant to this message')) return 'knowledge';
  if (note.startsWith('Earlier in this conversation (recalled')) return 'recalled';
  if (note.startsWith('Context supplied with this message')) return 'context';
  return 'notes';
}

/** The prompt's make-up for one model step: each part's estimated tokens, in the order the model reads it. */
function sectionsOf(prompt: AssembledPrompt, rounds: PromptMessage[], toolsText: string | null, tools: number) {
  const memory = prompt.memory;
  const summary = memory?.summary
    ? estimateTokens(`Summary of the earlier conversation (older turns are not shown):\n${memory.summary}`)
    : 0;
  const facts = memory && memory.facts.length > 0 ? estimateTokens(renderFacts(memory.facts, prompt.shared)) : 0;
  const notes = { knowledge: 0, recalled: 0, context: 0, notes: 0 };
  for (const note of prompt.notes) notes[noteKind(note)] += estimateTokens(note);
  const history = prompt.messages
    .slice(0, -1)
    .reduce((sum, message) => sum + estimateMessageTokens(promptMessageText(message)), 0);
  const sections = [
    section('system', Math.max(0, estimateTokens(prompt.system) - summary - facts), 1),
    section('summary', summary, memory?.summary ? 1 : 0),
    section('facts', facts, memory?.facts.length ?? 0),
    section('tools', toolsText === null ? 0 : estimateTokens(toolsText), tools),
    section('history', history, prompt.history.length),
    section('knowledge', notes.knowledge, prompt.knowledge.length),
    section('recalled', notes.recalled, memory?.recalled.length ?? 0),
    section('context', notes.context, notes.context > 0 ? 1 : 0),
    section('notes', notes.notes, prompt.notes.filter((note) => noteKind(note) === 'notes').length),
    section('message', estimateMessageTokens(renderTurn({ role: 'user', ...prompt.message }, prompt.shared)), 1),
    section(
      'tool-rounds',
      rounds.reduce((sum, message) => sum + estimateMessageTokens(promptMessageText(message)), 0),
      rounds.filter((message) => message.role === 'tool').length,
    ),
  ];
  return sections;
}

function parsedInput(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A model step as the journal holds it, with the tool rounds the model was shown before it. */
interface ModelRecord {
  index: number;
  entry: ModelStepEntry;
  at: string;
  rounds: PromptMessage[];
}

interface ReadSteps {
  begin: BeginEntry | null;
  steps: RunStepView[];
  models: Map<number, ModelRecord>;
}

/** Walks the journal in order, keeping the tool rounds each model step was shown. */
function readSteps(run: RunRow, rows: RunStepRow[], approvals: ApprovalRow[], pausedRunId: string | null): ReadSteps {
  const entries: Array<{ entry: JournalEntry; row: RunStepRow }> = rows.map((row) => ({ entry: parseEntry(row), row }));
  const steps: RunStepView[] = [];
  const models = new Map<number, ModelRecord>();
  let begin: BeginEntry | null = null;
  /** The tool rounds so far, as the next model step is shown them. */
  const rounds: PromptMessage[] = [];
  /** The last model step's round: its text and its calls' results, by id, in the model's order. */
  let round: { text: string; order: string[]; results: Map<string, StoredToolCall> } | null = null;
  const closeRound = () => {
    if (round === null) return;
    const results = round.order.flatMap((id) => {
      const result = round?.results.get(id);
      return result === undefined ? [] : [result];
    });
    if (results.length > 0) rounds.push(...toolStepMessages(results, round.text));
    round = null;
  };
  for (const { entry, row } of entries) {
    if (entry.kind === 'begin') {
      begin = entry.data;
      const base = begin.base;
      if (base !== null) {
        rounds.push(...base.steps);
        round = {
          text: base.stepText,
          order: base.calls.map((call) => call.toolCallId),
          results: new Map(
            base.calls.flatMap((call) => (call.result !== undefined ? [[call.toolCallId, call.result] as const] : [])),
          ),
        };
        steps.push({
          index: steps.length + 1,
          kind: 'resume',
          at: row.created_at,
          durationMs: null,
          resume: { reason: 'approval', fromRunId: pausedRunId, calls: base.calls.length },
        });
      }
    } else if (entry.kind === 'model') {
      closeRound();
      const data = entry.data;
      const index = steps.length + 1;
      const at = data.startedAt ?? row.created_at;
      models.set(index, { index, entry: data, at, rounds: [...rounds] });
      round = { text: data.text, order: data.calls.map((call) => call.toolCallId), results: new Map() };
      steps.push({
        index,
        kind: 'model',
        at,
        durationMs: data.durationMs,
        model: {
          step: data.step,
          provider: data.model.provider,
          name: data.model.name,
          finishReason: data.finishReason,
          text: data.text,
          usage: data.usage,
          firstTokenMs: data.firstTokenMs ?? null,
          retries: data.retries ?? 0,
          toolCalls: data.calls.map((call) => ({
            toolCallId: call.toolCallId,
            name: call.toolName,
            input: parsedInput(call.input),
          })),
          sections: [],
          promptTokens: 0,
        },
      });
    } else if (entry.kind === 'tool') {
      const call = entry.data.call;
      (round as { results: Map<string, StoredToolCall> } | null)?.results.set(call.toolCallId, call);
      // Calls that ran before a pause are the resumed round's, already shown in the run that paused.
      steps.push({
        index: steps.length + 1,
        kind: 'tool',
        at: new Date(Date.parse(row.created_at) - call.durationMs).toISOString(),
        durationMs: call.durationMs,
        tool: call,
      });
    }
  }
  if (begin === null && rows.length === 0) steps.push(...fallbackSteps(run));
  for (const approval of approvals) {
    steps.push({
      index: steps.length + 1,
      kind: 'approval',
      at: approval.created_at,
      durationMs:
        approval.decided_at === null ? null : Date.parse(approval.decided_at) - Date.parse(approval.created_at),
      approval: {
        approvalId: approval.id,
        toolCallId: approval.tool_call_id,
        toolName: approval.tool_name,
        input: parsedInput(approval.input),
        status: approval.status,
        decidedAt: approval.decided_at,
        reason: approval.reason,
        resumedRunId: approval.resumed_run_id,
      },
    });
  }
  // Sections need the prompt: measured once the walk has the begin entry.
  if (begin !== null) {
    for (const model of models.values()) {
      const step = steps[model.index - 1]?.model;
      if (step === undefined) continue;
      const offered = offeredTools(begin, model.entry.step);
      step.sections = sectionsOf(
        begin.prompt,
        model.rounds,
        offered.length > 0 ? JSON.stringify(offered) : null,
        offered.length,
      );
      step.promptTokens = step.sections.reduce((sum, each) => sum + each.tokens, 0);
    }
  }
  return { begin, steps, models };
}

/** The tools a model step was offered: all of them up to the reply's step limit, none past it. */
function offeredTools(begin: BeginEntry, step: number) {
  const tools = begin.tools;
  if (tools === undefined || tools === null) return [];
  return step <= tools.maxSteps ? tools.offered : [];
}

/** A run recorded before its steps were (or a reply of one step before they were kept): what its reply says. */
function fallbackSteps(run: RunRow): RunStepView[] {
  if (run.result === null) return [];
  const reply = JSON.parse(run.result) as {
    text: string;
    finishReason: string;
    usage: { inputTokens: number; outputTokens: number; totalTokens: number; cachedInputTokens?: number };
    model: { provider: string; name: string };
    toolCalls: StoredToolCall[];
  };
  const steps: RunStepView[] = reply.toolCalls.map((call, position) => ({
    index: position + 1,
    kind: 'tool' as const,
    at: null,
    durationMs: call.durationMs,
    tool: call,
  }));
  steps.push({
    index: steps.length + 1,
    kind: 'model',
    at: run.started_at,
    durationMs:
      run.started_at !== null && run.finished_at !== null
        ? Date.parse(run.finished_at) - Date.parse(run.started_at)
        : null,
    model: {
      step: 1,
      provider: reply.model.provider,
      name: reply.model.name,
      finishReason: reply.finishReason,
      text: reply.text,
      usage: reply.usage,
      firstTokenMs: null,
      retries: 0,
      toolCalls: [],
      sections: [],
      promptTokens: 0,
    },
  });
  return steps;
}

async function loadSteps(ctx: ServiceContext, agentId: string, runId: string) {
  requireScope(ctx, 'agents:read');
  const run = await findOwnRun(ctx, agentId, runId);
  const { runSteps, approvals } = ctx.deps.repositories;
  const [rows, asked, decision] = await Promise.all([
    runSteps.ofRun(run.id),
    approvals.ofRun(run.id),
    run.approval_id === null ? undefined : approvals.findById(run.approval_id),
  ]);
  return { run, read: readSteps(run, rows, asked, decision?.run_id ?? null) };
}

function contextTokensOf(read: ReadSteps): number | null {
  const model = read.begin?.exchange.model ?? [...read.models.values()][0]?.entry.model;
  return model === undefined ? null : contextWindowOf(model.provider, model.name);
}

export async function listRunSteps({
  ctx,
  agentId,
  runId,
}: {
  ctx: ServiceContext;
  agentId: string;
  runId: string;
}): Promise<RunStepsView> {
  const { run, read } = await loadSteps(ctx, agentId, runId);
  return {
    runId: run.id,
    agentVersion: runView(ctx, run).agentVersion,
    contextTokens: contextTokensOf(read),
    data: read.steps,
  };
}

/** A prompt message as the inspector shows it: its text as sent, tool calls and results named. */
function messageView(message: PromptMessage): RunStepPromptView['messages'] {
  if (message.role === 'user') {
    return [
      { role: 'user', text: message.content, ...(message.images?.length ? { images: message.images.length } : {}) },
    ];
  }
  if (message.role === 'assistant') {
    return [
      {
        role: 'assistant',
        text: message.content,
        ...(message.toolCalls?.length
          ? {
              toolCalls: message.toolCalls.map((call) => ({
                toolCallId: call.toolCallId,
                name: call.toolName,
                input: call.input,
              })),
            }
          : {}),
      },
    ];
  }
  return message.results.map((result) => ({
    role: 'tool' as const,
    text: typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? null),
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    isError: result.isError,
  }));
}

export async function getRunStepPrompt({
  ctx,
  agentId,
  runId,
  index,
}: {
  ctx: ServiceContext;
  agentId: string;
  runId: string;
  index: number;
}): Promise<RunStepPromptView> {
  const { run, read } = await loadSteps(ctx, agentId, runId);
  const model = read.models.get(index);
  const step = read.steps[index - 1];
  if (model === undefined || read.begin === null || step?.model === undefined) {
    throw notFound('Model step with a recorded prompt');
  }
  const { prompt } = read.begin;
  return {
    runId: run.id,
    index,
    model: model.entry.model,
    contextTokens: contextTokensOf(read),
    sections: step.model.sections,
    system: prompt.system,
    messages: [...prompt.messages, ...model.rounds].flatMap(messageView),
    tools: offeredTools(read.begin, model.entry.step).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
  };
}
