import { isoTime } from '../clock.js';
import { apiKeyPattern } from '../config.js';
import { AppError, notFound, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { displayPrefix, generateApiKey, hashApiKey } from '../security/api-key-secret.js';
import type { ApiKeyIdentity, ApiKeyListing, ApiKeyRecord } from '../storage/repositories/api-keys.js';
import { noteKeyUse } from './api-key-use.js';
import type { Executor } from '../storage/schema.js';
import { requireScope, scopes, type Actor, type Scope, type ServiceContext, type ServiceDeps } from './context.js';

export interface IssuedApiKey extends ApiKeyRecord {
  /** The plaintext key: returned once, never stored. */
  key: string;
}

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** Creates a key for an account; used by the CLI, the first start and the HTTP verb below. */
export async function issueApiKey({
  deps,
  input,
  executor,
}: {
  deps: ServiceDeps;
  input: { accountId: string; name?: string | null; scopes?: readonly Scope[]; key?: string };
  executor?: Executor;
}): Promise<IssuedApiKey> {
  const key = input.key ?? generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('apiKey'),
    accountId: input.accountId,
    name: input.name ?? null,
    prefix: displayPrefix(key),
    scopes: [...new Set(input.scopes ?? scopes)],
    createdAt: isoTime(deps.clock.now()),
  };
  await deps.repositories.apiKeys.insert({ ...record, keyHash: hashApiKey(key) }, executor);
  return { ...record, key };
}

export async function createApiKey({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { name?: string; scopes?: string[] };
}): Promise<IssuedApiKey> {
  requireScope(ctx, 'keys:manage');
  // A key can only hand out what it holds itself, so keys:manage alone never escalates.
  const requested = input.scopes ?? [...ctx.actor.scopes];
  for (const scope of requested) {
    if (!ctx.actor.scopes.has(scope)) {
      throw new AppError('insufficient_scope', `This API key lacks the ${scope} scope, so it cannot grant it.`);
    }
  }
  if (requested.length === 0) throw validationError('/body/scopes', 'must name at least one scope');
  return issueApiKey({
    deps: ctx.deps,
    input: { accountId: ctx.actor.accountId, name: input.name ?? null, scopes: requested.filter(isScope) },
  });
}

export async function listApiKeys({
  ctx,
  includeRevoked,
}: {
  ctx: ServiceContext;
  includeRevoked: boolean;
}): Promise<ApiKeyListing[]> {
  requireScope(ctx, 'keys:manage');
  return ctx.deps.repositories.apiKeys.list(ctx.actor.accountId, { includeRevoked });
}

export async function revokeApiKey({
  ctx,
  keyId,
}: {
  ctx: ServiceContext;
  keyId: string;
}): Promise<{ id: string; revoked: true }> {
  requireScope(ctx, 'keys:manage');
  const revoked = await ctx.deps.repositories.apiKeys.revoke(ctx.actor.accountId, keyId, isoTime(ctx.deps.clock.now()));
  if (!revoked) throw notFound('API key');
  return { id: keyId, revoked: true };
}

const maxTokenLength = 256;
const refused = () => new AppError('unauthorized', 'A valid API key is required.');

/**
 * The digests of well-formed tokens already presented, so that a client
 * sending its key on every request has it hashed once rather than every time:
 * remembering them cut the CPU of `GET /v1/agents/{id}` by about a seventh
 * (see "Fewer steps per request" in bench/README.md). What is remembered is a
 * pure function's result, not a key's validity: every request still looks its
 * digest up, so a revoked key is refused at its next request. Only tokens of
 * the keys' own form are kept, as copies of their own (a token matched out of
 * a header shares the header's memory otherwise), at most
 * `maxRememberedDigests` of them, all forgotten when that many are held:
 * made-up tokens cannot grow it. The price is that up to that many presented
 * keys stay in this process's memory rather than only for their request's time.
 */
const rememberedDigests = new Map<string, string>();
const maxRememberedDigests = 1024;

