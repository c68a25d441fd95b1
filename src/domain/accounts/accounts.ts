// Customer accounts: one plan each, status active or suspended. Suspension (non-payment)
// invalidates every token of the account for good; reactivation does not revive them.
import type { Sqlite } from '../../storage/sqlite.ts';
import { AccountsError, rethrowUnique } from './errors.ts';
import { requirePlan } from './plans.ts';
import { systemClock, type Clock } from './time.ts';

export type AccountStatus = 'active' | 'suspended';

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

export function createAccount(
  sqlite: Sqlite,
  input: { name: string; plan: string },
  now: Clock = systemClock,
): Account {
  const name = cleanName(input.name);
  const plan = requirePlan(sqlite, input.plan);
  try {
    const { id } = sqlite
      .prepare("INSERT INTO accounts (name, plan, status, created_at) VALUES (?, ?, 'active', ?) RETURNING id")
      .get(name, plan.name, now().toISOString()) as { id: number };
    return getAccount(sqlite, id)!;
  } catch (err) {
    rethrowUnique(err, `An account named "${name}" already exists.`);
  }
}

export function getAccount(sqlite: Sqlite, id: number): Account | null {
  const r = sqlite.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
  return r ? fromRow(r) : null;
}

/** Case-insensitive lookup by name. */
export function getAccountByName(sqlite: Sqlite, name: string): Account | null {
  const r = sqlite.prepare('SELECT * FROM accounts WHERE name = ?').get(String(name ?? '').trim()) as
    AccountRow | undefined;
  return r ? fromRow(r) : null;
}

export function requireAccount(sqlite: Sqlite, name: string): Account {
  const a = getAccountByName(sqlite, name);
  if (!a) throw new AccountsError('not_found', `Account "${name}" does not exist.`);
  return a;
}

export function listAccounts(sqlite: Sqlite): Account[] {
  return (sqlite.prepare('SELECT * FROM accounts ORDER BY name').all() as AccountRow[]).map(fromRow);
}

export function changeAccountPlan(sqlite: Sqlite, name: string, planName: string): Account {
  const account = requireAccount(sqlite, name);
  const plan = requirePlan(sqlite, planName);
  sqlite.prepare('UPDATE accounts SET plan = ? WHERE id = ?').run(plan.name, account.id);
  return getAccount(sqlite, account.id)!;
}

/**
 * Suspends the account and invalidates all its tokens in the same transaction, so no request
 * can slip through between the two. Returns how many tokens were invalidated now.
 */
export function suspendAccount(
  sqlite: Sqlite,
  name: string,
  now: Clock = systemClock,
): { account: Account; invalidatedTokens: number } {
  return sqlite
    .transaction(() => {
      const account = requireAccount(sqlite, name);
      if (account.status === 'suspended')
        throw new AccountsError('invalid_state', `Account "${account.name}" is already suspended.`);
      const at = now().toISOString();
      sqlite.prepare("UPDATE accounts SET status = 'suspended', suspended_at = ? WHERE id = ?").run(at, account.id);
      const { changes } = sqlite
        .prepare('UPDATE api_tokens SET invalidated_at = ? WHERE account_id = ? AND invalidated_at IS NULL')
        .run(at, account.id);
      return { account: getAccount(sqlite, account.id)!, invalidatedTokens: changes };
    })
    .immediate();
}

/** Active again; the tokens invalidated by the suspension stay invalidated (new ones must be made). */
export function reactivateAccount(sqlite: Sqlite, name: string): Account {
  return sqlite
    .transaction(() => {
      const account = requireAccount(sqlite, name);
      if (account.status === 'active')
        throw new AccountsError('invalid_state', `Account "${account.name}" is not suspended.`);
      sqlite.prepare("UPDATE accounts SET status = 'active', suspended_at = NULL WHERE id = ?").run(account.id);
      return getAccount(sqlite, account.id)!;
    })
    .immediate();
}
