// Customer accounts: one plan each, status active or suspended. Suspension (non-payment)
// invalidates every token of the account for good; reactivation does not revive them.
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { AccountsError, rethrowUnique } from './errors.ts';
import { nocase, nocaseValue } from '../../storage/app/dialect.ts';
import { requirePlan } from './plans.ts';
import { systemClock, type Clock } from '../metering/time.ts';

export type AccountStatus = 'active' | 'suspended';

/**
 * lockFor() key of an account's decisions that read then write (its status against a new token,
 * its last billing administrator): with the account's id, one such transaction at a time.
 */
export const ACCOUNT_LOCK = 'account';

export interface Account {
  id: number;
  name: string;
  plan: string;
  status: AccountStatus;
  createdAt: string;
  suspendedAt: string | null;
}

interface AccountRow {
  id: number;
  name: string;
  plan: string;
  status: AccountStatus;
  created_at: string;
  suspended_at: string | null;
}

const fromRow = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  status: r.status,
  createdAt: r.created_at,
  suspendedAt: r.suspended_at,
});

function cleanName(name: string): string {
  const n = String(name ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  if (!n || n.length > 120) throw new AccountsError('invalid_input', 'The account name must have 1 to 120 characters.');
  return n;
}

export async function createAccount(
  store: AppStore,
  input: { name: string; plan: string },
  now: Clock = systemClock,
): Promise<Account> {
  const name = cleanName(input.name);
  const plan = await requirePlan(store, input.plan);
  try {
    const r = await store.db
      .insertInto('accounts')
      .values({ name, plan: plan.name, status: 'active', created_at: now().toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(r);
  } catch (err) {
    rethrowUnique(err, `An account named "${name}" already exists.`);
  }
}

export async function getAccount(store: AppStore, id: number): Promise<Account | null> {
  const r = await store.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? fromRow(r) : null;
}

/** Case-insensitive lookup by name. */
export async function getAccountByName(store: AppStore, name: string): Promise<Account | null> {
  const r = await store.db
    .selectFrom('accounts')
    .selectAll()
    .where(nocase(store, 'name'), '=', nocaseValue(store, String(name ?? '').trim()))
    .executeTakeFirst();
  return r ? fromRow(r) : null;
}

export async function requireAccount(store: AppStore, name: string): Promise<Account> {
  const a = await getAccountByName(store, name);
  if (!a) throw new AccountsError('not_found', `Account "${name}" does not exist.`);
  return a;
}

export async function listAccounts(store: AppStore): Promise<Account[]> {
  return (await store.db.selectFrom('accounts').selectAll().orderBy(nocase(store, 'name')).execute()).map(fromRow);
}

export async function changeAccountPlan(store: AppStore, name: string, planName: string): Promise<Account> {
  const account = await requireAccount(store, name);
  const plan = await requirePlan(store, planName);
  await store.db.updateTable('accounts').set({ plan: plan.name }).where('id', '=', account.id).execute();
  return (await getAccount(store, account.id))!;
}

/**
 * Suspends the account and invalidates all its tokens in the same transaction, so no request
 * can slip through between the two. Returns how many tokens were invalidated now. Holds the
 * account's lock, as token creation does: no token created on another node meanwhile escapes.
 */
export async function suspendAccount(
  store: AppStore,
  name: string,
  now: Clock = systemClock,
): Promise<{ account: Account; invalidatedTokens: number }> {
  return writeTransaction(store, async (tx) => {
    const found = await requireAccount(tx, name);
    await lockFor(tx, ACCOUNT_LOCK, found.id);
    const account = (await getAccount(tx, found.id))!;
    if (account.status === 'suspended')
      throw new AccountsError('invalid_state', `Account "${account.name}" is already suspended.`);
    const at = now().toISOString();
    await tx.db
      .updateTable('accounts')
      .set({ status: 'suspended', suspended_at: at })
      .where('id', '=', account.id)
      .execute();
    const r = await tx.db
      .updateTable('api_tokens')
      .set({ invalidated_at: at })
      .where('account_id', '=', account.id)
      .where('invalidated_at', 'is', null)
      .executeTakeFirst();
    return { account: (await getAccount(tx, account.id))!, invalidatedTokens: Number(r.numUpdatedRows) };
  });
}

/** Active again; the tokens invalidated by the suspension stay invalidated (new ones must be made). */
export async function reactivateAccount(store: AppStore, name: string): Promise<Account> {
  return writeTransaction(store, async (tx) => {
    const found = await requireAccount(tx, name);
    await lockFor(tx, ACCOUNT_LOCK, found.id);
    const account = (await getAccount(tx, found.id))!;
    if (account.status === 'active')
      throw new AccountsError('invalid_state', `Account "${account.name}" is not suspended.`);
    await tx.db
      .updateTable('accounts')
      .set({ status: 'active', suspended_at: null })
      .where('id', '=', account.id)
      .execute();
    return (await getAccount(tx, account.id))!;
  });
}
