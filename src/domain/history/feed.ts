// A page of one month's change feed (GET /api/v1/changes, docs/history.md): the changes in
// (shown CNPJ, campo) order, filtered by tipo/campo and by attributes of the CNPJ shown, keyset
// paged. The month's subjects (subjects.ts) are walked in CNPJ order, through the index of the
// most selective filter given (municipio, then CNAE, then UF; several values merged in CNPJ
// order), each checked against the other filters and its tipo/campo bits before its changes are
// read (two primary-key reads: its own, and its company's when shown under it).
// A page examines at most SCAN_BUDGET subjects: a rare combination may answer a short page with a
// next_cursor (as the search does) instead of reading the whole month for one request.
import type { Statement } from 'better-sqlite3';
import { MATRIZ_FILIAL, SITUACOES, InvalidFilter, type CompanyFilters } from '../search/filters.ts';
import { normalizeText } from '../search/normalize.ts';
import type { ChangeRow, Tipo } from '../../storage/history/schema.ts';
import { SUBJECT_COLUMNS, SUBJECTS_SQL, type IndexedColumn, type SubjectRow } from '../../storage/history/subjects.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { changeItem, type ChangeItem } from './item.ts';
import { kindsMask } from './kinds.ts';

/**
 * The feed's filters, values parsed (feed-schema.ts); lists are OR, keys AND: tipo and campo, and
 * the company search's attribute filters that a change's CNPJ has (`cnae`: of the CNAE fiscal only).
 */
export type FeedFilters = Pick<
  CompanyFilters,
  'uf' | 'municipio' | 'cnae' | 'situacao_cadastral' | 'matriz_filial' | 'natureza_juridica' | 'porte' | 'opc_simples' | 'opc_mei'
> & {
  tipo?: readonly Tipo[];
  campo?: readonly string[];
};

/** Where a page resumes: after this (shown CNPJ, campo); campo '~' = after every change of the CNPJ. */
export type FeedKey = readonly [cnpj: string, campo: string];

export interface FeedPage {
  items: ChangeItem[];
  next: FeedKey | null;
}

/** Subjects examined by one page at most: ~1-3 µs each warm (bench:changes), so a page stays within ~30 ms whatever the filters. */
export const SCAN_BUDGET = 10_000;
/** Sorts after every campo: resume after the whole CNPJ. */
export const AFTER_CNPJ = '~';

type Row = [string, ...unknown[]];
const col = Object.fromEntries(SUBJECT_COLUMNS.map((c, i) => [c, i])) as Record<(typeof SUBJECT_COLUMNS)[number], number>;

/** A CNAE prefix as a code range [low, high). */
const cnaeRange = (p: string): [number, number] => {
  const scale = 10 ** (7 - p.length);
  return [Number(p) * scale, (Number(p) + 1) * scale];
};

/** The municipality codes of the filter (names looked up in the recorded names); unknown name: InvalidFilter. */
function municipioCodes(db: Sqlite, values: readonly (number | string)[]): number[] {
  const codes = new Set<number>();
  const byName = db.prepare(SUBJECTS_SQL.codesOfName).pluck();
  for (const v of values) {
    if (typeof v === 'number') codes.add(v);
    else {
      const found = byName.all(normalizeText(v)) as number[];
      if (found.length === 0) throw new InvalidFilter('municipio', `unknown municipio ${v}`);
      for (const c of found) codes.add(c);
    }
  }
  return [...codes];
}

/** The row check of every filter but tipo/campo (done on `kinds`). */
function rowCheck(f: FeedFilters, municipios: Set<number> | null): (r: Row) => boolean {
  const checks: ((r: Row) => boolean)[] = [];
  const inSet = <T>(i: number, values: readonly T[] | undefined) => {
    if (values === undefined) return;
    const s = new Set<unknown>(values);
    checks.push((r) => s.has(r[i]));
  };
  inSet(col.uf, f.uf?.map((u) => u.toUpperCase()));
  if (municipios) checks.push((r) => municipios.has(r[col.municipio] as number));
  if (f.cnae) {
    const ranges = f.cnae.map(cnaeRange);
    checks.push((r) => {
      const c = r[col.cnae] as number | null;
      return c !== null && ranges.some(([lo, hi]) => c >= lo && c < hi);
    });
  }
  inSet(col.situacao, f.situacao_cadastral?.map((s) => SITUACOES[s]));
  if (f.matriz_filial) inSet(col.matriz, [MATRIZ_FILIAL[f.matriz_filial]]);
  inSet(col.natureza, f.natureza_juridica);
  inSet(col.porte, f.porte);
  if (f.opc_simples !== undefined) inSet(col.simples, [f.opc_simples ? 1 : 0]);
  if (f.opc_mei !== undefined) inSet(col.mei, [f.opc_mei ? 1 : 0]);
  return (r) => checks.every((c) => c(r));
}

