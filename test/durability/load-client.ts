import {
  fieldsOf,
  type AcknowledgedLedger,
  type AgentExpectation,
  type AgentFields,
  type CreateBody,
} from './acknowledged-ledger.js';
import { Unanswered, type AgentdClient } from './agentd-client.js';
import type { SeededRandom } from './seeded-random.js';
import { pngOfAbout, tinyPng } from '../helpers/images.js';

/** One round of load: shared by the clients, ended by the kill. */
export interface LoadRound {
  client: AgentdClient;
  ledger: AcknowledgedLedger;
  /** Called after every acknowledged write (the kill is decided here). */
  acknowledged(): void;
  /** Answers no client should ever get (a 5xx, a wrong status): the run fails on them. */
  unexpected: string[];
  /** Which client owns each agent: only its owner writes it, so its writes are ordered. */
  owners: Map<string, number>;
  /** Unique per run, so that every created agent's name is unique (duplicates are then visible). */
  nextNumber(): number;
}

const words = ['harbor', 'copper', 'lantern', 'meadow', 'quartz', 'willow', 'falcon', 'ember', 'glacier', 'orchid'];

/** Images some messages carry: stored with their turn (on SQLite as files beside the database). */
const images = [tinyPng(5, 4), pngOfAbout(96 * 1024), pngOfAbout(400 * 1024)].map((bytes) => ({
  bytes: bytes.length,
  data: bytes.toString('base64'),
}));

function userIdOf(agentId: string): string {
  return `reader-${agentId.slice(-6)}`;
}

/**
 * Runs one client's mixed load until the server dies under it: creates (half
 * with an Idempotency-Key), merge patches, messages (plain, some with an
 * image, and streamed),
 * deletes, a message racing a delete of its agent, and idempotent replays.
 * The write a kill cuts off is left in the ledger as pending.
 */
