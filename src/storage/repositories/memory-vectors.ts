import { sql, type Kysely } from 'kysely';
import type { Database, Dialect, Executor } from '../schema.js';
import type { TurnFilter } from './messages.js';
import type { RecalledTurnRow } from './memory.js';
import { VectorIndex, type VectorIndexLayout } from './vector-index.js';

/**
 * How a turn's vector names its turn: the turn's rowid on SQLite (vec0 keys
 * by integer), its id on PostgreSQL.
 */
export type TurnVectorKey = number | string;

/**
 * Vectors of conversation turns (`memory_vectors_<dimensions>`), partitioned
 * by the conversation's scope (agent and conversation), so a search only ever
 * compares the turns of one conversation.
 *
 * On SQLite the key is `messages.rowid`, as for the full-text index of
 * migration 0009 (only a VACUUM would renumber it, and agentd never runs
 * one); the vectors of deleted turns are deleted with them, by the services
 * that delete turns (vec0 tables take no foreign key or trigger from here).
 * On PostgreSQL `messages` has no integer key: the vector is keyed by the
 * message id, a foreign key with `on delete cascade`, so whatever deletes
 * turns (forgetting a conversation, one user's turns of a room, an agent)
 * deletes their vectors in the same transaction, and a vector can never
 * outlive its turn or be stored for a turn already deleted. Each conversation
 * is searched exactly through a b-tree on the scope: conversations are
 * thousands of turns at most, and an HNSW index over all of them would filter
 * after its scan and miss the one conversation's turns.
 */
export const turnVectorLayout: VectorIndexLayout = {
  prefix: 'memory_vectors',
  partition: 'scope',
  postgres: {
    key: 'message_id',
    keyDefinition: 'text collate "C" primary key references messages (id) on delete cascade',
    keyType: 'text',
    search: 'exact',
  },
};

/** The newest turns of a conversation that get vectors (see `unembedded`). */
export const embeddableTurns = 500;

/** Every search and write names its conversation by this one value. */
const scopeOf = (agentId: string, conversation: string) => `${agentId} ${conversation}`;

export interface UnembeddedTurn {
  key: TurnVectorKey;
  text: string;
}