function digestOf(token: string): string {
  const remembered = rememberedDigests.get(token);
  if (remembered !== undefined) return remembered;
  const digest = hashApiKey(token);
  if (apiKeyPattern.test(token)) {
    if (rememberedDigests.size >= maxRememberedDigests) rememberedDigests.clear();
    rememberedDigests.set(Buffer.from(token, 'latin1').toString('latin1'), digest);
  }
  return digest;
}

/** How many digests are remembered (for tests of the bound). */
export function rememberedDigestCount(): number {
  return rememberedDigests.size;
}

/** Actors by key identity: an identity served again from the read cache makes no new actor. */
const actors = new WeakMap<ApiKeyIdentity, Actor>();

function actorFor(deps: ServiceDeps, identity: ApiKeyIdentity | null, token: string): Actor {
  if (identity === null || !apiKeyPattern.test(token)) throw refused();
  noteKeyUse(deps, identity.id);
  let actor = actors.get(identity);
  if (actor === undefined) {
    actor = Object.freeze({ accountId: identity.accountId, keyId: identity.id, scopes: new Set(identity.scopes) });
    actors.set(identity, actor);
  }
  return actor;
}

/**
 * Resolves a bearer token to its account. Every token is hashed and looked
 * up, so unknown and malformed keys take the same path and the plaintext is
 * never compared.
 */
export async function authenticate({ deps, token }: { deps: ServiceDeps; token: string | null }): Promise<Actor> {
  if (token === null || token.length > maxTokenLength) throw refused();
  return actorFor(deps, await deps.repositories.apiKeys.findActiveByHash(digestOf(token)), token);
}

/** The same, synchronously, where the key can be read without waiting (SQLite); undefined otherwise. */
export function authenticateNow({ deps, token }: { deps: ServiceDeps; token: string | null }): Actor | undefined {
  if (token === null || token.length > maxTokenLength) throw refused();
  const identity = deps.repositories.apiKeys.findActiveByHashNow(digestOf(token));
  return identity === undefined ? undefined : actorFor(deps, identity, token);
}

export interface BootstrapResult {
  accountId: string;
  keyId: string;
  /** The generated key to show once; null when none was generated. */
  printableKey: string | null;
  created: boolean;
}

/**
 * First start: on an empty database, a default account and one all-scope key.
 * With AGENTD_BOOTSTRAP_KEY that exact key is ensured instead (created if it never
 * existed; a revoked one stays revoked). A marker row makes this happen once
 * even when several instances start together.
 */
export async function bootstrap({
  deps,
  bootstrapKey,
}: {
  deps: ServiceDeps;
  bootstrapKey: string | null;
}): Promise<BootstrapResult | null> {
  const { db } = deps.repositories;
  return db.transaction().execute(async (transaction) => {
    const now = isoTime(deps.clock.now());
    const firstStart = await deps.repositories.serviceState.claim('bootstrapped', now, transaction);

    if (firstStart) {
      const accountId = newId('account');
      await deps.repositories.accounts.insert({ id: accountId, name: 'default', createdAt: now }, transaction);
      const issued = await issueApiKey({
        deps,
        input: { accountId, name: 'bootstrap', ...(bootstrapKey ? { key: bootstrapKey } : {}) },
        executor: transaction,
      });
      return { accountId, keyId: issued.id, printableKey: bootstrapKey ? null : issued.key, created: true };
    }

    if (bootstrapKey === null) return null;
    if (await deps.repositories.apiKeys.hashExists(hashApiKey(bootstrapKey), transaction)) return null;
    const oldest = await deps.repositories.accounts.oldest(transaction);
    if (!oldest) return null;
    const issued = await issueApiKey({
      deps,
      input: { accountId: oldest.id, name: 'bootstrap', key: bootstrapKey },
      executor: transaction,
    });
    return { accountId: oldest.id, keyId: issued.id, printableKey: null, created: true };
  });
}
