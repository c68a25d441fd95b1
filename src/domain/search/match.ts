// Filters → an FTS5 query plan: an AND of clauses, each an OR of exact terms (terms.ts), plus the
// range filters split into the terms they cover whole and the terms cut by their ends (whose
// documents need an exact check of the row). Every term is built here from checked values and
// quoted, so no request text ever reaches FTS5's query syntax.
//
// The last word of `q` (and of a partner's `nome`) matches as a prefix. FTS5's own `word*` reads
// and merges the doclists of every word starting with it before returning the first row (~0.4–1.2
// µs per document holding one; `de*`, 1.4 M documents at 5 M companies: 0.7 s), but those
// doclists lie side by side, so it costs little when they are short, even cold. The OR of the
// exact words is walked lazily, like any other clause, but opening each word costs ~15 µs per
// part and rowid range (and a random read when cold), and the vocabulary grows with the month.
// The vocabulary keeps each word's documents (establishments, partner rows), so:
// - `word*` when the prefix is in at most PREFIX_QUERY_DOCS documents and in fewer than
//   STAR_DOCS_PER_WORD per word it expands to (5 M companies: `ven` + SP, 403 words in 1,313
//   names, 2 ms where the row checks took 11–27 ms; 25–38 k documents, an exact full page in
//   11–40 ms where the checks end a short page in about the same time);
// - else, up to MAX_EXPANSION words, their OR;
// - beyond, the prefix is CHECKED on the rows' names (checks.ts): the other clauses find the
//   candidates, a cost that follows the share of names holding such a word, not the vocabulary
//   (cheap for a common prefix: `de` + a UF, 2–3 ms). A page first tries that for a few rows;
//   when the prefix is rare among the candidates it goes on with the OR of its words (at most
//   MAX_OR), or, when at most PREFIX_FALLBACK_DOCS establishments hold it, with `word*` once the
//   checks cost what `word*` would (page.ts). Counts use these index forms when they can.
// Without counts (an index built before them), no `word*` for a prefix of letters.
import { InvalidFilter, MATRIZ_FILIAL, SITUACOES, parseIsoDate, type CompanyFilters, type PartnerFilters } from './filters.ts';
import { normalizeText } from './normalize.ts';
import { capitalBucketRange, FLAG, flagTerms, lastDayOfMonth, term } from './terms.ts';

export const MAX_EXPANSION = 256;
/** A checked prefix of at most this many words keeps them, to fall back on their OR. */
export const MAX_OR = 2048;
/**
 * A prefix held by at most this many documents (and by fewer than STAR_DOCS_PER_WORD per word it
 * expands to) is looked up with `word*`: ≤ ~50 ms warm at the bound (a full month: `bop` + SP,
 * 33 k documents, 40 ms, where checks and then `word*` took 62–73 ms). Above it the row checks
 * win when warm (they stop after SCAN_BUDGET rejections, ~25–40 ms; `cri`, 122 k documents at
 * 5 M companies: `cri*` 90 ms, checked 13–23 ms; `de*` 1.4 M documents: a second, checked 2 ms).
 */
export const PREFIX_QUERY_DOCS = 50_000;
/**
 * The OR of a prefix's words opens each word's doclist: ~60 µs warm over two parts and rowid
 * ranges (and a random read when cold), the price of ~100 documents merged by `word*` (0.4–1.2
 * µs each, from adjacent doclists when cold). A prefix of up to ~15 words stays their OR: cheap
 * either way, and exact terms.
 */
const STAR_DOCS_PER_WORD = 120;
const MIN_STAR_WORDS = 16;

/**
 * A checked `q` prefix of more than MAX_OR words held by at most this many establishments can go
 * on with `word*` once its row checks have cost about what `word*` would (page.ts). Warm, the
 * checks of so common a prefix fill a page long before that; cold (~4 ms a check on a full month)
 * they do not: `cha` + RJ (306 k documents) 9.3 s checked only, 0.8 s switching; `bru` + SC
 * (1.06 M) 8.4 s, 2.7 s. The bound keeps `word*`'s merged doclist small (a few MB).
 */
export const PREFIX_FALLBACK_DOCS = 2_000_000;
/** What `word*` costs per establishment holding the prefix, in ms (with a UF, warm: 0.85–1.2 µs on a full month). */
export const STAR_MS_PER_DOC = 0.001;

