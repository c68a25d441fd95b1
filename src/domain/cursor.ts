// Opaque keyset-paging cursors, for every listing of the API (a company's establishments, the
// search): the key of the last item a page gave, bound to the listing it came from.
//
// A cursor is base64url (no padding) of: a version byte, the key's bytes, and an 8-byte tag, the
// first bytes of SHA-256 over the version, the listing's `scope` and the key. The scope names the
// endpoint and everything that selects its items (the company's root; the search's filters in a
// canonical order), so a cursor of another endpoint, company or filter set fails its tag, as
// does an edited or truncated one: the client gets 400 naming `cursor`, never a silently
// different page. The tag is a checksum, not a secret: someone who recomputes it can only start
// a page at another key of the same listing, which paging reaches anyway (the key is always a
// bound parameter, and its shape is checked by the caller).
import { createHash, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const TAG_BYTES = 8;
/** Keys are short (a CNPJ, two, a row number): anything longer is not ours. */
const MAX_KEY = 128;
/** base64url of 1 + MAX_KEY + TAG_BYTES bytes, rounded up. */
const MAX_CURSOR = Math.ceil(((1 + MAX_KEY + TAG_BYTES) * 4) / 3);
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Printable ASCII: keys are our own values, never free text. */
const KEY = /^[\x20-\x7e]+$/;

/** What a client is told when its cursor is refused (400 invalid_parameter). */
export const INVALID_CURSOR_MESSAGE =
  'O parâmetro cursor é inválido: use o valor de next_cursor da página anterior desta mesma consulta (mesma rota e mesmos filtros), ou omita-o para começar da primeira página.';

function tag(scope: string, key: string): Buffer {
  return createHash('sha256').update(`cnpj-api cursor v${VERSION}\0${scope}\0${key}`).digest().subarray(0, TAG_BYTES);
}

/** The cursor that resumes `scope`'s listing after `key`. */
export function encodeCursor(scope: string, key: string): string {
  if (key.length === 0 || key.length > MAX_KEY || !KEY.test(key))
    throw new RangeError(`cursor key must be 1–${MAX_KEY} printable ASCII characters`);
  return Buffer.concat([Buffer.of(VERSION), Buffer.from(key, 'latin1'), tag(scope, key)]).toString('base64url');
}

/** The key a cursor of `scope`'s listing carries; null for anything else (garbage, edited, another listing's). */
export function decodeCursor(scope: string, cursor: string): string | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR || !BASE64URL.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  // Re-encoding must give the same text: no trailing bits or other slack in the encoding.
  if (bytes.length < 2 + TAG_BYTES || bytes[0] !== VERSION || bytes.toString('base64url') !== cursor) return null;
  const key = bytes.subarray(1, bytes.length - TAG_BYTES).toString('latin1');
  if (!KEY.test(key)) return null;
  return timingSafeEqual(bytes.subarray(bytes.length - TAG_BYTES), tag(scope, key)) ? key : null;
}
