// Quirk 11 of the dump: UTF-8 bytes stored inside a Latin-1 file. Both CSV readers (the fast
// record parser and the delimited-file reader) repair fields through here.

// Embedded UTF-8 we repair: 2-byte sequences for U+0080–U+017F (lead C2–C5: Latin-1 supplement and
// Latin Extended-A, i.e. every Portuguese letter) and 3-byte E2 sequences (punctuation, €, ™). Wider
// ranges would misread genuine Latin-1 text such as "Çº" (C7 BA) or "ãºº" as UTF-8.
export const SUSPECT = /[\u00C2-\u00C5\u00E2][\u0080-\u00BF]/;
const UTF8_SEQ = /[\u00C2-\u00C5][\u0080-\u00BF]|\u00E2[\u0080-\u00BF]{2}/g;
const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

function decodeSeq(m: string): string {
  let d: string;
  try {
    d = utf8Fatal.decode(Buffer.from(m, 'latin1'));
  } catch {
    return m; // invalid UTF-8: keep the Latin-1 reading
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
  if (!SUSPECT.test(s)) return s;
  let out = s.replace(UTF8_SEQ, decodeSeq);
  if (out !== s && SUSPECT.test(out)) out = out.replace(UTF8_SEQ, decodeSeq);
  return out;
}