/** How plans are made: the defaults, or other bounds (tests reach each path on a small month). */
export interface PlanOptions {
  /** PREFIX_QUERY_DOCS; 0: no prefix of letters is looked up with `word*` at once. */
  prefixQueryDocs: number;
  /** PREFIX_FALLBACK_DOCS; 0: a checked prefix of more than MAX_OR words never falls back on `word*`. */
  prefixFallbackDocs: number;
  /** STAR_MS_PER_DOC. */
  starMsPerDoc: number;
}
export const PLAN_DEFAULTS: PlanOptions = { prefixQueryDocs: PREFIX_QUERY_DOCS, prefixFallbackDocs: PREFIX_FALLBACK_DOCS, starMsPerDoc: STAR_MS_PER_DOC };

/** What the plan needs to know about the index (implemented over search.db by index.ts). */
export interface IndexLookups {
  /** Vocabulary words starting with `prefix`, at most `max + 1` of them. */
  wordsWithPrefix(prefix: string, max: number): string[];
  /**
   * Documents (establishments or partner rows) whose names hold a word starting with `prefix`
   * (summed over its words, so a name with two such words counts twice), or `max + 1` when more;
   * null when the index does not keep its words' counts.
   */
  prefixDocuments(prefix: string, max: number, names: NameDocuments): number | null;
  /** Index terms starting with `prefix` (CEP terms only, few). */
  termsWithPrefix(prefix: string): string[];
  /** CNAE codes present whose 7 digits start with `prefix`. */
  cnaeCodes(prefix: string): number[];
  /** Codes of the municípios with this normalised name, in these UFs (all when empty). */
  municipioCodes(name: string, ufs: readonly string[]): number[];
  /** The year/month or capital-bucket terms present (`_y`, `_k`) with their document counts. */
  rangeTerms(kind: '_y' | '_k'): ReadonlyMap<string, number>;
}

/** Whose names a word query is about: company search (`q`) or partner search (`nome`). */
export type NameDocuments = 'establishments' | 'partners';

/**
 * One clause: OR of exact terms, or a prefix query (`word*`) when `prefix` is set, or, when
 * `checked` too, a prefix the row's names are checked against (never sent to FTS5 as such; its
 * `terms`, when any, are its words for an OR instead).
 */
export interface Clause {
  param: keyof CompanyFilters | keyof PartnerFilters;
  terms: string[];
  prefix?: string;
  checked?: boolean;
  /**
   * A checked prefix without `terms` whose index form is `word*`: what that should cost, in ms
   * (the establishments holding it × STAR_MS_PER_DOC), the time its checks may take (page.ts).
   */
  starMs?: number;
  /** The yes/no filters a flags clause stands for (terms.ts FLAG). */
  flags?: Partial<Record<keyof typeof FLAG, boolean>>;
}

/** A range filter: terms fully inside [min, max], and terms cut by it (rows to check). */
export interface RangeClause {
  param: 'inicio_atividade' | 'capital_social';
  min: number;
  max: number;
  whole: string[];
  cut: string[];
}

export interface Plan {
  clauses: Clause[];
  ranges: RangeClause[];
  /** CEP prefixes a row must start with, when one is longer than the 5-digit terms (else null). */
  cep: string[] | null;
  /** A clause with no term: nothing can match. */
  empty: boolean;
}

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;

/** The FTS5 syntax of one clause. */
export function clauseSql(c: Clause): string {
  if (c.checked) throw new Error('a checked prefix is not an index clause');
  if (c.prefix !== undefined) return `${quote(c.prefix)}*`;
  return c.terms.length === 1 ? quote(c.terms[0]) : `(${c.terms.map(quote).join(' OR ')})`;
}

/** The MATCH text of clauses (AND); null when there is none. */
export function matchSql(clauses: readonly Clause[]): string | null {
  return clauses.length ? clauses.map(clauseSql).join(' AND ') : null;
}

/** The normalised words of a name query (the same function the build used on the names). */
export function queryWords(q: string): string[] {
  const t = normalizeText(q);
  return t === '' ? [] : [...new Set(t.split(' '))];
}

/**
 * Clauses for name words: each word exact, the last (≥ 2 characters) also as a prefix, routed by
 * the number of its words and of the `names` documents holding it (see above and `opts`).
 */
