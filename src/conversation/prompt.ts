import type { Citation } from '../schemas/knowledge-bases.js';
import { fitHistoryStepped, type HistoryTurn, type StoredToolCall } from './history-window.js';
import { estimateMessageTokens, estimateTokens } from './tokens.js';
import {
  chooseRecalled,
  renderFacts,
  renderRecalled,
  renderSummary,
  type MemoryFactEntry,
  type PromptMemory,
  type RecalledTurn,
} from './memory/memory-prompt.js';

/**
 * Prompt assembly (contract §5), ordered for providers' prompt caches: what
 * changes least comes first and reads byte for byte the same from one call of
 * a conversation to the next. The system prompt holds the agent's character
 * (with its goals, expertise and system text), the room note, the summary and
 * the facts; then the recent history (a window that moves in steps, see
 * fitHistoryStepped); then the message itself, which alone carries what
 * changes with every message (knowledge found for it, recalled turns, the
 * request's context, unavailable tools) in a delimited block before the
 * user's text. Everything before the last message is a stable prefix.
 */

export interface Character {
  name: string;
  bio: string[];
  personality: { traits: string[]; style: string[]; tone: string | null };
  goals: { objectives: string[]; motivations: string[] };
  expertise: string[];
  system: string | null;
}

export interface KnowledgeEntry {
  title?: string;
  content: string;
}

/** A tool call the agent made earlier in the conversation or in this reply. */
export interface PromptToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What a tool gave back: its output (JSON or text), or the error the model is told. */
export interface PromptToolResult {
  toolCallId: string;
  toolName: string;
  output: unknown;
  isError: boolean;
  /** A person denied the call (or let it expire): `output` is what the model is told, the call never ran. */
  denied?: boolean;
}

/** An image sent with the message, as models are shown it (an image part after the text). */
export interface PromptImage {
  mediaType: string;
  bytes: Uint8Array;
  width: number | null;
  height: number | null;
}

export type PromptMessage =
  | { role: 'user'; content: string; images?: PromptImage[] }
  | { role: 'assistant'; content: string; toolCalls?: PromptToolCall[] }
  | { role: 'tool'; results: PromptToolResult[] };

export interface AssembledPrompt {
  /** What changes least: the same for every call of a conversation while the character, summary and facts are. */
  system: string;
  messages: PromptMessage[];
  /**
   * What changes with every message, rendered (knowledge, recalled turns, context, unavailable tools): they
   * travel in the last message, before the user's text (see messageWithNotes).
   */
  notes: string[];
  character: Character;
  knowledge: KnowledgeEntry[];
  context: Record<string, unknown> | null;
  /** The history that made it into the prompt, oldest first. */
  history: HistoryTurn[];
  message: { text: string; userId: string | null; images?: PromptImage[] };
  /** A room: several speakers, each user turn labelled with its userId. */
  shared: boolean;
  estimatedInputTokens: number;
  /** The knowledge-base chunks among `knowledge`, as replies cite them. */
  citations?: Citation[];
  /** What long-term memory put in the prompt, when the agent's memory is on. */
  memory?: { summary: string | null; facts: MemoryFactEntry[]; recalled: RecalledTurn[] };
}

export interface PromptInput {
  character: Character;
  knowledge: KnowledgeEntry[];
  context: Record<string, unknown> | null;
  /** Stored turns of the conversation, newest first. */
  history: readonly HistoryTurn[];
  message: { text: string; userId: string | null };
  shared: boolean;
  /** Tokens the whole prompt may take (the model's window less the answer's reserve). */
  budgetTokens: number;
  /** The most the recent turns may take (see historyTokensOf); absent: what the window leaves. */
  historyTokens?: number;
  /** Turns the history holds at most (as many as were read for it); absent: all of them. */
  maxHistoryTurns?: number;
  /** Long-term memory for this message: summary, facts, recall candidates and their budgets. */
  memory?: PromptMemory | null;
}

function list(items: string[]): string {
  return items.join('; ');
}

export function renderCharacter(character: Character): string {
  const lines = [`You are ${character.name}.`];
  if (character.bio.length > 0) lines.push(character.bio.join(' '));
  const { traits, style, tone } = character.personality;
  if (traits.length > 0) lines.push(`Your traits: ${list(traits)}.`);
  if (style.length > 0) lines.push(`Your style: ${list(style)}.`);
  if (tone) lines.push(`Your tone: ${tone}.`);
  if (character.goals.objectives.length > 0) lines.push(`Your objectives: ${list(character.goals.objectives)}.`);
  if (character.goals.motivations.length > 0) lines.push(`Your motivations: ${list(character.goals.motivations)}.`);
  if (character.expertise.length > 0) lines.push(`Your expertise: ${list(character.expertise)}.`);
  if (character.system) lines.push('', character.system);
  return lines.join('\n');
}

