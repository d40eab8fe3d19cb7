import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { AssembledPrompt } from '../../conversation/prompt.js';
import type { ExtractedFact } from '../../conversation/memory/fact-patterns.js';
import { cutToTokens } from '../../conversation/memory/memory-prompt.js';
import type { SummaryTurn } from '../../conversation/memory/extractive-summary.js';
import { estimateTokens } from '../../conversation/tokens.js';
import type { ProviderName } from '../../providers/catalog.js';
import type { ModelGateway } from '../../providers/model-gateway.js';
import { ProviderError } from '../../providers/provider-error.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { AgentRecord } from '../../storage/repositories/agents.js';

/**
 * Memory work done by the agent's own model: folding turns into the summary
 * and extracting facts from a message. Calls go through the model gateway as
 * background work (time-outs and retries apply; the circuit breaker is obeyed
 * but not fed). Prompts are marked so a test provider can tell them apart.
 */
export const summaryTask = 'agentd-memory-task: summary';
export const factsTask = 'agentd-memory-task: facts';

/** The longest a model's fact list is read, per message of the batch: anything past it is not a short answer. */
const maxFactsPerMessage = 10;

function taskPrompt(agent: AgentRecord, system: string, text: string): AssembledPrompt {
  const messages = [{ role: 'user' as const, content: text }];
  return {
    system,
    messages,
    notes: [],
    character: {
      name: agent.name,
      bio: [],
      personality: { traits: [], style: [], tone: null },
      goals: { objectives: [], motivations: [] },
      expertise: [],
      system: null,
    },
    knowledge: [],
    context: null,
    history: [],
    message: { text, userId: null },
    shared: false,
    estimatedInputTokens: estimateTokens(system) + estimateTokens(text),
  };
}

/** The model's whole text answer to a one-off task. */
async function complete(
  models: ModelGateway,
  secretBox: SecretBox,
  agent: AgentRecord,
  prompt: AssembledPrompt,
  maxOutputTokens: number,
  signal: AbortSignal,
): Promise<string> {
  const { provider, name, apiKey } = agent.profile.model;
  const stream = await models.open(
    provider as ProviderName,
    {
      modelName: name,
      settings: { temperature: 0, maxOutputTokens },
      ...(apiKey ? { apiKey: secretBox.open(apiKey.sealed, agent.id) } : {}),
      prompt,
      watched: false,
    },
    signal,
    { background: true },
  );
  let text = '';
  try {
    let part = stream.first;
    while (part.type !== 'finish') {
      if (part.type === 'text-delta') text += part.text;
      const next = await stream.next();
      if (next === null) throw new ProviderError('unavailable', 'The provider ended its answer without finishing it.');
      part = next;
    }
  } finally {
    stream.close();
  }
  return text.trim();
}

export async function summarizeWithModel(
  models: ModelGateway,
  secretBox: SecretBox,
  agent: AgentRecord,
  previous: string,
  turns: readonly SummaryTurn[],
  shared: boolean,
  budgetTokens: number,
  signal: AbortSignal,
): Promise<string> {
  const system =
    `${summaryTask}\nYou keep the running summary of a conversation between an AI agent named ${agent.name} and ` +
    (shared ? 'several people (each named by id). ' : 'a user. ') +
    'Rewrite the summary so that it also covers the new turns. Keep names, facts about the people, decisions, ' +
    `commitments and open questions; drop small talk. At most ${Math.max(20, Math.floor(budgetTokens * 0.7))} words. ` +
    'Answer with the summary only.';
  const rendered = turns
    .map((turn) => `${turn.role === 'agent' ? agent.name : shared && turn.userId ? turn.userId : 'user'}: ${turn.text}`)
    .join('\n');
  const text = `Summary so far:\n${previous || '(none)'}\n\nNew turns:\n${cutToTokens(rendered, 6_000)}`;
  const answer = await complete(models, secretBox, agent, taskPrompt(agent, system, text), budgetTokens + 50, signal);
  return cutToTokens(answer, budgetTokens);
}

const ModelFacts = Type.Object({
  facts: Type.Array(
    Type.Object({
      message: Type.Optional(Type.Integer()),
      subject: Type.String({ minLength: 1, maxLength: 100 }),
      statement: Type.String({ minLength: 1, maxLength: 500 }),
    }),
  ),
});

/** A fact the model found, with the position (0-based) of the message of the batch it came from. */
export interface BatchFact extends ExtractedFact {
  message: number;
}

/** A subject as the API shows it: lower-case words; anything else is made so. */
function normalizedSubject(subject: string): string {
  return subject
    .toLowerCase()
    .replace(/[^a-z0-9_:. -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 100);
}

/**
 * The facts in a model's answer about a batch of `messages` messages, or none
 * when it is not the JSON that was asked for. A fact that names no message of
 * the batch (or none at all) is the last message's: the batch is one user's,
 * and the latest thing they said is the one to source it to.
 */
export function factsFromAnswer(answer: string, messages = 1): BatchFact[] {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end <= start) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return [];
  }
  if (!Value.Check(ModelFacts, parsed)) return [];
  const facts = (parsed as Static<typeof ModelFacts>).facts.slice(0, maxFactsPerMessage * messages);
  const found = facts.flatMap((fact) => {
    const subject = normalizedSubject(fact.subject);
    const statement = fact.statement.replace(/\s+/g, ' ').trim();
    const message =
      fact.message !== undefined && fact.message >= 1 && fact.message <= messages ? fact.message - 1 : messages - 1;
    return subject === '' || statement === '' ? [] : [{ subject, statement, message }];
  });
  // In the order the user said them: a later message on the same subject replaces an earlier one.
  return found.sort((left, right) => left.message - right.message);
}

/** The most of a batch's text one call reads; the batch is split so that each part fits. */
export const factBatchTokens = 6_000;
/** The most of one message a call reads: a message's beginning says what it is about. */
export const factMessageTokens = 2_000;

/**
 * Extracts the facts a user states about themselves in a batch of their
 * messages, in one model call. The messages are numbered so each fact names
 * the one it came from.
 */
export async function extractFactsWithModel(
  models: ModelGateway,
  secretBox: SecretBox,
  agent: AgentRecord,
  messages: readonly string[],
  known: ReadonlyArray<{ subject: string; statement: string }>,
  signal: AbortSignal,
): Promise<BatchFact[]> {
  const system =
    `${factsTask}\nYou extract lasting facts a user states about themselves (name, where they live, job, ` +
    'preferences, constraints) from their numbered messages. Answer with JSON only: ' +
    '{"facts":[{"message":1,"subject":"name","statement":"name is Ana"}]}. `message` is the number of the ' +
    'message the fact comes from; `subject` is a short lower-case key (name, location, occupation, ' +
    'preference:units, …); reuse the subject of a known fact a message changes. Leave out questions, guesses ' +
    'and anything about other people. No facts: {"facts":[]}.' +
    (known.length > 0
      ? `\nKnown facts:\n${known
          .slice(0, 50)
          .map((fact) => `- ${fact.subject}: ${fact.statement}`)
          .join('\n')}`
      : '');
  const text = messages.map((message, index) => `[${index + 1}] ${cutToTokens(message, factMessageTokens)}`).join('\n');
  const answer = await complete(
    models,
    secretBox,
    agent,
    taskPrompt(agent, system, text),
    Math.min(4_000, 150 + 250 * messages.length),
    signal,
  );
  return factsFromAnswer(answer, messages.length);
}
