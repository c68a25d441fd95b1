// The terms of the search index: one per filter value in each establishment's FTS document. The
// build writes them (in SQL: importer/search/document-sql.ts), the queries ask for them (match.ts);
// both spell them with the markers below. A filter term is `_`, a letter naming the filter, and
// the value: a name word never holds `_` (normalize.ts keeps [a-z0-9]; names holding one are
// normalised before indexing), so terms and words cannot collide.
//
// Granularities, chosen for the build time and size of the index (every term written costs both,
// for every establishment) against the speed of queries (docs/search.md):
// - CNAE: the primary at 2 digits (division) and 7 (subclass); the secondary ones at 7 only. Any
//   other prefix is the OR of the subclasses present that start with it (cnae_codes: at most
//   ~100 for a division, a few for a group or class).
// - CEP at 2 and 5 digits: 3–4 digits are the OR of the 5-digit terms present; 6–8 digits are
//   the 5-digit term plus a check of the row (an 8-digit term took too much of the index:
//   docs/search.md).
// - The four yes/no filters (Simples, MEI, e-mail, telephone) as ONE term of their 16
//   combinations: one filter is the OR of 8 terms, two of 4; three terms fewer per document.
// - Início de atividade as a year and a month term: a range is the OR of the years and months it
//   covers whole; only the months cut by its ends need a check of the row.
// - Capital social in 1-2-5 buckets per power of ten of cents: a range with round ends (10,000,
//   50,000, 1 million reais…) needs no check; a cut bucket is checked row by row.
// - Name prefixes: the first NAME_PREFIX_LENGTH characters of every name word that starts with a
//   letter (and is that long), `_wbra` for BRASIL: a last query word of that length is one
//   doclist instead of the merge or OR of thousands of words, or row checks (prefix.ts), and a
//   longer prefix checked on the rows gets it as its candidates. Written from JS (FTS5's own
//   `prefix=` option indexes the start of every term, filter terms too: measured at 5 M
//   companies it cost far more index and build time than these terms: docs/search.md). Not 2
//   characters: a 2-letter word is already exact as the OR of the 3-letter terms that continue
//   it, and FTS5's `prefix='2 3'` made the index far larger (docs/search.md).
// - No block term any more: indexes built before 2026-11-26 also hold `_r` + the CNPJ's first
//   two digits, which pages after a cursor once used to skip through doclists; they bind the
//   cursor as an INTEGER now, which FTS5 seeks to directly (page.ts), and no query reads it.

export const MARK = {
  uf: '_u',
  municipio: '_m',
  cnae: '_c',
  cnaeSecondary: '_d',
  cep: '_p',
  situacao: '_s',
  matrizFilial: '_f',
  natureza: '_n',
  porte: '_o',
  flags: '_b',
  inicio: '_y',
  capital: '_k',
  namePrefix: '_w',
  partnerCpf: '_cpf',
  partnerCnpj: '_cnpj',
} as const;

/** The length of the name prefixes indexed as terms (see above). */
export const NAME_PREFIX_LENGTH = 3;

/** Bits of the yes/no filters in the flags term. */
export const FLAG = { opc_simples: 1, opc_mei: 2, has_email: 4, has_telefone: 8 } as const;

export const term = {
  uf: (uf: string) => MARK.uf + uf.toLowerCase(),
  municipio: (code: number) => MARK.municipio + code,
  /** A 2-digit division (primary only) or a 7-digit subclass, of the primary or a secondary activity. */
  cnae: (digits: string, secondary: boolean) => (secondary ? MARK.cnaeSecondary : MARK.cnae) + digits,
  /** 2 or 5 digits of the CEP. */
  cep: (digits: string) => MARK.cep + digits,
  situacao: (code: number) => MARK.situacao + code,
  matrizFilial: (code: number) => MARK.matrizFilial + code,
  natureza: (code: number) => MARK.natureza + code,
  porte: (code: number) => MARK.porte + code,
  flags: (bits: number) => MARK.flags + bits,
  /** `2019` or `201903`. */
  inicio: (yearOrMonth: number) => MARK.inicio + yearOrMonth,
  /** A bucket of capitalBucket(); zero is `z` (a `-` would split the term). */
  capital: (bucket: number) => MARK.capital + (bucket < 0 ? 'z' : bucket),
  /** The first NAME_PREFIX_LENGTH characters of a name word (see above). */
  namePrefix: (start: string) => MARK.namePrefix + start,
  /** Partner keys: the six digits the dump shows of a CPF, or a partner company's CNPJ. */
  partnerCpf: (six: string) => MARK.partnerCpf + six,
  partnerCnpj: (cnpj: string) => MARK.partnerCnpj + cnpj.toLowerCase(),
} as const;

/** The flags terms whose bits agree with the given yes/no filters (all 16 when none is given). */
export function flagTerms(wanted: Partial<Record<keyof typeof FLAG, boolean>>): string[] {
  const out: string[] = [];
  for (let bits = 0; bits < 16; bits++) {
    const ok = (Object.keys(FLAG) as (keyof typeof FLAG)[]).every(
      (k) => wanted[k] === undefined || ((bits & FLAG[k]) !== 0) === wanted[k],
    );
    if (ok) out.push(term.flags(bits));
  }
  return out;
}

// ---- capital social buckets ----

const STEPS = [1, 2, 5];
/** Buckets 0..LAST (1-2-5 per power of ten of cents); -1 is capital zero. Larger values share LAST. */
export const LAST_CAPITAL_BUCKET = 3 * 18 + 2;

/** The bucket of an amount in cents (≥ 0): the build computes the same in SQL (document-sql.ts). */
export function capitalBucket(cents: number): number {
  if (cents < 1) return -1;
  const text = BigInt(Math.trunc(cents)).toString();
  const lead = text.charCodeAt(0) - 48;
  return Math.min(LAST_CAPITAL_BUCKET, (text.length - 1) * 3 + (lead < 2 ? 0 : lead < 5 ? 1 : 2));
}

/** The cents range [low, high) of a bucket; zero is [0, 1); the last one is unbounded above. */
export function capitalBucketRange(b: number): [number, number] {
  if (b < 0) return [0, 1];
  const low = STEPS[b % 3] * 10 ** Math.floor(b / 3);
  return [low, b === LAST_CAPITAL_BUCKET ? Infinity : STEPS[(b + 1) % 3] * 10 ** Math.floor((b + 1) / 3)];
}