function renderKnowledge(knowledge: KnowledgeEntry[]): string {
  const items = knowledge.map((item) => `- ${item.title ? `${item.title}: ` : ''}${item.content}`);
  return `Knowledge relevant to this message (use it when it helps, do not invent beyond it):\n${items.join('\n')}`;
}

function renderContext(context: Record<string, unknown>): string {
  return `Context supplied with this message (JSON):\n${JSON.stringify(context)}`;
}

const notesTag = 'message-notes';
/** The notes' tag opened or closed, however written (`</Message-Notes >`): what a note or a user quotes of it. */
const notesTagWritten = /<(\s*\/?\s*)(message-notes)/gi;

/**
 * Text with every writing of the notes' tag broken (`<\message-notes`), so
 * that neither a note (a recalled turn, a knowledge item) nor what a user
 * writes can end agentd's block early or pass for one.
 */
function quoteNotesTags(text: string): string {
  return text.includes('<') ? text.replace(notesTagWritten, '<\\$1$2') : text;
}

/**
 * The last message of a prompt: the notes for this message in a tagged block,
 * then what the user wrote. The tag says the block is not the user's; a
 * closing tag inside a note (a recalled turn, a knowledge item) is broken so
 * the block cannot be ended early by what it quotes.
 */
export function messageWithNotes(notes: readonly string[], text: string): string {
  if (notes.length === 0) return text;
  const body = quoteNotesTags(notes.join('\n\n'));
  return (
    `<${notesTag}>\nNotes from agentd for this message only; they are not part of what the user wrote.\n\n` +
    `${body}\n</${notesTag}>\n\n${text}`
  );
}

/** How a stored turn reads in the prompt: in a room, user turns name their speaker; a tool turn is its call and result. */
export function renderTurn(
  turn: { role: 'user' | 'agent' | 'tool'; userId: string | null; text: string; tool?: StoredToolCall | null },
  shared: boolean,
): string {
  if (turn.role === 'tool') return turn.tool ? JSON.stringify(turn.tool) : '';
  if (turn.role !== 'user') return turn.text;
  const text = quoteNotesTags(turn.text);
  return shared && turn.userId !== null ? `[${turn.userId}] ${text}` : text;
}

/** The text a prompt message costs, for token estimates. */
export function promptMessageText(message: PromptMessage): string {
  if (message.role === 'user') return message.content;
  if (message.role === 'assistant') {
    return message.toolCalls ? `${message.content}${JSON.stringify(message.toolCalls)}` : message.content;
  }
  return JSON.stringify(message.results);
}

/** The tool calls of one step and their results, as the model saw them. */
export function toolStepMessages(calls: StoredToolCall[], text = ''): PromptMessage[] {
  return [
    {
      role: 'assistant',
      content: text,
      // Input that is not a JSON object (the model wrote broken JSON) goes back as {}: providers take objects
      // only, and the call's error result tells the model what was wrong.
      toolCalls: calls.map((call) => ({
        toolCallId: call.toolCallId,
        toolName: call.name,
        input: typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input) ? call.input : {},
      })),
    },
    {
      role: 'tool',
      results: calls.map((call) => ({
        toolCallId: call.toolCallId,
        toolName: call.name,
        output: call.error !== undefined ? call.error : (call.output ?? null),
        isError: call.error !== undefined,
        ...(call.approval !== undefined && call.approval.status !== 'approved' ? { denied: true } : {}),
      })),
    },
  ];
}

/** Stored turns as prompt messages: consecutive tool turns become one call-and-result step. */
function historyMessages(history: HistoryTurn[], shared: boolean): PromptMessage[] {
  const messages: PromptMessage[] = [];
  let calls: StoredToolCall[] = [];
  const flush = () => {
    if (calls.length > 0) messages.push(...toolStepMessages(calls));
    calls = [];
  };
  for (const turn of history) {
    if (turn.role === 'tool') {
      if (turn.tool) calls.push(turn.tool);
      continue;
    }
    flush();
    // An answer aborted before its first word has nothing to show the model.
    if (turn.text === '') continue;
    messages.push(
      turn.role === 'user'
        ? { role: 'user', content: renderTurn(turn, shared) }
        : { role: 'assistant', content: renderTurn(turn, shared) },
    );
  }
  flush();
  return messages;
}

