// People who log into the web app. Only billing administrators manage tokens (docs/quotas-and-tokens.md).
import type { Sqlite } from '../../storage/sqlite.ts';
import { getAccount } from './accounts.ts';
import { AccountsError, rethrowUnique } from './errors.ts';
import { hashPassword, hashPasswordSync, passwordProblem, verifyPassword } from './passwords.ts';
import { systemClock, type Clock } from './time.ts';

export type UserRole = 'billing_admin' | 'member';
export const USER_ROLES: readonly UserRole[] = ['billing_admin', 'member'];

export interface User {
  id: number;
  accountId: number;
  email: string;
  role: UserRole;
  createdAt: string;
}

interface UserRow {
  id: number;
  account_id: number;
  email: string;
  password_hash: string;
  role: UserRole;
  created_at: string;
}

const fromRow = (r: UserRow): User => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role,
  createdAt: r.created_at,
});

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed and lowercased, or an AccountsError when it does not look like an address. */
export function normalizeEmail(email: string): string {
  const e = String(email ?? '')
    .trim()
    .toLowerCase();
  if (e.length > 254 || !EMAIL.test(e))
    throw new AccountsError('invalid_input', `"${email}" is not a valid e-mail address.`);
  return e;
}

export function canManageTokens(user: Pick<User, 'role'>): boolean {
  return user.role === 'billing_admin';
}

export interface NewUser {
  accountId: number;
  email: string;
  password: string;
  role: UserRole;
}

function checkNewUser(sqlite: Sqlite, input: NewUser): string {
  const email = normalizeEmail(input.email);
  if (!USER_ROLES.includes(input.role)) {
    throw new AccountsError('invalid_input', `The role must be ${USER_ROLES.join(' or ')}.`);
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new AccountsError('invalid_input', problem);
  if (!getAccount(sqlite, input.accountId))
    throw new AccountsError('not_found', `Account ${input.accountId} does not exist.`);
  return email;
}

function insertUser(sqlite: Sqlite, input: NewUser, email: string, hash: string, now: Clock): User {
  try {
    const r = sqlite
      .prepare(
        'INSERT INTO users (account_id, email, password_hash, role, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
      )
      .get(input.accountId, email, hash, input.role, now().toISOString()) as UserRow;
    return fromRow(r);
  } catch (err) {
    rethrowUnique(err, `A user with the e-mail ${email} already exists.`);
  }
}

export function createUserSync(sqlite: Sqlite, input: NewUser, now: Clock = systemClock): User {
  const email = checkNewUser(sqlite, input);
  return insertUser(sqlite, input, email, hashPasswordSync(input.password), now);
}

export async function createUser(sqlite: Sqlite, input: NewUser, now: Clock = systemClock): Promise<User> {
  const email = checkNewUser(sqlite, input);
  return insertUser(sqlite, input, email, await hashPassword(input.password), now);
}

export function getUser(sqlite: Sqlite, id: number): User | null {
  const r = sqlite.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  return r ? fromRow(r) : null;
}

export function getUserByEmail(sqlite: Sqlite, email: string): User | null {
  const r = sqlite.prepare('SELECT * FROM users WHERE email = ?').get(
    String(email ?? '')
      .trim()
      .toLowerCase(),
  ) as UserRow | undefined;
  return r ? fromRow(r) : null;
}

export function listUsers(sqlite: Sqlite, accountId: number): User[] {
  return (sqlite.prepare('SELECT * FROM users WHERE account_id = ? ORDER BY email').all(accountId) as UserRow[]).map(
    fromRow,
  );
}

// Verified against when the e-mail is unknown, so a login takes as long either way
// (no user enumeration by timing).
let dummyHash: string | undefined;

/** The user when e-mail and password match, else null. Does not look at the account status. */
export async function verifyLogin(sqlite: Sqlite, email: string, password: string): Promise<User | null> {
  const r = sqlite.prepare('SELECT * FROM users WHERE email = ?').get(
    String(email ?? '')
      .trim()
      .toLowerCase(),
  ) as UserRow | undefined;
  dummyHash ??= hashPasswordSync('not-a-real-password');
  const ok = await verifyPassword(String(password ?? ''), r ? r.password_hash : dummyHash);
  return r && ok ? fromRow(r) : null;
}

/** The user with this e-mail (any case), or a not_found AccountsError. */
export function requireUserByEmail(sqlite: Sqlite, email: string): User {
  const u = getUserByEmail(sqlite, email);
  if (!u) throw new AccountsError('not_found', `No user with the e-mail "${String(email ?? '').trim()}".`);
  return u;
}

/**
 * A new password for a user (a lost one, a leaked one). Every web session of the user ends in
 * the same transaction, so a session opened with the old password does not outlive it.
 * Returns how many sessions ended.
 */
export async function setUserPassword(sqlite: Sqlite, userId: number, password: string): Promise<number> {
  const problem = passwordProblem(password);
  if (problem) throw new AccountsError('invalid_input', problem);
  const hash = await hashPassword(password);
  return sqlite
    .transaction(() => {
      const { changes } = sqlite.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(hash, userId);
      if (!changes) throw new AccountsError('not_found', `User ${userId} does not exist.`);
      return sqlite.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId).changes;
    })
    .immediate();
}

/**
 * Removes a user and their web sessions. API tokens belong to the account, not to
 * who created them: they keep working. The last billing administrator of an account is kept
 * unless `force`: without one, nobody could manage the account's tokens in the web app.
 */
export function removeUser(
  sqlite: Sqlite,
  email: string,
  opts: { force?: boolean } = {},
): { user: User; sessionsEnded: number } {
  return sqlite
    .transaction(() => {
      const user = requireUserByEmail(sqlite, email);
      if (user.role === 'billing_admin' && !opts.force) {
        const { n } = sqlite
          .prepare("SELECT count(*) AS n FROM users WHERE account_id = ? AND role = 'billing_admin' AND id <> ?")
          .get(user.accountId, user.id) as { n: number };
        if (n === 0) {
          const account = getAccount(sqlite, user.accountId);
          throw new AccountsError(
            'last_billing_admin',
            `${user.email} is the last billing_admin of account "${account?.name}": nobody would be left to manage its API tokens in the web app.`,
          );
        }
      }
      // Explicit rather than left to ON DELETE CASCADE, which needs foreign_keys on the connection.
      const sessionsEnded = sqlite.prepare('DELETE FROM sessions WHERE user_id = ?').run(user.id).changes;
      sqlite.prepare('DELETE FROM users WHERE id = ?').run(user.id);
      return { user, sessionsEnded };
    })
    .immediate();
}
