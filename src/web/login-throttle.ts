// Login throttling: failed attempts are counted per e-mail and per client address over a sliding
// window. The e-mail limit stops guessing one account's password; the address limit (higher, since
// an office may share one address) stops trying many accounts from one place.
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../db/schema.ts';

export const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 20;

export async function isLoginBlocked(db: Kysely<AppDatabase>, email: string, ip: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  const count = async (column: 'email' | 'ip', value: string): Promise<number> => {
    const row = await db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', value)
      .where('attempted_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return (await count('email', email)) >= MAX_FAILURES_PER_EMAIL || (await count('ip', ip)) >= MAX_FAILURES_PER_IP;
}

export async function recordLoginFailure(db: Kysely<AppDatabase>, email: string, ip: string, now: Date): Promise<void> {
  await db.insertInto('login_attempts').values({ email, ip, attempted_at: now.toISOString() }).execute();
  // Old rows serve no purpose; trimming here keeps the table as small as the window.
  await db.deleteFrom('login_attempts').where('attempted_at', '<=', new Date(now.getTime() - WINDOW_MS).toISOString()).execute();
}

/** A successful login forgives that e-mail's earlier typos (the address count stays). */
export async function clearLoginFailures(db: Kysely<AppDatabase>, email: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('email', '=', email).execute();
}