export function assemblePrompt(input: PromptInput): AssembledPrompt {
  const sections = [renderCharacter(input.character)];
  if (input.shared) {
    sections.push(
      "This is a shared conversation with several people. Each of their messages starts with the speaker's id in brackets.",
    );
  }
  const memory = input.memory ?? null;
  if (memory?.summary) sections.push(renderSummary(memory.summary, memory.summaryTokens));
  if (memory && memory.facts.length > 0) sections.push(renderFacts(memory.facts, input.shared));
  const system = sections.join('\n\n');

  // The notes, in the order of how often they change: knowledge, then recalled turns, then the context.
  const notes: string[] = [];
  if (input.knowledge.length > 0) notes.push(renderKnowledge(input.knowledge));
  const context = input.context !== null && Object.keys(input.context).length > 0 ? renderContext(input.context) : null;
  const current = renderTurn({ role: 'user', ...input.message }, input.shared);
  // Recalled turns are chosen once the window is known (the window's own turns are not recalled), so their
  // budget is set aside first.
  const recallReserve = memory && memory.recalled.length > 0 ? memory.recallTokens : 0;
  const fixedTokens =
    estimateTokens(system) +
    estimateMessageTokens(messageWithNotes(context === null ? notes : [...notes, context], current)) +
    recallReserve;
  const historyBudget = Math.min(input.budgetTokens - fixedTokens, input.historyTokens ?? Number.POSITIVE_INFINITY);
  const history = fitHistoryStepped(
    input.history,
    historyBudget,
    input.maxHistoryTurns ?? input.history.length + 1,
    (turn) => renderTurn(turn, input.shared),
  );
  let recalled: RecalledTurn[] = [];
  if (recallReserve > 0 && memory) {
    const inWindow = new Set(history.flatMap((turn) => (turn.id === undefined ? [] : [turn.id])));
    recalled = chooseRecalled(memory.recalled, inWindow, memory.recallTokens);
    if (recalled.length > 0) notes.push(renderRecalled(recalled, input.shared));
  }
  if (context !== null) notes.push(context);

  const messages = historyMessages(history, input.shared);
  messages.push({ role: 'user', content: messageWithNotes(notes, current) });

  const estimatedInputTokens =
    estimateTokens(system) +
    messages.reduce((sum, message) => sum + estimateMessageTokens(promptMessageText(message)), 0);
  return {
    system,
    messages,
    notes,
    character: input.character,
    knowledge: input.knowledge,
    context: input.context,
    history,
    message: input.message,
    shared: input.shared,
    estimatedInputTokens,
    ...(memory ? { memory: { summary: memory.summary, facts: memory.facts, recalled } } : {}),
  };
}

/** What one image costs a vision model, roughly (a 1024×1024 image at high detail), for estimates only. */
const estimatedImageTokens = 800;

/** The prompt with the message's images: image parts of its last user message (the message itself). */
export function withImages(prompt: AssembledPrompt, images: PromptImage[]): AssembledPrompt {
  if (images.length === 0) return prompt;
  const messages = [...prompt.messages];
  const last = messages.at(-1);
  if (last?.role === 'user') messages[messages.length - 1] = { ...last, images };
  return {
    ...prompt,
    messages,
    message: { ...prompt.message, images },
    estimatedInputTokens: prompt.estimatedInputTokens + images.length * estimatedImageTokens,
  };
}

/**
 * The prompt with a note on the plugins whose tools could not be had for this
 * reply (an MCP server that is down), so the model can say so rather than
 * guess why a tool it was meant to have is missing.
 */
export function withUnavailableTools(prompt: AssembledPrompt, reasons: string[]): AssembledPrompt {
  const note = `Some of your tools are unavailable for this message:\n${reasons.map((reason) => `- ${reason}`).join('\n')}`;
  // Which tools are down changes from one message to the next: a note of the last message, not of the system prompt.
  const notes = [...prompt.notes, note];
  const messages = [...prompt.messages];
  const last = messages.at(-1);
  if (last?.role === 'user') {
    const current = renderTurn({ role: 'user', ...prompt.message }, prompt.shared);
    messages[messages.length - 1] = { ...last, content: messageWithNotes(notes, current) };
  }
  return {
    ...prompt,
    messages,
    notes,
    estimatedInputTokens: prompt.estimatedInputTokens + estimateTokens(note),
  };
}
