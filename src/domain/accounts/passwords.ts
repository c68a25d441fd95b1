// Password hashing with scrypt (node:crypto). Stored as `scrypt$N$r$p$salt$hash` (base64) so
// the cost can be raised later without breaking existing hashes.
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024; // scrypt cost does not depend on length, but bound input anyway

const N = 16384;
const R = 8;
const P = 1;
const KEY_LEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/** A sentence for the operator saying why the password is refused, or null when acceptable. */
export function passwordProblem(password: string): string | null {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

function encode(salt: Buffer, key: Buffer): string {
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface Parsed {
  salt: Buffer;
  key: Buffer;
  opts: ScryptOptions;
}

function parse(stored: string): Parsed | null {
  const parts = typeof stored === 'string' ? stored.split('$') : [];
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every((x) => Number.isInteger(x) && x > 0)) return null;
  const key = Buffer.from(parts[5], 'base64');
  if (key.length < 16) return null;
  return { salt: Buffer.from(parts[4], 'base64'), key, opts: { N: n, r, p, maxmem: MAXMEM } };
}

export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16);
  return encode(salt, scryptSync(password.normalize('NFC'), salt, KEY_LEN, { N, r: R, p: P, maxmem: MAXMEM }));
}

/** Async so a web request does not block the event loop while scrypt works (docs/benchmarks.md). */
export function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LEN, { N, r: R, p: P, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(encode(salt, key)),
    ),
  );
}

export function verifyPasswordSync(password: string, stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed || typeof password !== 'string') return false;
  const key = scryptSync(password.normalize('NFC'), parsed.salt, parsed.key.length, parsed.opts);
  return timingSafeEqual(key, parsed.key);
}

export function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || typeof password !== 'string') return Promise.resolve(false);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), parsed.salt, parsed.key.length, parsed.opts, (err, key) =>
      err ? reject(err) : resolve(timingSafeEqual(key, parsed.key)),
    ),
  );
}