export function wordClauses(param: Clause['param'], text: string, ix: IndexLookups, names: NameDocuments, opts: PlanOptions = PLAN_DEFAULTS): Clause[] {
  const words = queryWords(text);
  if (!words.length) throw new InvalidFilter(param, 'no word to search for');
  if (words.length > 20) throw new InvalidFilter(param, 'too many words (20 at most)');
  return words.map((w, i) => {
    if (i < words.length - 1 || w.length < 2) return { param, terms: [w] };
    if (!/^[a-z]/.test(w)) return { param, terms: [], prefix: w };
    const found = ix.wordsWithPrefix(w, MAX_OR);
    // The word itself stays even when absent: an absent term costs one lookup and matches nothing.
    const terms = found.includes(w) ? found : [w, ...found];
    if (found.length < MIN_STAR_WORDS) return { param, terms };
    const bound = Math.max(opts.prefixQueryDocs, opts.prefixFallbackDocs);
    const docs = bound > 0 ? ix.prefixDocuments(w, bound, names) : null;
    if (docs !== null && docs <= Math.min(opts.prefixQueryDocs, found.length * STAR_DOCS_PER_WORD)) return { param, terms: [], prefix: w };
    if (found.length <= MAX_EXPANSION) return { param, terms };
    if (found.length <= MAX_OR) return { param, terms, prefix: w, checked: true };
    if (docs === null || docs > opts.prefixFallbackDocs) return { param, terms: [], prefix: w, checked: true };
    return { param, terms: [], prefix: w, checked: true, starMs: docs * opts.starMsPerDoc };
  });
}

const digits = (param: string, v: string, min: number, max: number) => {
  if (typeof v !== 'string' || !/^\d+$/.test(v) || v.length < min || v.length > max) {
    throw new InvalidFilter(param, `expected ${min} to ${max} digits`);
  }
  return v;
};

const code = (param: string, v: number) => {
  if (!Number.isSafeInteger(v) || v < 0) throw new InvalidFilter(param, 'expected a numeric code');
  return v;
};

/** CEP terms: 2 or 5 digits exact; 3–4 the 5-digit terms present; 6–8 the 5-digit term (rows checked). */
function cepTerms(p: string, ix: IndexLookups): string[] {
  if (p.length === 2 || p.length >= 5) return [term.cep(p.slice(0, 5))];
  return ix.termsWithPrefix(term.cep(p)).filter((t) => t.length === term.cep('').length + 5);
}

/** CNAE terms: the primary's 2- or 7-digit term, else the subclasses present (secondaries: always). */
function cnaeTerms(prefix: string, secondary: boolean, ix: IndexLookups): string[] {
  const p = digits('cnae', prefix, 2, 7);
  const codes = () => ix.cnaeCodes(p).map((c) => String(c).padStart(7, '0'));
  const primary = p.length === 2 || p.length === 7 ? [term.cnae(p, false)] : codes().map((c) => term.cnae(c, false));
  if (!secondary) return primary;
  return [...primary, ...(p.length === 7 ? [p] : codes()).map((c) => term.cnae(c, true))];
}

