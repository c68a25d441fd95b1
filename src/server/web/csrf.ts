// CSRF: every state-changing form carries the session's secret in a hidden field; the server
// compares it in constant time. The login form has no session yet, so it uses a double-submit
// cookie (SameSite=Strict) instead, which stops login CSRF (being logged into someone else's account).
import crypto from 'node:crypto';

export const CSRF_FIELD = 'csrf_token';
export const LOGIN_CSRF_COOKIE = 'cnpj_login_csrf';

/** Constant-time equality; hashing first makes the lengths equal, so length leaks nothing either. */
export function csrfMatches(expected: string, received: string | null | undefined): boolean {
  if (!expected || typeof received !== 'string' || received.length === 0) return false;
  const a = crypto.createHash('sha256').update(expected).digest();
  const b = crypto.createHash('sha256').update(received).digest();
  return crypto.timingSafeEqual(a, b);
}
