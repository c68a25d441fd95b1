// Filters → an FTS5 query plan (plan.ts): one clause per filter, from checked values only; name
// words through prefix.ts, the range filters split into the terms they cover whole and the terms
// cut by their ends (whose documents need an exact check of the row).
import { InvalidFilter, MATRIZ_FILIAL, SITUACOES, parseIsoDate, type CompanyFilters } from './filters.ts';
import { normalizeText } from './normalize.ts';
import type { Clause, IndexTables, Plan, RangeClause } from './plan.ts';
import { PLAN_DEFAULTS, wordClauses, type PlanOptions } from './prefix.ts';
import { daysInMonth } from '../../lib/calendar.ts';
import { capitalBucketRange, FLAG, flagTerms, term } from './terms.ts';

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
function cepTerms(p: string, ix: IndexTables): string[] {
  if (p.length === 2 || p.length >= 5) return [term.cep(p.slice(0, 5))];
  return ix.termsWithPrefix(term.cep(p)).filter((t) => t.length === term.cep('').length + 5);
}

/** CNAE terms: the primary's 2- or 7-digit term, else the subclasses present (secondaries: always). */
function cnaeTerms(prefix: string, secondary: boolean, ix: IndexTables): string[] {
  const p = digits('cnae', prefix, 2, 7);
  const codes = () => ix.cnaeCodes(p).map((c) => String(c).padStart(7, '0'));
  const primary = p.length === 2 || p.length === 7 ? [term.cnae(p, false)] : codes().map((c) => term.cnae(c, false));
  if (!secondary) return primary;
  return [...primary, ...(p.length === 7 ? [p] : codes()).map((c) => term.cnae(c, true))];
}

export function compilePlan(f: CompanyFilters, ix: IndexTables, opts: PlanOptions = PLAN_DEFAULTS): Plan {
  const clauses: Clause[] = [];
  const add = (param: keyof CompanyFilters, terms: string[]) => clauses.push({ param, terms: [...new Set(terms)] });
  if (f.q !== undefined) clauses.push(...wordClauses('q', f.q, ix, 'establishments', opts));
  const ufs = (f.uf ?? []).map((u) => {
    if (typeof u !== 'string' || !/^[A-Za-z]{2}$/.test(u)) throw new InvalidFilter('uf', 'expected two letters');
    return u.toUpperCase();
  });
  if (f.uf?.length) add('uf', ufs.map(term.uf));
  if (f.municipio?.length) {
    add(
      'municipio',
      f.municipio
        .flatMap((m) =>
          typeof m === 'number' ? [code('municipio', m)] : ix.municipioCodes(normalizeText(String(m)), ufs),
        )
        .map(term.municipio),
    );
  }
  const ceps = (f.cep ?? []).map((p) => digits('cep', p, 2, 8));
  if (ceps.length)
    add(
      'cep',
      ceps.flatMap((p) => cepTerms(p, ix)),
    );
  if (f.cnae?.length)
    add(
      'cnae',
      f.cnae.flatMap((p) => cnaeTerms(p, f.cnae_secundario === true, ix)),
    );
  if (f.situacao_cadastral?.length) {
    add(
      'situacao_cadastral',
      f.situacao_cadastral.map((s) => {
        if (!Object.hasOwn(SITUACOES, s)) throw new InvalidFilter('situacao_cadastral', `unknown value ${String(s)}`);
        return term.situacao(SITUACOES[s]);
      }),
    );
  }
  if (f.matriz_filial !== undefined) {
    if (!Object.hasOwn(MATRIZ_FILIAL, f.matriz_filial))
      throw new InvalidFilter('matriz_filial', 'expected matriz or filial');
    add('matriz_filial', [term.matrizFilial(MATRIZ_FILIAL[f.matriz_filial])]);
  }
  if (f.natureza_juridica?.length)
    add(
      'natureza_juridica',
      f.natureza_juridica.map((n) => term.natureza(code('natureza_juridica', n))),
    );
  if (f.porte?.length)
    add(
      'porte',
      f.porte.map((n) => term.porte(code('porte', n))),
    );
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
  const empty =
    clauses.some((c) => c.prefix === undefined && c.terms.length === 0) ||
    ranges.some((r) => !r.whole.length && !r.cut.length);
  return { clauses, ranges, cep: ceps.some((p) => p.length > 5) ? ceps : null, empty };
}

function dateRange(f: CompanyFilters, ix: IndexTables): RangeClause | null {
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
        const last = (v * 100 + m) * 100 + daysInMonth(v, m);
        if (first >= min && last <= max) whole.push(mt);
        else if (last >= min && first <= max) cut.push(mt);
      }
    }
  }
  return { param: 'inicio_atividade', min, max, whole, cut };
}

function capitalRange(f: CompanyFilters, ix: IndexTables): RangeClause | null {
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
