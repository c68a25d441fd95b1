// The name key (issue #46): a 32-bit hash of a name's core words (normalize.ts requiredWords:
// legal forms and connectors left out), sorted, so that a name and the query that spells it, in
// any word order, with or without "LTDA" or "S/A", get the same key. The build writes one per
// establishment's razão social and one for a nome fantasia whose core differs (`name_keys` of
// each part, importer/search/name-keys.ts); a query looks its own key up there and checks each
// candidate's names on the row (a hash collides: ~1 in 70 lookups finds a stranger at full size).
// A table of keys rather than a term per name in the FTS index: 60 M distinct terms would each
// cost a vocabulary entry in FTS5's segments, more than twice the bytes. formDistance: how the
// legal forms and connectors, left out of the key, rank the names that share it.
import { LEGAL_FORMS, NAME_STOP_WORDS, normalizeText, requiredWords } from './normalize.ts';

/** The core words of a name or query, in order: what the name key and the exact tiers compare. */
export const coreWords = (text: string): string[] => requiredWords(normalizeText(text));

/** FNV-1a over the sorted words joined by a space, as a signed 32-bit integer (4 bytes in SQLite). */
export function nameKey(words: readonly string[]): number {
  const s = [...words].sort().join(' ');
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** How a candidate's core words relate to the query's: 0 the same in order, 1 the same in another order, null else. */
export function sameName(name: readonly string[], query: readonly string[]): 0 | 1 | null {
  if (name.length !== query.length) return null;
  if (name.every((w, i) => w === query[i])) return 0;
  const a = [...name].sort();
  const b = [...query].sort();
  return a.every((w, i) => w === b[i]) ? 1 : null;
}

/** A legal-form word: normalize.ts LEGAL_FORMS, and `s` and `a`, what "S/A" and "S.A." normalise to. */
const isLegalForm = (w: string) => LEGAL_FORMS.has(w) || w === 's' || w === 'a';

/**
 * How many legal-form and connector words differ between a name and the normalised text typed
 * (normalize.ts NAME_STOP_WORDS, each counted with its repeats): `SILVA TRANSPORTES LTDA ME` is
 * 0 from "silva transportes ltda me", 1 from "silva transportes ltda", 2 from "… eireli". A
 * query that types no legal form says nothing of it: then only connectors count, and the
 * importance decides ("banco do brasil" finds Banco do Brasil S.A. before a small "BANCO DO
 * BRASIL" without one).
 */
export function formDistance(name: string, typed: string): number {
  const forms = (t: string) => {
    const m = new Map<string, number>();
    for (const w of t.split(' ')) if (NAME_STOP_WORDS.has(w) || isLegalForm(w)) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const a = forms(normalizeText(name));
  const b = forms(typed);
  const legal = [...b.keys()].some(isLegalForm);
  let d = 0;
  for (const w of new Set([...a.keys(), ...b.keys()]))
    if (legal || !isLegalForm(w)) d += Math.abs((a.get(w) ?? 0) - (b.get(w) ?? 0));
  return d;
}
