// Login throttling. Every attempt takes a slot BEFORE its password is checked, in one SQLite
// transaction that counts and inserts (BEGIN IMMEDIATE: atomic across `serve --workers` processes
// too), so a burst of concurrent guesses gets exactly the allowed number of checks and the rest
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
import type { Sqlite } from '../../storage/sqlite.ts';

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
 * Takes a slot for one login attempt, or says how long until one frees up. Synchronous and
 * atomic: call it before the password check, with nothing awaited in between.
 */
export function reserveLoginAttempt(sqlite: Sqlite, email: string, ip: string, now: Date): LoginSlot {
  const address = throttleAddress(ip);
  const at = now.toISOString();
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  return sqlite
    .transaction((): LoginSlot => {
      // Old rows serve no purpose; trimming here keeps the table as small as the window.
      sqlite.prepare('DELETE FROM login_attempts WHERE attempted_at <= ?').run(since);
      // When the oldest of the rows over the limit leaves the window, a slot frees up.
      const freeAt = (where: string, args: string[], max: number): number | null => {
        const row = sqlite
          .prepare(`SELECT attempted_at FROM login_attempts WHERE ${where} ORDER BY attempted_at DESC LIMIT 1 OFFSET ?`)
          .get(...args, max - 1) as { attempted_at: string } | undefined;
        return row ? Date.parse(row.attempted_at) + WINDOW_MS : null;
      };
      const blockedUntil = Math.max(
        freeAt('email = ? AND ip = ?', [email, address], MAX_FAILURES_PER_PAIR) ?? 0,
        freeAt('ip = ?', [address], MAX_FAILURES_PER_IP) ?? 0,
      );
      if (blockedUntil > 0)
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((blockedUntil - now.getTime()) / 1000)) };
      sqlite.prepare('INSERT INTO login_attempts (email, ip, attempted_at) VALUES (?, ?, ?)').run(email, address, at);
      return { ok: true };
    })
    .immediate();
}

/** A successful login forgives the typos of its (e-mail, address) pair, its own slot included. */
export function clearLoginFailures(sqlite: Sqlite, email: string, ip: string): void {
  sqlite.prepare('DELETE FROM login_attempts WHERE email = ? AND ip = ?').run(email, throttleAddress(ip));
}

/** An operator's password reset forgives every address's attempts on the e-mail. */
export function forgetLoginFailures(sqlite: Sqlite, email: string): void {
  sqlite.prepare('DELETE FROM login_attempts WHERE email = ?').run(email);
}
