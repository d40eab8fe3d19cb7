import type { AssembledPrompt } from '../../conversation/prompt.js';
import { estimateTokens } from '../../conversation/tokens.js';
import type { ProviderName } from '../../providers/catalog.js';
import { ProviderError } from '../../providers/provider-error.js';
import type { ServiceDeps } from '../context.js';
import type { Score } from './scorers.js';

/** Marks the judge's prompts, so that a test provider can tell them from a case's replies. */
export const judgeTask = 'agentd-eval-judge';

/** The model that scores rubric scorers; `apiKey` only when it is the agent's own model with its own key. */
export interface JudgeModel {
  provider: string;
  model: string;
  apiKey?: string;
}

export interface RubricCase {
  messages: readonly string[];
  text: string;
  criteria: string;
  minScore: number;
}

const maxReplyChars = 16_000;

function judgePrompt(rubric: RubricCase): AssembledPrompt {
  const system =
    `${judgeTask}\nYou grade the reply of an AI agent against criteria. Answer with JSON only: ` +
    '{"score": <a number from 0 to 1>, "reason": "<one or two sentences>"}. 1 means the reply fully meets the ' +
    'criteria, 0 that it does not meet them at all.';
  const reply = rubric.text.length > maxReplyChars ? `${rubric.text.slice(0, maxReplyChars)}…` : rubric.text;
  const text =
    `Criteria:\n${rubric.criteria}\n\nThe user's messages:\n${rubric.messages.map((message, index) => `${index + 1}. ${message}`).join('\n')}` +
    `\n\nThe agent's last reply:\n${reply}`;
  return {
    system,
    messages: [{ role: 'user', content: text }],
    notes: [],
    character: {
      name: 'judge',
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

/** The judge's `{score, reason}`, read from its answer (a fenced block or the first JSON object in it). */
export function verdictOf(answer: string): { score: number; reason: string } | null {
  const candidates = [
    answer.trim(),
    /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(answer)?.[1],
    /\{[\s\S]*\}/.exec(answer)?.[0],
  ];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    try {
      const parsed = JSON.parse(candidate) as { score?: unknown; reason?: unknown };
      if (typeof parsed.score !== 'number' || !Number.isFinite(parsed.score)) continue;
      const reason = typeof parsed.reason === 'string' ? parsed.reason.slice(0, 2000) : '';
      return { score: Math.min(1, Math.max(0, parsed.score)), reason };
    } catch {
      // The next candidate.
    }
  }
  return null;
}

/**
 * Asks the judge model for a rubric's score through the model gateway (its
 * time-outs and retries; as background work, so a failing judge never opens
 * the circuit the agent's replies use). An answer that is not the JSON asked
 * for scores 0 and says so; so does a judge that could not be reached.
 */
export async function judgeRubric(
  deps: ServiceDeps,
  judge: JudgeModel,
  rubric: RubricCase,
  signal: AbortSignal,
): Promise<Score> {
  let answer = '';
  try {
    const stream = await deps.models.open(
      judge.provider as ProviderName,
      {
        modelName: judge.model,
        settings: { temperature: 0, maxOutputTokens: 400 },
        ...(judge.apiKey !== undefined ? { apiKey: judge.apiKey } : {}),
        prompt: judgePrompt(rubric),
        watched: false,
      },
      signal,
      { background: true },
    );
    try {
      let part = stream.first;
      while (part.type !== 'finish') {
        if (part.type === 'text-delta') answer += part.text;
        const next = await stream.next();
        if (next === null)
          throw new ProviderError('unavailable', 'The provider ended its answer without finishing it.');
        part = next;
      }
    } finally {
      stream.close();
    }
  } catch (error) {
    if (signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return { type: 'rubric', score: 0, passed: false, reason: `The judge could not be asked: ${reason}` };
  }
  const verdict = verdictOf(answer);
  if (verdict === null) {
    return {
      type: 'rubric',
      score: 0,
      passed: false,
      reason: `The judge's answer was not the JSON {score, reason} asked for: ${JSON.stringify(answer.slice(0, 200))}`,
    };
  }
  return {
    type: 'rubric',
    score: verdict.score,
    passed: verdict.score >= rubric.minScore,
    reason: verdict.reason || `Scored ${verdict.score} by the judge.`,
  };
}
