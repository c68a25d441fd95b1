// One page of a company search: the CNPJs after `after`, in CNPJ order.
//
// Every part holds establishments from the whole CNPJ range, in two rowid ranges (numeric and
// alphanumeric CNPJs, rowid.ts), so a page is the merge by CNPJ of parts × 2 sorted streams, each
// an FTS5 query read lazily (an open statement, rows pulled as the merge needs them).
//
// Keyset paging: the cursor is the last CNPJ, the next page starts at `rowid > cursor`. FTS5 takes
// that bound but reaches it by stepping through each doclist from its start (measured ~40 ns per
// skipped document: half a second deep into "situação ativa" at full size), while it skips through
// a doclist by its index when an AND partner is further on. So after a cursor, the numeric stream
// runs block by block: `(filters) AND _r<2 digits>` for the cursor's block, then the next ones:
// each block's term starts near the cursor and the other terms skip to it; the stepping is
// confined to one block (1% of the CNPJs). Page 1,000 then costs about what page 1 costs.
//
// Rows of a range filter's cut terms and long CEP prefixes (match.ts) are checked against the
// row; a page whose checks reject SCAN_BUDGET candidates stops early, shorter, with a cursor to go on.
import type { Statement } from 'better-sqlite3';
import { matchSql, type Clause, type Plan, type RangeClause } from './match.ts';
import { ALNUM_BASE, boundsAfter, cnpjOfRowid } from './rowid.ts';
import type { Statements } from './lookups.ts';
import { term } from './terms.ts';

export const SCAN_BUDGET = 10_000;

export interface Page {
  cnpjs: string[];
  /** The cursor of the next page (the last CNPJ examined), null when there is none. */
  next: string | null;
}

/** The clause of a range filter: every term it touches (the cut ones are checked per row). */
export const rangeClause = (r: RangeClause): Clause => ({ param: r.param === 'inicio_atividade' ? 'inicio_atividade_min' : 'capital_social_min', terms: [...r.whole, ...r.cut] });

/**
 * A check of each candidate row, or null when the index terms are exact: the cut terms of range
 * filters (the row's value must be in the range) and CEP prefixes longer than the 5-digit terms.
 */
export function rowCheck(st: Statements, ranges: readonly RangeClause[], cep: readonly string[] | null): ((cnpj: string) => boolean) | null {
  const cut = ranges.filter((r) => r.cut.length);
  if (!cut.length && cep === null) return null;
  const fetch = st
    .get(
      'SELECT e.data_inicio_atividade, c.capital_social_cents, e.cep FROM est.establishments e ' +
        'LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) WHERE e.cnpj = ?',
    )
    .raw(true) as Statement<[string], [unknown, unknown, unknown]>;
  const number = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : NaN);
  return (cnpj) => {
    const row = fetch.get(cnpj);
    if (row === undefined) return false;
    const inRanges = cut.every((r) => {
      const n = number(row[r.param === 'inicio_atividade' ? 0 : 1]);
      return n >= r.min && n <= r.max;
    });
    if (!inRanges || cep === null) return inRanges;
    // As the build reads it (importer/search/document-sql.ts): an integer, leading zeros restored.
    const n = number(row[2]);
    const digits = Number.isInteger(n) && n >= 0 && n < 1e8 ? String(n).padStart(8, '0') : null;
    return digits !== null && cep.some((p) => digits.startsWith(p));
  };
}

/** The CNPJs of one part and rowid range, in order, read lazily. */
function* stream(st: Statements, part: string, alnum: boolean, match: string, after: string | null): Generator<string> {
  const b = boundsAfter(after);
  if (alnum) {
    const stmt = st.get(`SELECT rowid FROM ${part}.est_fts WHERE est_fts MATCH ? AND rowid > ? ORDER BY rowid`).pluck(true).safeIntegers(true);
    for (const rowid of stmt.iterate(match, b.alnum) as Iterable<bigint>) yield cnpjOfRowid(rowid);
    return;
  }
  const stmt = st.get(`SELECT rowid FROM ${part}.est_fts WHERE est_fts MATCH ? AND rowid > ? AND rowid < ${ALNUM_BASE} ORDER BY rowid`).pluck(true);
  if (after === null || b.numeric < 0) {
    for (const rowid of stmt.iterate(match, b.numeric) as Iterable<number>) yield cnpjOfRowid(rowid);
    return;
  }
  for (let block = Math.floor(b.numeric / 1e10); block < 100; block++) {
    const inBlock = `(${match}) AND "${term.block(String(block).padStart(2, '0'))}"`;
    for (const rowid of stmt.iterate(inBlock, b.numeric) as Iterable<number>) yield cnpjOfRowid(rowid);
  }
}

export function searchPage(st: Statements, plan: Plan, limit: number, after: string | null): Page {
  if (plan.empty) return { cnpjs: [], next: null };
  const match = matchSql([...plan.clauses, ...plan.ranges.map(rangeClause)]);
  if (match === null) throw new Error('a search needs at least one filter');
  const check = rowCheck(st, plan.ranges, plan.cep);
  const streams = st.files.parts.flatMap((p) => [stream(st, p, false, match, after), stream(st, p, true, match, after)]);
  const heads = streams.map((s) => s.next());
  try {
    const cnpjs: string[] = [];
    let rejected = 0;
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (!h.done && (best < 0 || h.value < (heads[best].value as string))) best = i;
      }
      if (best < 0) return { cnpjs, next: null };
      // One more match exists beyond a full page: the page ends at its last CNPJ.
      if (cnpjs.length === limit) return { cnpjs, next: cnpjs[limit - 1] };
      const cnpj = heads[best].value as string;
      heads[best] = streams[best].next();
      if (check === null || check(cnpj)) cnpjs.push(cnpj);
      else if (++rejected >= SCAN_BUDGET) return { cnpjs, next: cnpj };
    }
  } finally {
    // Ends the statements still open (a generator's return runs its iterator's cleanup).
    for (const s of streams) s.return(undefined);
  }
}