export function compilePlan(f: CompanyFilters, ix: IndexLookups, opts: PlanOptions = PLAN_DEFAULTS): Plan {
  const clauses: Clause[] = [];
  const add = (param: keyof CompanyFilters, terms: string[]) => clauses.push({ param, terms: [...new Set(terms)] });
  if (f.q !== undefined) clauses.push(...wordClauses('q', f.q, ix, 'establishments', opts));
  const ufs = (f.uf ?? []).map((u) => {
    if (typeof u !== 'string' || !/^[A-Za-z]{2}$/.test(u)) throw new InvalidFilter('uf', 'expected two letters');
    return u.toUpperCase();
  });
  if (f.uf?.length) add('uf', ufs.map(term.uf));
  if (f.municipio?.length) {
    add('municipio', f.municipio.flatMap((m) => (typeof m === 'number' ? [code('municipio', m)] : ix.municipioCodes(normalizeText(String(m)), ufs))).map(term.municipio));
  }
  const ceps = (f.cep ?? []).map((p) => digits('cep', p, 2, 8));
  if (ceps.length) add('cep', ceps.flatMap((p) => cepTerms(p, ix)));
  if (f.cnae?.length) add('cnae', f.cnae.flatMap((p) => cnaeTerms(p, f.cnae_secundario === true, ix)));
  if (f.situacao_cadastral?.length) {
    add('situacao_cadastral', f.situacao_cadastral.map((s) => {
      if (!Object.hasOwn(SITUACOES, s)) throw new InvalidFilter('situacao_cadastral', `unknown value ${String(s)}`);
      return term.situacao(SITUACOES[s]);
    }));
  }
  if (f.matriz_filial !== undefined) {
    if (!Object.hasOwn(MATRIZ_FILIAL, f.matriz_filial)) throw new InvalidFilter('matriz_filial', 'expected matriz or filial');
    add('matriz_filial', [term.matrizFilial(MATRIZ_FILIAL[f.matriz_filial])]);
  }
  if (f.natureza_juridica?.length) add('natureza_juridica', f.natureza_juridica.map((n) => term.natureza(code('natureza_juridica', n))));
  if (f.porte?.length) add('porte', f.porte.map((n) => term.porte(code('porte', n))));
  const flags: Partial<Record<keyof typeof FLAG, boolean>> = {};
  for (const k of Object.keys(FLAG) as (keyof typeof FLAG)[]) {
    const v = f[k];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') throw new InvalidFilter(k, 'expected true or false');
    flags[k] = v;
  }
  const flagParams = Object.keys(flags) as (keyof typeof FLAG)[];
  if (flagParams.length) clauses.push({ param: flagParams[0], terms: flagTerms(flags), flags });
  const ranges = [dateRange(f, ix), capitalRange(f, ix)].filter((r): r is RangeClause => r !== null);
  const empty = clauses.some((c) => c.prefix === undefined && c.terms.length === 0) || ranges.some((r) => !r.whole.length && !r.cut.length);
  return { clauses, ranges, cep: ceps.some((p) => p.length > 5) ? ceps : null, empty };
}

function dateRange(f: CompanyFilters, ix: IndexLookups): RangeClause | null {
  if (f.inicio_atividade_min === undefined && f.inicio_atividade_max === undefined) return null;
  const parse = (param: string, s: string | undefined, dflt: number) => {
    if (s === undefined) return dflt;
    const n = parseIsoDate(s);
    if (n === null) throw new InvalidFilter(param, 'expected a date YYYY-MM-DD');
    return n;
  };
  const min = parse('inicio_atividade_min', f.inicio_atividade_min, 0);
  const max = parse('inicio_atividade_max', f.inicio_atividade_max, 99999999);
  const whole: string[] = [];
  const cut: string[] = [];
  const present = ix.rangeTerms('_y');
  for (const t of present.keys()) {
    const v = Number(t.slice(2));
    if (t.length !== 6) continue; // years first; their months below when a year is cut
    if (v * 10000 + 101 >= min && v * 10000 + 1231 <= max) whole.push(t);
    else if (v * 10000 + 1231 >= min && v * 10000 + 101 <= max) {
      for (let m = 1; m <= 12; m++) {
        const mt = term.inicio(v * 100 + m);
        if (!present.has(mt)) continue;
        const first = (v * 100 + m) * 100 + 1;
        const last = (v * 100 + m) * 100 + lastDayOfMonth(v, m);
        if (first >= min && last <= max) whole.push(mt);
        else if (last >= min && first <= max) cut.push(mt);
      }
    }
  }
  return { param: 'inicio_atividade', min, max, whole, cut };
}

function capitalRange(f: CompanyFilters, ix: IndexLookups): RangeClause | null {
  if (f.capital_social_min === undefined && f.capital_social_max === undefined) return null;
  const cents = (param: string, v: number | undefined, dflt: number) => {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new InvalidFilter(param, 'expected an amount ≥ 0');
    return Math.round(v * 100);
  };
  const min = cents('capital_social_min', f.capital_social_min, 0);
  const max = cents('capital_social_max', f.capital_social_max, Infinity);
  const whole: string[] = [];
  const cut: string[] = [];
  for (const t of ix.rangeTerms('_k').keys()) {
    const [low, high] = capitalBucketRange(t === term.capital(-1) ? -1 : Number(t.slice(2)));
    if (low >= min && high - 1 <= max) whole.push(t);
    else if (high - 1 >= min && low <= max) cut.push(t);
  }
  return { param: 'capital_social', min, max, whole, cut };
}
