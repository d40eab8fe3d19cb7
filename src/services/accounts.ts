import { isoTime } from '../clock.js';
import { newId } from '../ids.js';
import type { AccountRecord } from '../storage/repositories/accounts.js';
import type { ServiceDeps } from './context.js';

export async function createAccount({
  deps,
  input,
}: {
  deps: ServiceDeps;
  input: { name: string };
}): Promise<AccountRecord> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw new RangeError('An account name is 1 to 100 characters');
  const account: AccountRecord = { id: newId('account'), name, createdAt: isoTime(deps.clock.now()) };
  await deps.repositories.accounts.insert(account);
  return account;
}
