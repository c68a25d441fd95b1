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
