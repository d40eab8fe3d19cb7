import type { CompiledQuery } from 'kysely';
import type { CommittedReader } from './database.js';
import type { Executor } from './schema.js';

const marker = '\u0000agentd-parameter:';

/**
 * A query built and compiled once, at start-up, then run with new values by
 * swapping the parameters of its compiled SQL: the query builder and compiler
 * stay off the request path, and the driver reuses its prepared statement for
 * the identical SQL text. Used for the queries every request makes.
 */
export class PreparedQuery<Params extends Record<string, unknown>, Row> {
  readonly #compiled: CompiledQuery<Row>;
  readonly #slots: Array<[number, keyof Params]> = [];

  /** `compile` builds the query with `parameter(name)` in place of each value and compiles it. */
  constructor(
    compile: (parameter: <Name extends keyof Params & string>(name: Name) => Params[Name]) => CompiledQuery<Row>,
    private readonly committedReader: CommittedReader | null = null,
  ) {
    this.#compiled = compile((name) => `${marker}${name}` as never);
    this.#compiled.parameters.forEach((value, index) => {
      if (typeof value === 'string' && value.startsWith(marker)) this.#slots.push([index, value.slice(marker.length)]);
    });
  }

  #parameters(values: Params): unknown[] {
    const parameters = [...this.#compiled.parameters];
    for (const [index, name] of this.#slots) parameters[index] = values[name];
    return parameters;
  }

  /** The rows as last committed, synchronously, where the database can answer so (SQLite); else undefined. */
  readCommittedNow(values: Params): Row[] | undefined {
    if (this.committedReader === null) return undefined;
    return this.committedReader.read(this.#compiled.sql, this.#parameters(values)) as Row[];
  }

  async execute(executor: Executor, values: Params): Promise<Row[]> {
    // Inside a transaction the read must see the transaction's own writes, so it
    // goes through it; outside one, committed data is exactly what is wanted.
    if (!executor.isTransaction) {
      const rows = this.readCommittedNow(values);
      if (rows !== undefined) return rows;
    }
    const result = await executor.executeQuery<Row>({ ...this.#compiled, parameters: this.#parameters(values) });
    return result.rows;
  }

  /** Runs a write; the number of rows it changed. */
  async run(executor: Executor, values: Params): Promise<number> {
    const result = await executor.executeQuery<Row>({ ...this.#compiled, parameters: this.#parameters(values) });
    return Number(result.numAffectedRows ?? 0);
  }
}
