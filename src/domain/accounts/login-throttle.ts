// Login throttling. Every attempt takes a slot BEFORE its password is checked, in one
// transaction that counts and inserts (BEGIN IMMEDIATE on app.db: atomic across `serve --workers`
// processes; on PostgreSQL under the address's lock: atomic across the fleet's nodes), so a burst of concurrent guesses gets exactly the allowed number of checks and the rest
// are refused unchecked. A slot left after a failed check is the recorded failure; a success frees
// the slots of its (e-mail, address) pair.
//
// What is counted, over a sliding window:
// - per (e-mail, address) pair: stops guessing one account's password from one place. Counting the
//   pair, not the e-mail alone, is deliberate: a stranger who types someone's e-mail with wrong
//   passwords locks only their own address out of that account, never the real user, who logs in
//   from another address. The cost: a guesser with many addresses gets MAX_FAILURES_PER_PAIR
//   guesses per address per window, against scrypt-hashed passwords of at least 10 characters.
// - per address (higher, since an office may share one address): stops trying many accounts from
//   one place.
// An IPv6 address counts by its /64 (what one host is usually given), so rotating addresses
// inside it gains nothing; an IPv4-mapped IPv6 address counts as the IPv4 address.
// Refused attempts are not recorded: hammering a locked pair does not extend the lock.
import net from 'node:net';
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';

export const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_PAIR = 5;
export const MAX_FAILURES_PER_IP = 20;

export type LoginSlot = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The address as counted: IPv4 as is, IPv6 by its first 64 bits. */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(ip)) return ip;
  const addr = ip.split('%')[0]!; // no zone index
  const [head, tail] = addr.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A trailing dotted IPv4 part fills two groups.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * Takes a slot for one login attempt, or says how long until one frees up. Atomic: await it
 * before the password check.
 */
export async function reserveLoginAttempt(store: AppStore, email: string, ip: string, now: Date): Promise<LoginSlot> {
  const address = throttleAddress(ip);
  const at = now.toISOString();
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  return writeTransaction(store, async (tx): Promise<LoginSlot> => {
    // The address's lock covers both counts: the pair's rows are among the address's.
    await lockFor(tx, 'login', address);
    // Old rows serve no purpose; trimming here keeps the table as small as the window.
    await tx.db.deleteFrom('login_attempts').where('attempted_at', '<=', since).execute();
    // When the oldest of the rows over the limit leaves the window, a slot frees up.
    const freeAt = async (pairEmail: string | null, max: number): Promise<number | null> => {
      let q = tx.db.selectFrom('login_attempts').select('attempted_at').where('ip', '=', address);
      if (pairEmail !== null) q = q.where('email', '=', pairEmail);
      const row = await q
        .orderBy('attempted_at', 'desc')
        .limit(1)
        .offset(max - 1)
        .executeTakeFirst();
      return row ? Date.parse(row.attempted_at) + WINDOW_MS : null;
    };
    const blockedUntil = Math.max(
      (await freeAt(email, MAX_FAILURES_PER_PAIR)) ?? 0,
      (await freeAt(null, MAX_FAILURES_PER_IP)) ?? 0,
    );
    if (blockedUntil > 0)
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((blockedUntil - now.getTime()) / 1000)) };
    await tx.db.insertInto('login_attempts').values({ email, ip: address, attempted_at: at }).execute();
    return { ok: true };
  });
}

/** A successful login forgives the typos of its (e-mail, address) pair, its own slot included. */
export async function clearLoginFailures(store: AppStore, email: string, ip: string): Promise<void> {
  await store.db
    .deleteFrom('login_attempts')
    .where('email', '=', email)
    .where('ip', '=', throttleAddress(ip))
    .execute();
}

/** An operator's password reset forgives every address's attempts on the e-mail. */
export async function forgetLoginFailures(store: AppStore, email: string): Promise<void> {
  await store.db.deleteFrom('login_attempts').where('email', '=', email).execute();
}
