// The word clauses of a name query (`q`, a partner's `nome`): every word exact, the last (2
// characters or longer) also as a prefix, and how that prefix is looked up. FTS5's own `word*`
// reads and merges the doclists of every word starting with it before returning the first row
// (a cost per document holding one: heavy for a common prefix), but those doclists lie side by
// side, so it costs little when they are short, even cold. The OR of the exact words is walked
// lazily, like any other clause, but opening each word costs a seek per part and rowid range (and
// a random read when cold), and the vocabulary grows with the month (figures: docs/benchmarks.md).
// The vocabulary keeps each word's documents (establishments, partner rows), so:
// - `word*` when the prefix is in at most PREFIX_QUERY_DOCS documents and in fewer than
//   STAR_DOCS_PER_WORD per word it expands to (there it is faster than the row checks, or as fast
//   with an exact full page where the checks end a short one: docs/benchmarks.md);
// - else, up to MAX_EXPANSION words, their OR;
// - beyond, the prefix is CHECKED on the rows' names (checks.ts): the other clauses find the
//   candidates, a cost that follows the share of names holding such a word, not the vocabulary
//   (cheap for a common prefix such as `de` + a UF). Once a page's checks have cost what its
//   index form would, the OR of its words (at most MAX_OR) or, when at most PREFIX_FALLBACK_DOCS
//   establishments hold it, `word*`, that form takes over (page.ts). Counts use these forms when
//   they can.
// Without counts (an index built before them), no `word*` for a prefix of letters.
//
// An index whose documents hold name prefix terms (terms.ts NAME_PREFIX_LENGTH: `_wbra`) answers
// a last word of that length from that one doclist, like a word, and a word one character
// shorter from 37 (`de` is the word `de` or one of `_wdea` … `_wde9`: every longer word starting
// with it has one), exactly: no row checks. A longer prefix that is checked on the rows gets its
// start as a clause of its own too, so the candidates are the names holding a word with that
// start (`_wbra` for `bras`) instead of every match of the other filters: far fewer checks for a
// prefix rare among those.
import { InvalidFilter } from './filters.ts';
import { normalizeText, requiredWords } from './normalize.ts';
import type { Clause, IndexTables, NameDocuments } from './plan.ts';
import { term } from './terms.ts';

export const MAX_EXPANSION = 256;
/** What may follow the start of a name word ([a-z0-9]: normalize.ts). */
const NEXT_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
/** A checked prefix of at most this many words keeps them, to fall back on their OR. */
export const MAX_OR = 2048;
/**
 * A prefix held by at most this many documents (and by fewer than STAR_DOCS_PER_WORD per word it
 * expands to) is looked up with `word*`, which stays near the warm target (50 ms) at the bound
 * and beats checks then `word*` there. Above it the row checks win when warm (they stop after
 * SCAN_BUDGET rejections), while `word*` grows with the prefix's documents (docs/benchmarks.md).
 */
export const PREFIX_QUERY_DOCS = 50_000;
/**
 * The OR of a prefix's words opens each word's doclist over two parts and rowid ranges (and a
 * random read when cold): warm, about the price of ~100 documents merged by `word*` (from adjacent
 * doclists when cold; both measured: docs/benchmarks.md). A prefix of up to ~15 words stays their
 * OR: cheap either way, and exact terms.
 */
const STAR_DOCS_PER_WORD = 120;
const MIN_STAR_WORDS = 16;

/**
 * A checked `q` prefix of more than MAX_OR words held by at most this many establishments can go
 * on with `word*` once its row checks have cost about what `word*` would (page.ts). Warm, the
 * checks of so common a prefix fill a page long before that; cold (a disk read per check) they
 * do not, and switching made such cold pages several times faster on a full month
 * (docs/benchmarks.md). The bound keeps `word*`'s merged doclist small (a few MB).
 */
export const PREFIX_FALLBACK_DOCS = 2_000_000;
/** What `word*` costs per establishment holding the prefix, in ms (with a UF, warm, full month: docs/benchmarks.md). */
export const STAR_MS_PER_DOC = 0.001;
/** What the OR of a prefix's words costs per word, in ms (a doclist opened per part and rowid range, warm). */
export const OR_MS_PER_WORD = 0.06;