export class MemoryVectorRepository {
  readonly index: VectorIndex<TurnVectorKey>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    dimensions: number,
  ) {
    this.index = new VectorIndex<TurnVectorKey>(db, dialect, dimensions, turnVectorLayout);
  }

  get #table() {
    return sql.table(this.index.table);
  }

  /** The message column a vector's key is. */
  get #messageKey() {
    return sql.raw(this.dialect === 'sqlite' ? 'turn.rowid' : 'turn.id');
  }

  get #vectorKey() {
    return sql.raw(this.dialect === 'sqlite' ? 'vector.rowid' : 'vector.message_id');
  }

  async ensure(): Promise<void> {
    await this.index.ensure();
  }

  /**
   * Among the conversation's newest `embeddableTurns` user and agent turns
   * (not tool turns, not empty ones), those that have no vector yet, newest
   * first. A left join rather than a marker: a turn stored late (a slow
   * exchange finishing after a quicker one, with the lower id) or while the
   * embedding provider was down is found whatever its id. The bound keeps
   * the check cheap: each turn's is a lookup in the vector table (about 8 µs
   * in a vec0 table, synchronous on SQLite), so older turns of a long
   * conversation are not backfilled; full text still finds them.
   */
  async unembedded(agentId: string, conversation: string, limit: number): Promise<UnembeddedTurn[]> {
    const { rows } = await sql<{ key: TurnVectorKey; text: string }>`
      select turn.key, turn.text from (
        select ${sql.raw(this.dialect === 'sqlite' ? 'rowid' : 'id')} as key, id, text from messages
        where agent_id = ${agentId} and conversation = ${conversation} and role <> 'tool' and text <> ''
        order by id desc
        limit ${embeddableTurns}
      ) as turn
      where not exists (select 1 from ${this.#table} as vector where ${this.#vectorKey} = turn.key)
      order by turn.id desc
      limit ${limit}`.execute(this.db);
    return rows.map((row) => ({ key: this.dialect === 'sqlite' ? Number(row.key) : row.key, text: row.text }));
  }

  /**
   * Stores the vectors of turns still present in the conversation (one
   * forgotten while it was embedded gets none). SQLite's transactions are
   * serial, so no delete can come between the check and the insert; on
   * PostgreSQL the check locks the turns it finds (see `#lockInIdOrder`), so a
   * delete waits for the insert and takes the new vectors with their turns.
   */
  async store(
    agentId: string,
    conversation: string,
    vectors: ReadonlyArray<{ key: TurnVectorKey; vector: readonly number[] }>,
  ): Promise<void> {
    if (vectors.length === 0) return;
    await this.db.transaction().execute(async (transaction) => {
      const present = await this.#presentKeys(
        agentId,
        conversation,
        vectors.map((row) => row.key),
        transaction,
      );
      const scope = scopeOf(agentId, conversation);
      await this.index.insert(
        vectors.filter((row) => present.has(row.key)).map((row) => ({ ...row, partition: scope })),
        transaction,
      );
    });
  }

  /**
   * On PostgreSQL the turns the vectors will refer to are locked (as their
   * foreign key would) in id order, the order in which deleting turns locks
   * them (`MessageRepository.deleteTurns`): the foreign key's own checks take
   * them in the insert's order, and a delete meanwhile could then deadlock.
   */
  get #lockInIdOrder() {
    return sql.raw(this.dialect === 'postgres' ? ' order by turn.id for key share' : '');
  }

  async #presentKeys(
    agentId: string,
    conversation: string,
    keys: readonly TurnVectorKey[],
    executor: Executor,
  ): Promise<Set<TurnVectorKey>> {
    const { rows } = await sql<{ key: TurnVectorKey }>`
      select ${this.#messageKey} as key from messages as turn
      where turn.agent_id = ${agentId} and turn.conversation = ${conversation}
        and ${this.#messageKey} in (${sql.join(keys)})${this.#lockInIdOrder}`.execute(executor);
    return new Set(rows.map((row) => (this.dialect === 'sqlite' ? Number(row.key) : row.key)));
  }

  /**
   * The conversation's turns nearest to `vector`, nearest first. The turns
   * are read back by key within the same conversation: a key whose turn is
   * gone (deleted between the search and the read) is skipped.
   */
  async nearest(
    agentId: string,
    conversation: string,
    vector: readonly number[],
    limit: number,
  ): Promise<RecalledTurnRow[]> {
    const matches = await this.index.search([scopeOf(agentId, conversation)], vector, limit);
    if (matches.length === 0) return [];
    const { rows } = await sql<RecalledTurnRow & { key: TurnVectorKey }>`
      select ${this.#messageKey} as key, turn.id, turn.role, turn.user_id, turn.text from messages as turn
      where turn.agent_id = ${agentId} and turn.conversation = ${conversation}
        and ${this.#messageKey} in (${sql.join(matches.map((match) => match.key))})`.execute(this.db);
    const byKey = new Map(rows.map(({ key, ...turn }) => [this.dialect === 'sqlite' ? Number(key) : key, turn]));
    return matches.flatMap((match) => byKey.get(match.key) ?? []);
  }

  /**
   * Deletes the vectors of the turns `filter` names (call before deleting the
   * turns, in the same transaction). Nothing to do on PostgreSQL, where the
   * foreign key deletes them with their turns.
   */
  async deleteTurns(agentId: string, filter: TurnFilter, executor: Executor): Promise<void> {
    if (this.dialect !== 'sqlite') return;
    let turns = executor
      .selectFrom('messages')
      .select(sql<number>`rowid`.as('key'))
      .where('agent_id', '=', agentId)
      .where('role', '<>', 'tool')
      .where('text', '<>', '');
    if (filter.conversation !== undefined) turns = turns.where('conversation', '=', filter.conversation);
    if (filter.userId !== undefined) turns = turns.where('user_id', '=', filter.userId);
    const rows = await turns.execute();
    await this.index.delete(
      rows.map((row) => Number(row.key)),
      executor,
    );
  }

  async deleteForAgent(agentId: string, executor: Executor): Promise<void> {
    await this.deleteTurns(agentId, {}, executor);
  }
}
