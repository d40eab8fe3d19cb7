import type { AgentRecord } from '../../storage/repositories/agents.js';
import type { MemoryJob, MemoryWorkDeps } from './update-conversation-memory.js';

/** Turns embedded per pass: one request to the provider (or a few, as the adapter batches). */
const turnsPerPass = 64;
/**
 * The part of a long turn that is embedded: about 2,000 tokens, within every
 * common embedding model's input limit (8,191 tokens for OpenAI's); a turn's
 * beginning says what it is about.
 */
const maxEmbeddedCharacters = 8_000;

/**
 * Gives the conversation's turns that have none a vector, newest first, in
 * one batch; true when more are waiting. The turns without a vector are found
 * by a left join, not a marker, so a failed call (the provider down) leaves
 * nothing behind: they are found again by the next pass.
 */
export async function embedTurns(
  deps: MemoryWorkDeps,
  agent: AgentRecord,
  job: MemoryJob,
  signal: AbortSignal,
): Promise<boolean> {
  const vectors = deps.repositories.memoryVectors;
  if (deps.embeddings === null || vectors === null) return false;
  const turns = await vectors.unembedded(agent.id, job.conversation, turnsPerPass);
  if (turns.length === 0) return false;
  const embedded = await deps.embeddings.embed(
    turns.map((turn) => turn.text.slice(0, maxEmbeddedCharacters)),
    signal,
  );
  await vectors.store(
    agent.id,
    job.conversation,
    turns.map((turn, index) => ({ key: turn.key, vector: embedded[index] as number[] })),
  );
  return turns.length === turnsPerPass;
}
