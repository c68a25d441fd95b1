// A page of one month's change feed (GET /api/v1/changes, docs/history.md): the changes in
// (shown CNPJ, campo) order, filtered by tipo/campo and by attributes of the CNPJ shown, keyset
// paged. The month's subjects (subjects.ts) are walked in CNPJ order, through the index of the
// most selective filter given (municipio, then CNAE, then UF; several values merged in CNPJ
// order), each checked against the other filters and its tipo/campo bits before its changes are
// read (two primary-key reads: its own, and its company's when shown under it).
// A page examines at most SCAN_BUDGET subjects, and with a tipo/campo filter SQLite skips those
// without its bits over at most the sum of SCAN_RANGES subjects: a rare combination may answer a
// short page with a next_cursor (as the search does) instead of reading the whole month for one
// request. The filters: feed-filters.ts; the row check: feed-checks.ts.
import type { Statement } from 'better-sqlite3';
import { HISTORY_SQL, type ChangeRow } from '../../storage/history/schema.ts';
import { SUBJECT_COLUMNS, SUBJECTS_SQL, type IndexedColumn, type SubjectRow } from '../../storage/history/subjects.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { cnaeRange, col, municipioCodes, rowCheck, type Row } from './feed-checks.ts';
import { FilterUnavailable, V3_FILTERS, type FeedFilters } from './feed-filters.ts';
import { changeItem, type ChangeItem } from './item.ts';
import { kindsMask } from './kinds.ts';

/** Where a page resumes: after this (shown CNPJ, campo); campo '~' = after every change of the CNPJ. */
export type FeedKey = readonly [cnpj: string, campo: string];

export interface FeedPage {
  items: ChangeItem[];
  next: FeedKey | null;
}

/** Subjects examined by one page at most: bounds a page's time whatever the filters (docs/benchmarks.md). */
export const SCAN_BUDGET = 10_000;
/**
 * With a tipo/campo filter, SQLite skips the subjects without those bits itself (far cheaper per
 * subject than examining it in JavaScript: docs/benchmarks.md), walking the month in CNPJ ranges
 * of these many subjects, each range's end found first (an OFFSET seek): small first, so a page
 * that fills at once pays little, growing, at most their sum per page (a rare campo answers a
 * short page then).
 */
export const SCAN_RANGES = [2_000, 8_000, 32_000, 80_000] as const;

/** One range of a page's walk: subjects with CNPJ in [from, upper] whose kinds meet the mask. */
interface ScanRange {
  from: string;
  upper: string;
  mask: number;
}
/** Sorts after every CNPJ. */
const END = '~';
/** Sorts after every campo: resume after the whole CNPJ. */
export const AFTER_CNPJ = '~';

/** The subjects from `from` on, in CNPJ order, through the most selective index the filters allow. */
function drivers(
  db: Sqlite,
  month: string,
  f: FeedFilters,
  municipios: number[] | null,
  range: ScanRange,
  columns: string,
): Statement[] {
  const { from, upper, mask } = range;
  const byValue = (column: IndexedColumn, values: readonly unknown[]) =>
    values.map(() => db.prepare(SUBJECTS_SQL.fromValue(column, columns)).raw(true));
  if (municipios)
    return byValue('municipio', municipios).map((s, i) => s.bind(month, municipios[i], from, upper, mask));
  // The index holds the CNAE fiscal only: with the secondary ones, it cannot drive.
  if (f.cnae && f.cnae_secundario !== true) {
    // The CNAE codes present in the month under each prefix: one index seek each.
    const next = db.prepare(SUBJECTS_SQL.nextValue('cnae')).pluck();
    const codes = new Set<number>();
    for (const [lo, hi] of f.cnae.map(cnaeRange)) {
      for (
        let c = next.get(month, lo - 1, hi) as number | null;
        c !== null;
        c = next.get(month, c, hi) as number | null
      )
        codes.add(c);
    }
    const list = [...codes];
    return byValue('cnae', list).map((s, i) => s.bind(month, list[i], from, upper, mask));
  }
  if (f.uf) {
    const ufs = [...new Set(f.uf.map((u) => u.toUpperCase()))];
    return byValue('uf', ufs).map((s, i) => s.bind(month, ufs[i], from, upper, mask));
  }
  return [db.prepare(SUBJECTS_SQL.from(columns)).raw(true).bind(month, from, upper, mask)];
}

