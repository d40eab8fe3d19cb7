import { createRequire } from 'node:module';
import type pg from 'pg';

let loaded: typeof pg | undefined;

/**
 * The pg driver, loaded on first use: only an instance on PostgreSQL pays for
 * it (about 70 ms of every start otherwise). pg is CommonJS, so it loads
 * synchronously, where it is first needed.
 */
export function pgModule(): typeof pg {
  loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  return loaded;
}