/** How plans are made: the defaults, or other bounds (tests reach each path on a small month). */
export interface PlanOptions {
  /** PREFIX_QUERY_DOCS; 0: no prefix of letters is looked up with `word*` at once. */
  prefixQueryDocs: number;
  /** PREFIX_FALLBACK_DOCS; 0: a checked prefix of more than MAX_OR words never falls back on `word*`. */
  prefixFallbackDocs: number;
  /** STAR_MS_PER_DOC. */
  starMsPerDoc: number;
  /** OR_MS_PER_WORD. */
  orMsPerWord: number;
}
export const PLAN_DEFAULTS: PlanOptions = {
  prefixQueryDocs: PREFIX_QUERY_DOCS,
  prefixFallbackDocs: PREFIX_FALLBACK_DOCS,
  starMsPerDoc: STAR_MS_PER_DOC,
  orMsPerWord: OR_MS_PER_WORD,
};

/**
 * The normalised words of a name query a name must hold (the same normalisation the build used on
 * the names), legal forms and connectors left out (normalize.ts requiredWords).
 */
export function queryWords(q: string): string[] {
  return requiredWords(normalizeText(q));
}

/**
 * Whether a name document (the normalised words of a razão social and nome fantasia, as the
 * build indexes them) holds a query's words (queryWords): every word exact, the last (2
 * characters or longer) also as a prefix. What the index finds, decided on a row already read
 * (relevance.ts), without asking FTS5.
 */
export function nameHolds(required: readonly string[], doc: readonly string[]): boolean {
  const last = required.length - 1;
  return required.every((w, i) => (i < last || w.length < 2 ? doc.includes(w) : doc.some((d) => d.startsWith(w))));
}

/**
 * Clauses for name words: each word exact, the last (≥ 2 characters) also as a prefix, routed by
 * the number of its words and of the `names` documents holding it (see above and `opts`).
 */
export function wordClauses(
  param: Clause['param'],
  text: string,
  ix: IndexTables,
  names: NameDocuments,
  opts: PlanOptions = PLAN_DEFAULTS,
): Clause[] {
  const words = queryWords(text);
  if (!words.length) throw new InvalidFilter(param, 'no word to search for');
  if (words.length > 20) throw new InvalidFilter(param, 'too many words (20 at most)');
  const indexed = ix.prefixIndex(names);
  return words.flatMap((w, i): Clause[] => {
    if (i < words.length - 1 || w.length < 2) return [{ param, terms: [w] }];
    if (!/^[a-z]/.test(w)) return [{ param, terms: [], prefix: w }];
    if (w.length === indexed) return [{ param, terms: [term.namePrefix(w)] }];
    // One character shorter: the word itself or a prefix term of one more character, exactly.
    if (indexed !== null && w.length === indexed - 1)
      return [{ param, terms: [w, ...NEXT_CHARACTERS.map((c) => term.namePrefix(w + c))] }];
    const clause = lastWordClause(param, w, ix, names, opts);
    // Candidates for the checks: the names holding a word with the indexed start.
    return clause.checked && indexed !== null && w.length > indexed
      ? [{ param, terms: [term.namePrefix(w.slice(0, indexed))] }, clause]
      : [clause];
  });
}

/** The clause of a last word of letters (≥ 2 characters) as a prefix, routed as above. */
function lastWordClause(
  param: Clause['param'],
  w: string,
  ix: IndexTables,
  names: NameDocuments,
  opts: PlanOptions,
): Clause {
  const found = ix.wordsWithPrefix(w, MAX_OR);
  // The word itself stays even when absent: an absent term costs one lookup and matches nothing.
  const terms = found.includes(w) ? found : [w, ...found];
  if (found.length < MIN_STAR_WORDS) return { param, terms };
  const bound = Math.max(opts.prefixQueryDocs, opts.prefixFallbackDocs);
  const docs = bound > 0 ? ix.prefixDocuments(w, bound, names) : null;
  if (docs !== null && docs <= Math.min(opts.prefixQueryDocs, found.length * STAR_DOCS_PER_WORD))
    return { param, terms: [], prefix: w };
  if (found.length <= MAX_EXPANSION) return { param, terms };
  if (found.length <= MAX_OR)
    return { param, terms, prefix: w, checked: true, switchMs: terms.length * opts.orMsPerWord };
  if (docs === null || docs > opts.prefixFallbackDocs) return { param, terms: [], prefix: w, checked: true };
  return { param, terms: [], prefix: w, checked: true, switchMs: docs * opts.starMsPerDoc };
}