/** The subjects from `from` on, in CNPJ order, through the most selective index the filters allow. */
function drivers(db: Sqlite, month: string, f: FeedFilters, municipios: number[] | null, from: string): Statement[] {
  const byValue = (column: IndexedColumn, values: readonly unknown[]) => values.map(() => db.prepare(SUBJECTS_SQL.fromValue(column)).raw(true));
  if (municipios) return byValue('municipio', municipios).map((s, i) => s.bind(month, municipios[i], from));
  if (f.cnae) {
    // The CNAE codes present in the month under each prefix: one index seek each.
    const next = db.prepare(SUBJECTS_SQL.nextValue('cnae')).pluck();
    const codes = new Set<number>();
    for (const [lo, hi] of f.cnae.map(cnaeRange)) {
      for (let c = next.get(month, lo - 1, hi) as number | null; c !== null; c = next.get(month, c, hi) as number | null) codes.add(c);
    }
    const list = [...codes];
    return byValue('cnae', list).map((s, i) => s.bind(month, list[i], from));
  }
  if (f.uf) {
    const ufs = [...new Set(f.uf.map((u) => u.toUpperCase()))];
    return byValue('uf', ufs).map((s, i) => s.bind(month, ufs[i], from));
  }
  return [db.prepare(SUBJECTS_SQL.from).raw(true).bind(month, from)];
}

/** Rows of several CNPJ-ordered streams, merged in CNPJ order (a stream's values are disjoint from the others'). */
function* merged(streams: Statement[]): Generator<Row> {
  const its = streams.map((s) => s.iterate() as IterableIterator<Row>);
  const heads = its.map((it) => it.next());
  try {
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) if (!heads[i].done && (best < 0 || (heads[i].value as Row)[0] < (heads[best].value as Row)[0])) best = i;
      if (best < 0) return;
      yield heads[best].value as Row;
      heads[best] = its[best].next();
    }
  } finally {
    for (const it of its) it.return?.();
  }
}

export function feedPage(db: Sqlite, month: string, f: FeedFilters, after: FeedKey | null, limit: number, budget = SCAN_BUDGET): FeedPage {
  const codes = f.municipio ? municipioCodes(db, f.municipio) : null;
  const check = rowCheck(f, codes && new Set(codes));
  const mask = kindsMask(f.tipo, f.campo);
  const tipos = f.tipo && new Set<string>(f.tipo);
  const campos = f.campo && new Set(f.campo);
  const wanted = (c: ChangeRow) => (tipos === undefined || tipos.has(c.tipo)) && (campos === undefined || campos.has(c.campo));
  const ofKey = db.prepare(SUBJECTS_SQL.changesOfKey);
  const items: ChangeItem[] = [];
  const keys: FeedKey[] = [];
  let examined = 0;
  let done: string | null = null;
  for (const r of merged(drivers(db, month, f, codes, after?.[0] ?? ''))) {
    const cnpj = r[0];
    // Out of budget: resume after the last subject read whole (every wanted change of it given).
    if (++examined > budget && done !== null) return { items, next: [done, AFTER_CNPJ] };
    if (((r[col.kinds] as number) & mask) !== 0 && check(r)) {
      const rows = (ofKey.all(month, cnpj) as ChangeRow[]).concat(r[col.company] ? (ofKey.all(month, cnpj.slice(0, 8)) as ChangeRow[]) : []);
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
  return { items, next: null };
}

/** Every recorded change of a CNPJ and of its company, newest month first, by campo within a month. */
export function historyItems(rows: readonly ChangeRow[], cnpj: string): (ChangeItem & { month: string })[] {
  return [...rows]
    .sort((a, b) => (a.month !== b.month ? (a.month > b.month ? -1 : 1) : a.campo < b.campo ? -1 : a.campo > b.campo ? 1 : 0))
    .map((r) => ({ month: r.month, ...changeItem(r, cnpj) }));
}

export type { SubjectRow };
