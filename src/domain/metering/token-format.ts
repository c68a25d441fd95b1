// API token strings: `cnpj_` + 33 base62 chars (192 random bits) + 6 base62 chars of CRC32.
// The checksum lets the hot path reject typos and garbage without touching the database;
// only the SHA-256 of the whole string is stored.
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const TOKEN_PREFIX = 'cnpj_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_BYTES = 24;
const BODY_LEN = 33; // ceil(192 / log2(62))
const CHECK_LEN = 6; // 62^6 > 2^32
export const TOKEN_LENGTH = TOKEN_PREFIX.length + BODY_LEN + CHECK_LEN;
const SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${BODY_LEN + CHECK_LEN}}$`);

// Percent-encodings of [0-9A-Za-z] (0x30-39, 0x41-5A, 0x61-7A), hex digits in either case.
const ALNUM_ENCODED = '3[0-9]|[46][1-9a-f]|[57][0-9a]';

/**
 * Whatever looks like a token anywhere in a text, for redacting logs: the prefix, then at least
 * the body's length of the alphabet, in either case, each character possibly percent-encoded
 * (once or twice). Shape only, no checksum: a token with a typo, cut short of its checksum or
 * glued to more text is still the secret. Global, for String.replace.
 */
export const TOKEN_IN_TEXT = new RegExp(
  [...TOKEN_PREFIX].map((c) => `(?:${c}|%(?:25)?${c.charCodeAt(0).toString(16)})`).join('') +
    `(?:[0-9a-z]|%(?:25)?(?:${ALNUM_ENCODED})){${BODY_LEN},}`,
  'gi',
);

function base62(n: bigint, width: number): string {
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

/** CRC-32 in base62; plain numbers (a CRC fits a double exactly): this runs on every request. */
function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECK_LEN; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** A new random token. Shown to its owner once; store only hashToken(token). */
export function generateToken(): string {
  const body = base62(BigInt('0x' + randomBytes(RANDOM_BYTES).toString('hex')), BODY_LEN);
  return TOKEN_PREFIX + body + checksum(body);
}

/** Shape and checksum only: false means "invalid_token" without a database read. */
export function isWellFormedToken(token: unknown): token is string {
  if (typeof token !== 'string' || token.length !== TOKEN_LENGTH || !SHAPE.test(token)) return false;
  const body = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + BODY_LEN);
  return token.slice(TOKEN_PREFIX.length + BODY_LEN) === checksum(body);
}

/** SHA-256 hex: what api_tokens.token_hash holds. */
export function hashToken(token: string): string {
  // One-shot hash(): a third of createHash().update().digest() on every request.
  return hash('sha256', token, 'hex');
}

/** Non-secret label to recognise a token in lists, e.g. `cnpj_Ab3x…`. */
export function displayPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 4);
}
