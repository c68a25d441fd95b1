// People who log into the web app. Only billing administrators manage tokens (docs/quotas-and-tokens.md).
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { ACCOUNT_LOCK, getAccount } from './accounts.ts';
import { AccountsError, rethrowUnique } from './errors.ts';
import { hashPassword, hashPasswordSync, passwordProblem, verifyPassword } from './passwords.ts';
import { systemClock, type Clock } from '../metering/time.ts';

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

async function checkNewUser(store: AppStore, input: NewUser): Promise<string> {
  const email = normalizeEmail(input.email);
  if (!USER_ROLES.includes(input.role)) {
    throw new AccountsError('invalid_input', `The role must be ${USER_ROLES.join(' or ')}.`);
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new AccountsError('invalid_input', problem);
  if (!(await getAccount(store, input.accountId)))
    throw new AccountsError('not_found', `Account ${input.accountId} does not exist.`);
  return email;
}

async function insertUser(store: AppStore, input: NewUser, email: string, hash: string, now: Clock): Promise<User> {
  try {
    const r = await store.db
      .insertInto('users')
      .values({
        account_id: input.accountId,
        email,
        password_hash: hash,
        role: input.role,
        created_at: now().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(r);
  } catch (err) {
    rethrowUnique(err, `A user with the e-mail ${email} already exists.`);
  }
}

/** createUser with the password hashed on the event loop (scripts and tests that make many users). */
export async function createUserSync(store: AppStore, input: NewUser, now: Clock = systemClock): Promise<User> {
  const email = await checkNewUser(store, input);
  return insertUser(store, input, email, hashPasswordSync(input.password), now);
}

export async function createUser(store: AppStore, input: NewUser, now: Clock = systemClock): Promise<User> {
  const email = await checkNewUser(store, input);
  return insertUser(store, input, email, await hashPassword(input.password), now);
}

export async function getUser(store: AppStore, id: number): Promise<User | null> {
  const r = await store.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? fromRow(r) : null;
}

const emailKey = (email: string): string =>
  String(email ?? '')
    .trim()
    .toLowerCase();

export async function getUserByEmail(store: AppStore, email: string): Promise<User | null> {
  const r = await store.db.selectFrom('users').selectAll().where('email', '=', emailKey(email)).executeTakeFirst();
  return r ? fromRow(r) : null;
}

export async function listUsers(store: AppStore, accountId: number): Promise<User[]> {
  const rows = await store.db
    .selectFrom('users')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('email')
    .execute();
  return rows.map(fromRow);
}

// Verified against when the e-mail is unknown, so a login takes as long either way
// (no user enumeration by timing).
let dummyHash: string | undefined;

/** The user when e-mail and password match, else null. Does not look at the account status. */
export async function verifyLogin(store: AppStore, email: string, password: string): Promise<User | null> {
  const r = await store.db.selectFrom('users').selectAll().where('email', '=', emailKey(email)).executeTakeFirst();
  dummyHash ??= hashPasswordSync('not-a-real-password');
  const ok = await verifyPassword(String(password ?? ''), r ? r.password_hash : dummyHash);
  return r && ok ? fromRow(r) : null;
}

/** The user with this e-mail (any case), or a not_found AccountsError. */
export async function requireUserByEmail(store: AppStore, email: string): Promise<User> {
  const u = await getUserByEmail(store, email);
  if (!u) throw new AccountsError('not_found', `No user with the e-mail "${String(email ?? '').trim()}".`);
  return u;
}

/**
 * A new password for a user (a lost one, a leaked one). Every web session of the user ends in
 * the same transaction, so a session opened with the old password does not outlive it.
 * Returns how many sessions ended.
 */
export async function setUserPassword(store: AppStore, userId: number, password: string): Promise<number> {
  const problem = passwordProblem(password);
  if (problem) throw new AccountsError('invalid_input', problem);
  const hash = await hashPassword(password);
  return writeTransaction(store, async (tx) => {
    const r = await tx.db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw new AccountsError('not_found', `User ${userId} does not exist.`);
    const d = await tx.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(d.numDeletedRows);
  });
}

/**
 * Removes a user and their web sessions. API tokens belong to the account, not to
 * who created them: they keep working. The last billing administrator of an account is kept
 * unless `force`: without one, nobody could manage the account's tokens in the web app.
 */
export async function removeUser(
  store: AppStore,
  email: string,
  opts: { force?: boolean } = {},
): Promise<{ user: User; sessionsEnded: number }> {
  return writeTransaction(store, async (tx) => {
    const found = await requireUserByEmail(tx, email);
    // Two removals on two nodes must not both see the other admin still there.
    await lockFor(tx, ACCOUNT_LOCK, found.accountId);
    const user = await requireUserByEmail(tx, email);
    if (user.role === 'billing_admin' && !opts.force) {
      const { n } = await tx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', user.accountId)
        .where('role', '=', 'billing_admin')
        .where('id', '<>', user.id)
        .executeTakeFirstOrThrow();
      if (Number(n) === 0) {
        const account = await getAccount(tx, user.accountId);
        throw new AccountsError(
          'last_billing_admin',
          `${user.email} is the last billing_admin of account "${account?.name}": nobody would be left to manage its API tokens in the web app.`,
        );
      }
    }
    // Explicit rather than left to ON DELETE CASCADE, which needs foreign_keys on the connection.
    const d = await tx.db.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    await tx.db.deleteFrom('users').where('id', '=', user.id).execute();
    return { user, sessionsEnded: Number(d.numDeletedRows) };
  });
}
