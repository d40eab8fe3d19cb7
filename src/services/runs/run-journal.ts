import { isoTime, type Clock } from '../../clock.js';
import type { StoredToolCall } from '../../conversation/history-window.js';
import { toolStepMessages, type AssembledPrompt, type PromptMessage } from '../../conversation/prompt.js';
import { addUsage, type FinishReason, type TokenUsage } from '../../providers/model-adapter.js';
import type { NewRunStep, RunStepRepository, RunStepRow } from '../../storage/repositories/run-steps.js';
import type { PausedCall, ToolDecision } from '../approvals/paused-state.js';
import type { Exchange } from '../messages/exchange-store.js';

/**
 * A run's journal (docs/architecture.md, "The run's life"): what the run's one
 * owner records as each step completes, in order —
 *
 * - `begin`: what the reply started from (the exchange's ids, the prompt as
 *   sent, and for a reply resumed after approvals the round it resumed);
 *   written with the run's first durable entry;
 * - `model`: a model step's full result (its text, finish, usage and the tool
 *   calls it asked for);
 * - `tool-started`: the intent of a call with side effects, written before it
 *   runs; `tool-intent`, what the call recorded to make its outcome knowable
 *   (a transaction's hash) before it acted;
 * - `tool`: a call's result (or error), written as it ends.
 *
 * A step that further work depends on is written before that work begins
 * (`now`): a model step that asked for tools before they run, a call's intent
 * before the call, its result before the next step. The last model step of a
 * reply is written with the flush after the reply is stored (`later`): the
 * stored reply already makes it durable, and the message path pays no commit
 * for it (nor the prompt's serialisation: a deferred `begin` is serialised
 * when written). A reply answered in one model step has nothing durable before
 * its end, so a takeover before it ended begins it again. Another instance
 * continues a run from this record (`replay`); the run's steps
 * (GET …/runs/{runId}/steps) are read from it.
 */

/** The exchange as the journal keeps it: its ids and what it answers, without what lives in memory only. */
export type JournalExchange = Omit<Exchange, 'spend' | 'keptImages' | 'attachments' | 'startedTick' | 'streamed'>;

/** The round a reply resumed after approvals went on with (its calls' results and decisions). */
export interface JournalBase {
  steps: PromptMessage[];
  stepText: string;
  calls: Array<PausedCall & { decision?: ToolDecision }>;
  step: number;
}

/** A tool as the model was offered it. */
export interface OfferedTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

export interface BeginEntry {
  version: 1;
  exchange: JournalExchange;
  prompt: AssembledPrompt;
  base: JournalBase | null;
  /** The tools offered, and the step past which they no longer are; absent in entries written before. */
  tools?: { offered: OfferedTool[]; maxSteps: number } | null;
}

export interface ModelStepEntry {
  step: number;
  /** What the model said in this step. */
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
  calls: Array<{ toolCallId: string; toolName: string; input: string }>;
  model: { provider: string; name: string };
  /** Milliseconds from the step's model call (before any retry) to its end. */
  durationMs: number;
  /** When the model call was made; absent in entries written before it was recorded. */
  startedAt?: string;
  /** Milliseconds from the call to the answer's first part. */
  firstTokenMs?: number;
  /** Attempts that failed before the one that answered. */
  retries?: number;
}

export interface ToolStartedEntry {
  toolCallId: string;
  name: string;
  input: string;
}

export interface ToolIntentEntry {
  toolCallId: string;
  /** What the tool recorded to make its outcome knowable (ToolCallContext.recordIntent). */
  detail: Record<string, unknown>;
}

export interface ToolEntry {
  call: StoredToolCall;
}

export type JournalEntry =
  | { kind: 'begin'; data: BeginEntry }
  | { kind: 'model'; data: ModelStepEntry }
  | { kind: 'tool-started'; data: ToolStartedEntry }
  | { kind: 'tool-intent'; data: ToolIntentEntry }
  | { kind: 'tool'; data: ToolEntry };

/** Where the journal's deferred entries go: the run runtime writes them with its next flush. */
export interface JournalSink {
  queueSteps(steps: NewRunStep[]): void;
}

/** Uint8Array (a prompt's images) as base64 in JSON, and back. */
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { $bytes?: unknown }).$bytes === 'string') {
    const keys = Object.keys(value);
    if (keys.length === 1) return new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64'));
  }
  return value;
}

export function parseEntry(row: Pick<RunStepRow, 'kind' | 'data'>): JournalEntry {
  return { kind: row.kind, data: JSON.parse(row.data, reviver) } as JournalEntry;
}

