// The feed's row check: each attribute filter (all but tipo/campo, checked on a subject's kinds
// bits) turned into a test on a subject's recorded columns, and the columns those tests read.
import { secondaryCnaes } from '../company/map.ts';
import { MATRIZ_FILIAL, SITUACOES, InvalidFilter, parseIsoDate } from '../search/filters.ts';
import { queryWords } from '../search/prefix.ts';
import { normalizeText } from '../search/normalize.ts';
import { SUBJECT_COLUMNS, SUBJECTS_SQL } from '../../storage/history/subjects.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import type { FeedFilters } from './feed-filters.ts';

/** A subject as read: its CNPJ first, then SUBJECT_COLUMNS in order. */
export type Row = [string, ...unknown[]];
export const col = Object.fromEntries(SUBJECT_COLUMNS.map((c, i) => [c, i])) as Record<
  (typeof SUBJECT_COLUMNS)[number],
  number
>;

/** A CNAE prefix as a code range [low, high). */
export const cnaeRange = (p: string): [number, number] => {
  const scale = 10 ** (7 - p.length);
  return [Number(p) * scale, (Number(p) + 1) * scale];
};

/** The municipality codes of the filter (names looked up in the recorded names); unknown name: InvalidFilter. */
export function municipioCodes(db: Sqlite, values: readonly (number | string)[]): number[] {
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

export type Column = (typeof SUBJECT_COLUMNS)[number];
/** What a page always reads of a subject: the key, its tipo/campo bits, whether its company's changes are shown under it. */
const ALWAYS: readonly Column[] = ['cnpj', 'kinds', 'company'];

/**
 * The row check of every filter but tipo/campo (done on `kinds`), and the subject columns it reads:
 * the others are not fetched (a page with a rare tipo/campo examines up to SCAN_BUDGET subjects,
 * and turning each one's names and CNAE texts into JavaScript strings was most of its time).
 */
export function rowCheck(
  f: FeedFilters,
  municipios: Set<number> | null,
): { check: (r: Row) => boolean; columns: Set<Column> } {
  const checks: ((r: Row) => boolean)[] = [];
  const columns = new Set<Column>(ALWAYS);
  const use = (c: Column) => {
    columns.add(c);
    return col[c];
  };
  const inSet = <T>(c: Column, values: readonly T[] | undefined) => {
    if (values === undefined) return;
    const [i, s] = [use(c), new Set<unknown>(values)];
    checks.push((r) => s.has(r[i]));
  };
  inSet(
    'uf',
    f.uf?.map((u) => u.toUpperCase()),
  );
  if (municipios) inSet('municipio', [...municipios]);
  if (f.cnae) {
    const ranges = f.cnae.map(cnaeRange);
    const within = (c: number | null) => c !== null && ranges.some(([lo, hi]) => c >= lo && c < hi);
    const main = use('cnae');
    const secondary = f.cnae_secundario === true ? use('cnaes') : -1;
    checks.push(
      (r) =>
        within(r[main] as number | null) ||
        (secondary >= 0 && secondaryCnaes(r[secondary] as string | null).some(within)),
    );
  }
  inSet(
    'situacao',
    f.situacao_cadastral?.map((s) => SITUACOES[s]),
  );
  if (f.matriz_filial) inSet('matriz', [MATRIZ_FILIAL[f.matriz_filial]]);
  inSet('natureza', f.natureza_juridica);
  inSet('porte', f.porte);
  if (f.opc_simples !== undefined) inSet('simples', [f.opc_simples ? 1 : 0]);
  if (f.opc_mei !== undefined) inSet('mei', [f.opc_mei ? 1 : 0]);
  if (f.has_email !== undefined) inSet('email', [f.has_email ? 1 : 0]);
  if (f.has_telefone !== undefined) inSet('telefone', [f.has_telefone ? 1 : 0]);
  if (f.cep) {
    const [i, prefixes] = [use('cep'), f.cep];
    checks.push((r) => typeof r[i] === 'string' && prefixes.some((p) => (r[i] as string).startsWith(p)));
  }
  if (f.q !== undefined) checks.push(namesCheck(f.q, use('names')));
  const between = (c: Column, [min, max]: [number, number]) => {
    const i = use(c);
    checks.push((r) => typeof r[i] === 'number' && (r[i] as number) >= min && (r[i] as number) <= max);
  };
  if (f.inicio_atividade_min !== undefined || f.inicio_atividade_max !== undefined)
    between('inicio', [
      date('inicio_atividade_min', f.inicio_atividade_min, 0),
      date('inicio_atividade_max', f.inicio_atividade_max, 99999999),
    ]);
  if (f.capital_social_min !== undefined || f.capital_social_max !== undefined) {
    between('capital', [
      Math.round((f.capital_social_min ?? 0) * 100),
      f.capital_social_max === undefined ? Infinity : Math.round(f.capital_social_max * 100),
    ]);
  }
  return { check: (r) => checks.every((c) => c(r)), columns };
}

/** yyyymmdd of a YYYY-MM-DD filter, `dflt` when absent; InvalidFilter when not a date. */
function date(param: string, s: string | undefined, dflt: number): number {
  if (s === undefined) return dflt;
  const n = parseIsoDate(s);
  if (n === null) throw new InvalidFilter(param, 'expected a date YYYY-MM-DD');
  return n;
}

/** The search's word rules on a subject's names: every word present, the last (≥ 2 characters) also as a prefix. */
function namesCheck(q: string, i: number): (r: Row) => boolean {
  const words = queryWords(q);
  if (!words.length) throw new InvalidFilter('q', 'no word to search for');
  if (words.length > 20) throw new InvalidFilter('q', 'too many words (20 at most)');
  const last = words[words.length - 1];
  const exact = last.length < 2 ? words : words.slice(0, -1);
  return (r) => {
    if (typeof r[i] !== 'string') return false;
    const have = (r[i] as string).split(' ');
    return exact.every((w) => have.includes(w)) && (last.length < 2 || have.some((h) => h.startsWith(last)));
  };
}
