// THE normalisation of names and query words, used by the search build (importer/search) and by
// every query (domain/search): one function, so that "São João", "SAO JOAO" and "sao-joao" become
// the same words on both sides. Compatibility decomposition (NFKD) splits accented letters into
// letter + mark and turns ligatures, full-width and ordinal forms (ﬁ, Ａ, º) into plain letters;
// the marks are dropped; everything is lowercased; anything that is not [a-z0-9] separates words.
// The result holds only [a-z0-9] and single spaces, which is what the FTS `ascii` tokenizer then
// splits, so tokenizer and queries can never disagree about a word's boundaries.

const PLAIN = /^[\x20-\x7e]*$/;
const MARKS = /\p{M}+/gu;
const NOT_WORD = /[^a-z0-9]+/g;

/** Words of a name or a query, normalised, separated by one space (no leading/trailing space). */
export function normalizeText(s: string): string {
  // Most names in the dump are plain uppercase ASCII: skip the Unicode decomposition for them.
  // Lowercased before the decomposition (lowercasing can produce a mark: İ → i + ◌̇) and after it
  // (a decomposition can produce a capital: ᴬ → A).
  const folded = PLAIN.test(s) ? s.toLowerCase() : s.toLowerCase().normalize('NFKD').replace(MARKS, '').toLowerCase();
  return folded.replace(NOT_WORD, ' ').trim();
}

/** The distinct words of a text, in order of first appearance. */
export function words(s: string | null): string[] {
  if (s === null) return [];
  const t = normalizeText(s);
  return t === '' ? [] : [...new Set(t.split(' '))];
}

/** The legal forms among NAME_STOP_WORDS (normalised): an exact name's form distance counts them (name-key.ts). */
export const LEGAL_FORMS: ReadonlySet<string> = new Set([
  'ltda',
  'limitada',
  'sa',
  'cia',
  'companhia',
  'me',
  'epp',
  'eireli',
]);
/**
 * Legal forms and connectors (normalised): a query never requires them of a name (issue #46), since
 * the dump and the people typing spell them every way ("LTDA", "S/A", "S.A.", "SA", "& CIA") or
 * leave them out. "S/A" and "S.A." normalise to the two words `s a`, dropped as a pair.
 */
export const NAME_STOP_WORDS: ReadonlySet<string> = new Set([...LEGAL_FORMS, 'de', 'da', 'do', 'dos', 'das', 'e']);

/**
 * The words of a normalised query a name must hold: all but the legal forms and connectors, in
 * order and once each; all of them when nothing else is left (a query "LTDA" still means it).
 */
export function requiredWords(normalised: string): string[] {
  if (normalised === '') return [];
  const all = normalised.split(' ');
  const pair = (i: number) => (all[i] === 's' && all[i + 1] === 'a') || (all[i] === 'a' && all[i - 1] === 's');
  const kept = all.filter((w, i) => !NAME_STOP_WORDS.has(w) && !pair(i));
  return [...new Set(kept.length ? kept : all)];
}
