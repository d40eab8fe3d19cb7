import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * Identifiers are a type prefix and a ULID: sortable by creation time, random
 * after the millisecond, and generated in the application so that every
 * dialect stores the same value.
 */
export const idPrefixes = {
  agent: 'agt',
  message: 'msg',
  account: 'acc',
  apiKey: 'key',
  request: 'req',
  event: 'evt',
  webhook: 'whk',
  delivery: 'dlv',
  knowledgeBase: 'kb',
  document: 'doc',
  chunk: 'chk',
  fact: 'fct',
  run: 'run',
  task: 'tsk',
  approval: 'apr',
  file: 'file',
  evalDataset: 'eds',
  eval: 'evl',
} as const;

export type IdKind = keyof typeof idPrefixes;

/**
 * The ULID library draws one byte from the system's CSPRNG per character (a
 * call into crypto each time); drawing them from a pool filled 4 KiB at a time
 * gives the same randomness for a fraction of the cost on the hot path.
 */
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;
function pooledRandom(): number {
  if (randomOffset >= randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const byte = randomPool[randomOffset] as number;
  randomOffset += 1;
  return byte / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${nextUlid()}`;
}

const ulidBody = '[0-9A-HJKMNP-TV-Z]{26}';
const patterns = Object.fromEntries(
  Object.entries(idPrefixes).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_${ulidBody}$`)]),
) as Record<IdKind, RegExp>;

export function isId(kind: IdKind, value: string): boolean {
  return patterns[kind].test(value);
}

/** The JSON Schema pattern for an id of this kind (used by route schemas). */
export function idPattern(kind: IdKind): string {
  return `^${idPrefixes[kind]}_${ulidBody}$`;
}
