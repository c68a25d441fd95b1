// One page of a company search: the CNPJs after `after`, in CNPJ order.
//
// Every part holds establishments from the whole CNPJ range, in two rowid ranges (numeric and
// alphanumeric CNPJs, rowid.ts), so a page is the merge by CNPJ of parts × 2 sorted streams, each
// an FTS5 query `rowid > bound … ORDER BY rowid LIMIT n`: FTS5 seeks to the bound in every doclist
// it walks, so page 1,000 costs what page 1 costs (keyset paging; the cursor is the last CNPJ).
// Rows of a range filter's cut terms (match.ts) are checked against the row; a page whose checks
// reject SCAN_BUDGET candidates stops early, shorter, with a cursor to continue from.
import type { Statement } from 'better-sqlite3';
import { matchSql, type Clause, type Plan, type RangeClause } from './match.ts';
import { ALNUM_BASE, boundsAfter, cnpjOfRowid } from './rowid.ts';
import type { Statements } from './lookups.ts';

export const SCAN_BUDGET = 10_000;
const REFILL = 256;

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
    if (!cut.every((r) => {
      const n = number(row[r.param === 'inicio_atividade' ? 0 : 1]);
      return n >= r.min && n <= r.max;
    })) return false;
    if (cep === null) return true;
    // As the build reads it (importer/search/document-sql.ts): an integer, leading zeros restored.
    const n = number(row[2]);
    const digits = Number.isInteger(n) && n >= 0 && n < 1e8 ? String(n).padStart(8, '0') : null;
    return digits !== null && cep.some((p) => digits.startsWith(p));
  };
}

class Stream {
  private buf: string[] = [];
  private at = 0;
  private done = false;
  constructor(
    private readonly stmt: Statement,
    private readonly match: string,
    private bound: number | bigint,
  ) {}

  /** The next CNPJ without taking it; null at the end. */
  peek(batch: number): string | null {
    if (this.at === this.buf.length && !this.done) {
      const rowids = this.stmt.all(this.match, this.bound, batch) as (number | bigint)[];
      this.done = rowids.length < batch;
      if (rowids.length) this.bound = rowids[rowids.length - 1];
      this.buf = rowids.map(cnpjOfRowid);
      this.at = 0;
    }
    return this.at < this.buf.length ? this.buf[this.at] : null;
  }

  take(): void {
    this.at++;
  }
}

export function searchPage(st: Statements, plan: Plan, limit: number, after: string | null): Page {
  if (plan.empty) return { cnpjs: [], next: null };
  const match = matchSql([...plan.clauses, ...plan.ranges.map(rangeClause)]);
  if (match === null) throw new Error('a search needs at least one filter');
  const check = rowCheck(st, plan.ranges, plan.cep);
  const bounds = boundsAfter(after);
  const streams: Stream[] = [];
  for (const p of st.files.parts) {
    const numeric = st.get(`SELECT rowid FROM ${p}.est_fts WHERE est_fts MATCH ? AND rowid > ? AND rowid < ${ALNUM_BASE} ORDER BY rowid LIMIT ?`);
    const alnum = st.get(`SELECT rowid FROM ${p}.est_fts WHERE est_fts MATCH ? AND rowid > ? ORDER BY rowid LIMIT ?`);
    streams.push(new Stream(numeric.pluck(true), match, bounds.numeric), new Stream(alnum.pluck(true).safeIntegers(true), match, bounds.alnum));
  }
  const cnpjs: string[] = [];
  let scanned = 0;
  let batch = limit + 1;
  for (;;) {
    let best: Stream | null = null;
    let bestCnpj: string | null = null;
    for (const s of streams) {
      const c = s.peek(batch);
      if (c !== null && (bestCnpj === null || c < bestCnpj)) [best, bestCnpj] = [s, c];
    }
    if (best === null || bestCnpj === null) return { cnpjs, next: null };
    // One more match exists beyond a full page: the page ends at its last CNPJ.
    if (cnpjs.length === limit) return { cnpjs, next: cnpjs[limit - 1] };
    best.take();
    if (check === null || check(bestCnpj)) cnpjs.push(bestCnpj);
    else if (++scanned >= SCAN_BUDGET) return { cnpjs, next: bestCnpj };
    if (scanned) batch = REFILL;
  }
}
