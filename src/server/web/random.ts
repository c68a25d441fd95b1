// The random values the web app hands out (session cookie, CSRF secrets): 256 bits, base64url.
import crypto from 'node:crypto';

export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Only values of our own shape are looked up or compared; anything else is refused early. */
export function isRandomToken(s: string | undefined): s is string {
  return typeof s === 'string' && /^[A-Za-z0-9_-]{43}$/.test(s);
}