/** Rows of several CNPJ-ordered streams, merged in CNPJ order (a stream's values are disjoint from the others'). */
function* merged(streams: Statement[]): Generator<Row> {
  const its = streams.map((s) => s.iterate() as IterableIterator<Row>);
  const heads = its.map((it) => it.next());
  try {
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++)
        if (!heads[i].done && (best < 0 || (heads[i].value as Row)[0] < (heads[best].value as Row)[0])) best = i;
      if (best < 0) return;
      yield heads[best].value as Row;
      heads[best] = its[best].next();
    }
  } finally {
    for (const it of its) it.return?.();
  }
}

export function feedPage(
  db: Sqlite,
  month: string,
  f: FeedFilters,
  after: FeedKey | null,
  limit: number,
  budget = SCAN_BUDGET,
  ranges: readonly number[] = SCAN_RANGES,
): FeedPage {
  const layout = db.prepare(HISTORY_SQL.subjectsVersion).pluck().get(month) as number | undefined;
  // (cnae_secundario changes nothing without true and a cnae)
  const missing = V3_FILTERS.find((k) =>
    k === 'cnae_secundario' ? f.cnae_secundario === true && f.cnae !== undefined : f[k] !== undefined,
  );
  if (missing !== undefined && (layout ?? 0) < 3) throw new FilterUnavailable(missing, month);
  const codes = f.municipio ? municipioCodes(db, f.municipio) : null;
  const { check, columns } = rowCheck(f, codes && new Set(codes));
  // Every column in its place (the row check reads them by position); those not read come as NULL.
  const projection = SUBJECT_COLUMNS.map((c) => (columns.has(c) ? c : 'NULL')).join(', ');
  const mask = kindsMask(f.tipo, f.campo);
  const tipos = f.tipo && new Set<string>(f.tipo);
  const campos = f.campo && new Set(f.campo);
  const wanted = (c: ChangeRow) =>
    (tipos === undefined || tipos.has(c.tipo)) && (campos === undefined || campos.has(c.campo));
  const ofKey = db.prepare(SUBJECTS_SQL.changesOfKey);
  const items: ChangeItem[] = [];
  const keys: FeedKey[] = [];
  let examined = 0;
  let done: string | null = null;
  // Without a tipo/campo filter every subject has a wanted bit: one range, to the end.
  const narrowed = mask !== kindsMask(undefined, undefined);
  const rangeEnd = narrowed ? db.prepare(SUBJECTS_SQL.nth).pluck() : null;
  let from = after?.[0] ?? '';
  // A range's last CNPJ, already walked, is also the next range's first (its bound is inclusive).
  let walked: string | null = null;
  for (const size of narrowed ? ranges : [null]) {
    const upper = size === null ? END : ((rangeEnd!.get(month, from, size - 1) as string | undefined) ?? END);
    for (const r of merged(drivers(db, month, f, codes, { from, upper, mask }, projection))) {
      const cnpj = r[0];
      if (cnpj === walked) continue;
      // Out of budget: resume after the last subject read whole (every wanted change of it given).
      if (++examined > budget && done !== null) return { items, next: [done, AFTER_CNPJ] };
      if (check(r)) {
        const rows = (ofKey.all(month, cnpj) as ChangeRow[]).concat(
          r[col.company] ? (ofKey.all(month, cnpj.slice(0, 8)) as ChangeRow[]) : [],
        );
        rows.sort((a, b) => (a.campo < b.campo ? -1 : a.campo > b.campo ? 1 : 0));
        for (const c of rows) {
          if (!wanted(c) || (after && cnpj === after[0] && c.campo <= after[1])) continue;
          if (items.length === limit) return { items, next: keys[limit - 1] };
          items.push(changeItem(c, cnpj));
          keys.push([cnpj, c.campo]);
        }
      }
      // Matching or not, this subject is read whole: a page out of budget resumes after it.
      done = cnpj;
    }
    if (upper === END) return { items, next: null };
    // Every subject up to the range's end was read or skipped for its bits.
    [from, walked, done] = [upper, upper, upper];
  }
  return { items, next: done === null ? null : [done, AFTER_CNPJ] };
}

export type { SubjectRow };
