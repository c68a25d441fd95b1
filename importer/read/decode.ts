// How a field's bytes become text. Both CSV readers (the fast record parser and the delimited-file
// reader) read a chunk as Latin-1 (one character per byte, native and lossless), then decode the
// fields that need it through here (docs/receita-dump.md, §7 quirks 11 and 21):
// - stray UTF-8 sequences inside the single-byte text are decoded back (quirk 11);
// - what is left in 0x80–0x9F is read as Windows-1252, the publisher's real code page (quirk 21):
//   curly quotes, dashes, the euro sign instead of invisible C1 controls.

/** A UTF-8 byte-order mark read as Latin-1: some tools put one at the start of a file (quirk 22). */
export const BOM = '\u00EF\u00BB\u00BF';

// A field needs decoding when it holds a 0x80–0x9F byte (a Windows-1252 character, or the second
// byte of a UTF-8 sequence) or a UTF-8 lead followed by a continuation byte in A0–BF.
export const NEEDS_DECODING = /[\u0080-\u009F]|[\u00C2-\u00C5\u00E2][\u00A0-\u00BF]/;
const SUSPECT_UTF8 = /[\u00C2-\u00C5\u00E2][\u0080-\u00BF]/;
const C1 = /[\u0080-\u009F]/g;

// Embedded UTF-8 we repair: 2-byte sequences for U+0080–U+017F (lead C2–C5: Latin-1 supplement and
// Latin Extended-A, i.e. every Portuguese letter) and 3-byte E2 sequences (punctuation, €, ™). Wider
// ranges would misread genuine Latin-1 text such as "Çº" (C7 BA) or "ãºº" as UTF-8.
const UTF8_SEQ = /[\u00C2-\u00C5][\u0080-\u00BF]|\u00E2[\u0080-\u00BF]{2}/g;
const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

function decodeSeq(m: string): string {
  let d: string;
  try {
    d = utf8Fatal.decode(Buffer.from(m, 'latin1'));
  } catch {
    return m; // invalid UTF-8: keep the single-byte reading
  }
  const cp = d.charCodeAt(0);
  // C1 controls (C2 80–9F) are never intended; for E2 keep only General Punctuation..Currency and ™.
  if (cp < 0xa0 || (cp >= 0x2000 && !(cp >= 0x2010 && cp <= 0x20bf) && cp !== 0x2122)) return m;
  return d;
}

/**
 * Quirk 11: UTF-8 bytes stored inside a Latin-1 file ("SecretÃ¡rio" → "Secretário"). Only sequences that
 * are valid UTF-8 are rewritten; a second pass fixes double-encoded text. Clean strings pay one regex test.
 */
export function repairUtf8(s: string): string {
  if (!SUSPECT_UTF8.test(s)) return s;
  let out = s.replace(UTF8_SEQ, decodeSeq);
  if (out !== s && SUSPECT_UTF8.test(out)) out = out.replace(UTF8_SEQ, decodeSeq);
  return out;
}

/**
 * Windows-1252's 0x80–0x9F (WHATWG's table; Node's own decoder reads that label as Latin-1). The five
 * bytes the code page leaves undefined (81, 8D, 8F, 90, 9D) stay the C1 characters they are, as
 * the WHATWG decoder leaves them: nothing is lost.
 */
export const WINDOWS_1252_C1 =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

const windows1252 = (c: string): string => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80];

/**
 * One field, read as Latin-1, to its text: embedded UTF-8 first (its continuation bytes live in
 * 0x80–0xBF), then any 0x80–0x9F byte left as its Windows-1252 character.
 */
export function decodeField(s: string): string {
  if (!NEEDS_DECODING.test(s)) return s;
  const out = repairUtf8(s);
  C1.lastIndex = 0;
  return C1.test(out) ? out.replace(C1, windows1252) : out;
}
