import type { CommittedReader } from '../database.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Executor } from '../schema.js';

/** Keys whose identity is kept to recognise their next read (the busiest keys of an instance). */
const recentIdentityLimit = 1000;

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  createdAt: string;
}

export interface ApiKeyListing extends ApiKeyRecord {
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface ApiKeyIdentity {
  id: string;
  accountId: string;
  scopes: string[];
}

export class ApiKeyRepository {
  readonly #activeByHash: PreparedQuery<{ keyHash: string }, { id: string; account_id: string; scopes: string }>;

  constructor(
    private readonly db: Executor,
    committedReader: CommittedReader | null = null,
  ) {
    this.#activeByHash = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('api_keys')
          .select(['id', 'account_id', 'scopes'])
          .where('key_hash', '=', parameter('keyHash'))
          .where('revoked_at', 'is', null)
          .compile(),
      committedReader,
    );
  }

  async insert(key: ApiKeyRecord & { keyHash: string }, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('api_keys')
      .values({
        id: key.id,
        account_id: key.accountId,
        name: key.name,
        prefix: key.prefix,
        key_hash: key.keyHash,
        scopes: key.scopes.join(' '),
        created_at: key.createdAt,
        revoked_at: null,
      })
      .execute();
  }

  /**
   * The active key with this hash. Read on every request: on SQLite from the
   * committed-read cache, which any write (a revocation included) invalidates
   * at once; on PostgreSQL from the database, so every instance sees a
   * revocation at its next request.
   */
  async findActiveByHash(keyHash: string): Promise<ApiKeyIdentity | null> {
    const [row] = await this.#activeByHash.execute(this.db, { keyHash });
    return row ? this.#identity(row) : null;
  }

  /** The same, answered synchronously where the database allows (SQLite); undefined otherwise. */
  findActiveByHashNow(keyHash: string): ApiKeyIdentity | null | undefined {
    const rows = this.#activeByHash.readCommittedNow({ keyHash });
    if (rows === undefined) return undefined;
    return rows[0] ? this.#identity(rows[0]) : null;
  }

  /** Identities by the row they came from, so rows served again from the cache are decoded once. */
  readonly #identities = new WeakMap<object, ApiKeyIdentity>();
  /**
   * The identity last made for each key id, kept with its columns: PostgreSQL
   * hands out a new row on every read, and a row equal in every column gets
   * the same frozen identity back (and with it the same actor), so nothing
   * here needs invalidating. A revoked key's row is not read at all.
   */
  readonly #recentIdentities = new Map<string, { scopes: string; accountId: string; identity: ApiKeyIdentity }>();

  #identity(row: { id: string; account_id: string; scopes: string }): ApiKeyIdentity {
    let identity = this.#identities.get(row);
    if (identity !== undefined) return identity;
    const known = this.#recentIdentities.get(row.id);
    if (known !== undefined && known.scopes === row.scopes && known.accountId === row.account_id) return known.identity;
    identity = Object.freeze({
      id: row.id,
      accountId: row.account_id,
      scopes: Object.freeze(row.scopes.split(' ')) as string[],
    });
    this.#identities.set(row, identity);
    if (this.#recentIdentities.size >= recentIdentityLimit) this.#recentIdentities.clear();
    this.#recentIdentities.set(row.id, { scopes: row.scopes, accountId: row.account_id, identity });
    return identity;
  }

  /** Whether a key with this hash was ever issued (revoked ones included). */
  async hashExists(keyHash: string, executor: Executor = this.db): Promise<boolean> {
    const row = await executor.selectFrom('api_keys').select('id').where('key_hash', '=', keyHash).executeTakeFirst();
    return row !== undefined;
  }

  /** The account's keys in the order they were made; revoked ones only when asked for. */
  async list(accountId: string, { includeRevoked }: { includeRevoked: boolean }): Promise<ApiKeyListing[]> {
    let query = this.db
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'name', 'prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'])
      .where('account_id', '=', accountId);
    if (!includeRevoked) query = query.where('revoked_at', 'is', null);
    const rows = await query.orderBy('id', 'asc').execute();
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      prefix: row.prefix,
      scopes: row.scopes.split(' '),
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    }));
  }

  /**
   * Records that a key was used. Only ever moves the time forward, so
   * instances recording out of order leave the latest; a revoked key's row
   * is left alone.
   */
  async recordUse(keyId: string, usedAt: string): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: usedAt })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', usedAt)]))
      .execute();
  }

  /** Revokes an active key of this account; false when there is none. */
  async revoke(accountId: string, keyId: string, revokedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: revokedAt })
      .where('id', '=', keyId)
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async countAll(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }
}