export class RunJournal {
  #seq: number;
  #begun: boolean;
  /** Writes of `now`, one after another, so entries are committed in order. */
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly runId: string,
    private readonly steps: RunStepRepository,
    private readonly sink: JournalSink,
    private readonly clock: Clock,
    private readonly begin: () => BeginEntry,
    /** A continued run's journal goes on after its last entry. */
    after: number = 0,
  ) {
    this.#seq = after;
    this.#begun = after > 0;
  }

  #rows(entry: JournalEntry): NewRunStep[] {
    const rows: NewRunStep[] = [];
    if (!this.#begun) {
      this.#begun = true;
      this.#seq += 1;
      // Serialised when written: for an entry written later, off the reply's path.
      const begin = this.begin;
      rows.push({ runId: this.runId, seq: this.#seq, kind: 'begin', data: () => JSON.stringify(begin(), replacer) });
    }
    this.#seq += 1;
    rows.push({ runId: this.runId, seq: this.#seq, kind: entry.kind, data: JSON.stringify(entry.data, replacer) });
    return rows;
  }

  /** Whether anything of the run is (or is being) recorded. */
  get begun(): boolean {
    return this.#begun;
  }

  /** Records the entry durably before the caller goes on. */
  now(entry: JournalEntry): Promise<void> {
    const rows = this.#rows(entry);
    const write = this.#writing.then(() => this.steps.append(rows, isoTime(this.clock.now())));
    this.#writing = write.catch(() => undefined);
    return write;
  }

  /** Records the entry with the runtime's next flush. */
  later(entry: JournalEntry): void {
    this.sink.queueSteps(this.#rows(entry));
  }
}

/** What the run had done, replayed from its journal: where its continuation starts. */
export interface Replayed {
  begin: BeginEntry;
  /** The journal's last sequence number: the continuation's entries follow it. */
  lastSeq: number;
  /** Tool rounds before `round`, as the model was shown them. */
  steps: PromptMessage[];
  /** The last round: the model step and its calls, each with its result, its intent, its decision. */
  round: {
    step: number;
    stepText: string;
    calls: Array<PausedCall & { decision?: ToolDecision; started?: boolean; intent?: Record<string, unknown> }>;
  } | null;
  /** The reply's text, tool calls and usage over the run's completed model steps. */
  text: string;
  toolCalls: StoredToolCall[];
  usage: TokenUsage;
  /** The last model step asked for no tools: the reply is complete, with this finish. */
  final: FinishReason | null;
  /** Completed model steps. */
  modelSteps: number;
}

/** The run's state after its journal's entries; null when it has none (nothing durable happened: begin again). */
export function replay(rows: readonly RunStepRow[]): Replayed | null {
  const entries = rows.map(parseEntry);
  const first = entries[0];
  if (first === undefined || first.kind !== 'begin') return null;
  const begin = first.data;
  const steps: PromptMessage[] = [...(begin.base?.steps ?? [])];
  let round: Replayed['round'] = begin.base
    ? { step: begin.base.step, stepText: begin.base.stepText, calls: begin.base.calls.map((call) => ({ ...call })) }
    : null;
  let text = '';
  const toolCalls: StoredToolCall[] = [];
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let final: FinishReason | null = null;
  let modelSteps = 0;
  for (const entry of entries.slice(1)) {
    if (entry.kind === 'model') {
      if (round !== null) {
        steps.push(
          ...toolStepMessages(
            round.calls.map((call) => call.result as StoredToolCall),
            round.stepText,
          ),
        );
      }
      const { data } = entry;
      round = { step: data.step, stepText: data.text, calls: data.calls.map((call) => ({ ...call })) };
      text += data.text;
      usage = addUsage(usage, data.usage);
      final = data.calls.length === 0 ? data.finishReason : null;
      modelSteps += 1;
    } else if (entry.kind === 'tool-intent') {
      const call = round?.calls.find((each) => each.toolCallId === entry.data.toolCallId && each.result === undefined);
      if (call !== undefined) call.intent = entry.data.detail;
    } else if (entry.kind === 'tool-started' || entry.kind === 'tool') {
      const id = entry.kind === 'tool' ? entry.data.call.toolCallId : entry.data.toolCallId;
      const call = round?.calls.find((each) => each.toolCallId === id && each.result === undefined);
      if (entry.kind === 'tool') {
        toolCalls.push(entry.data.call);
        if (call !== undefined) call.result = entry.data.call;
      } else if (call !== undefined) {
        call.started = true;
      }
    }
  }
  return {
    begin,
    lastSeq: rows.length === 0 ? 0 : (rows[rows.length - 1] as RunStepRow).seq,
    steps,
    round,
    text,
    toolCalls,
    usage,
    final,
    modelSteps,
  };
}