export async function runLoadClient(round: LoadRound, clientIndex: number, random: SeededRandom): Promise<void> {
  const { client, ledger, unexpected } = round;
  const own = () =>
    [...ledger.agents.values()].filter(
      (agent) => !agent.deleted && agent.pending === null && round.owners.get(agent.id) === clientIndex,
    );
  const expect = (what: string, status: number, answer: { status: number; body: unknown }) => {
    if (answer.status === status) return true;
    unexpected.push(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
    return false;
  };

  for (;;) {
    const agents = own();
    const agent = agents.length > 0 ? random.pick(agents) : null;
    const roll = random.next();
    try {
      if (agent === null || agents.length < 3 || roll < 0.2) await create();
      else if (roll < 0.45) await patch(agent);
      else if (roll < 0.75) await message(agent, random.chance(0.5));
      else if (roll < 0.85) await remove(agent);
      else if (roll < 0.9) await messageRacingDelete(agent);
      else await replay();
    } catch (error) {
      if (error instanceof Unanswered) return;
      throw error;
    }
  }

  async function create(): Promise<void> {
    const number = round.nextNumber();
    const word = random.pick(words);
    const body: CreateBody = {
      name: `durable-${number}`,
      bio: [`Agent number ${number}.`],
      knowledge: [`The ${word} code of agent ${number} is ${random.between(1000, 9999)}.`, `It likes ${word}s.`],
      metadata: { created: String(number) },
    };
    const key = random.chance(0.5) ? `create-${number}-${random.between(0, 1e9)}` : null;
    let answer;
    try {
      answer = await client.request('POST', '/v1/agents', body, key ? { 'idempotency-key': key } : {});
    } catch (error) {
      if (error instanceof Unanswered && key !== null) ledger.unansweredCreates.push({ key, body });
      throw error;
    }
    if (!expect('create', 201, answer)) return;
    round.owners.set(answer.body.id, clientIndex);
    ledger.created(answer.body.id, fieldsOf(answer.body), key ? { key, body } : null);
    round.acknowledged();
  }

  async function patch(agent: AgentExpectation): Promise<void> {
    const number = round.nextNumber();
    const body: Record<string, unknown> = { bio: [`Patched as ${number}.`], metadata: { step: String(number) } };
    if (random.chance(0.4)) body.knowledge = [`Fact ${number}: the ${random.pick(words)} is ${number % 97}.`];
    if (random.chance(0.2)) body.status = agent.fields.status === 'active' ? 'inactive' : 'active';
    const fields: AgentFields = {
      ...agent.fields,
      bio: body.bio as string[],
      metadata: { ...agent.fields.metadata, step: String(number) },
      knowledge: (body.knowledge as string[] | undefined) ?? agent.fields.knowledge,
      status: (body.status as string | undefined) ?? agent.fields.status,
    };
    agent.pending = { kind: 'patch', fields };
    const answer = await client.request('PATCH', `/v1/agents/${agent.id}`, body);
    agent.pending = null;
    if (!expect('patch', 200, answer)) return;
    agent.fields = fieldsOf(answer.body);
    ledger.acknowledged.patches += 1;
    round.acknowledged();
  }

  async function message(agent: AgentExpectation, streamed: boolean): Promise<void> {
    if (agent.fields.status !== 'active') return;
    const userId = userIdOf(agent.id);
    const text = `Question ${round.nextNumber()}: what is the ${random.pick(words)} code?`;
    const image = !streamed && random.chance(0.5) ? random.pick(images) : null;
    agent.pending = { kind: 'message', userId, userText: text };
    const answer = streamed
      ? await client.streamedMessage(agent.id, { text, userId })
      : await client.request('POST', `/v1/agents/${agent.id}/messages`, {
          text,
          userId,
          ...(image ? { attachments: [{ type: 'image', data: image.data }] } : {}),
        });
    agent.pending = null;
    if (!expect(streamed ? 'streamed message' : 'message', 200, answer)) return;
    agent.replies.push({
      replyId: answer.body.id,
      userId,
      userText: text,
      replyText: answer.body.text,
      createdAt: answer.body.createdAt,
      imageBytes: image?.bytes ?? null,
    });
    ledger.acknowledged.messages += 1;
    round.acknowledged();
  }

  async function remove(agent: AgentExpectation): Promise<void> {
    agent.pending = { kind: 'delete' };
    const answer = await client.request('DELETE', `/v1/agents/${agent.id}`);
    agent.pending = null;
    if (!expect('delete', 200, answer)) return;
    agent.deleted = true;
    ledger.acknowledged.deletes += 1;
    round.acknowledged();
  }

  /**
   * A streamed message and the delete of its agent at once: whichever
   * commits last, the deleted agent must leave no conversation behind.
   */
  async function messageRacingDelete(agent: AgentExpectation): Promise<void> {
    if (agent.fields.status !== 'active') return remove(agent);
    const userId = userIdOf(agent.id);
    const text = `Last question ${round.nextNumber()}?`;
    agent.pending = { kind: 'delete' };
    const [messaged, deleted] = await Promise.allSettled([
      client.streamedMessage(agent.id, { text, userId }),
      client.request('DELETE', `/v1/agents/${agent.id}`),
    ]);
    if (deleted.status === 'rejected') throw deleted.reason;
    agent.pending = null;
    if (!expect('delete racing a message', 200, deleted.value)) return;
    agent.deleted = true;
    ledger.acknowledged.deletes += 1;
    round.acknowledged();
    // The message may have been refused (404), answered, or cut off; after the delete it must be gone either way.
    if (messaged.status === 'fulfilled' && ![200, 404].includes(messaged.value.status)) {
      unexpected.push(`message racing a delete: ${messaged.value.status} ${JSON.stringify(messaged.value.body)}`);
    }
  }

  async function replay(): Promise<void> {
    const keyed = [...ledger.agents.values()].filter(
      (agent) => agent.idempotency !== null && round.owners.get(agent.id) === clientIndex,
    );
    if (keyed.length === 0) return create();
    const agent = random.pick(keyed);
    const answer = await client.request('POST', '/v1/agents', agent.idempotency!.body, {
      'idempotency-key': agent.idempotency!.key,
    });
    if (!expect('idempotent replay', 201, answer)) return;
    if (answer.body.id !== agent.id) {
      unexpected.push(`idempotent replay of ${agent.idempotency!.key} answered ${answer.body.id}, not ${agent.id}`);
    }
    ledger.acknowledged.replays += 1;
    round.acknowledged();
  }
}
