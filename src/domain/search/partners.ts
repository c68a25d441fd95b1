// Partner search: one row per partner row of the dump (a person or company in one company), by
// name words (the rules of `q`) and/or `cnpj_cpf`, both terms of partner_fts, in the order of the
// partners table (keyset on its rowid). Each row carries its company's head office summary.
// The parts hold consecutive rowid ranges (importer/search/part.ts), so they are read in order.
// With a name, the relevance order (rankedPartners) lists first the rows whose name has exactly
// the query's core words (name-key.ts, through `partner_keys`), then the others, each tier in
// the table's order.
import { CODE_WIDTH, SITUACAO_CADASTRAL, collapse, domainText, codeDescription } from '../company/codes.ts';
import type { CodeTables } from '../../storage/snapshots/code-tables.ts';
import { mapSocio } from '../company/map.ts';
import type { Socio } from '../company/schema.ts';
import { InvalidFilter, type PartnerFilters } from './filters.ts';
import type { Statements } from './index-tables.ts';
import { hasWordStarting } from './checks.ts';
import { matchSql, type Clause, type IndexTables } from './plan.ts';
import { PLAN_DEFAULTS, wordClauses, type PlanOptions } from './prefix.ts';
import { normalizeText } from './normalize.ts';
import { PAGE_MS, SCAN_BUDGET } from './page.ts';
import { partnerKeyTerm } from './partner-key.ts';
import { coreWords, nameKey, sameName } from './name-key.ts';

/** Rejections of a partner name prefix's checks after which the OR of its words takes over. */
export const PROBE_BUDGET = 300;

export interface PartnerCompany {
  /** CNPJ of the head office (the first establishment when none is marked matriz); null without establishments. */
  cnpj: string | null;
  razao_social: string;
  situacao_cadastral: string;
  uf: string;
  municipio: string;
}

export interface PartnerHit extends Socio {
  company: PartnerCompany;
}

export interface PartnerPage {
  rows: PartnerHit[];
  /** The next page's cursor key (the table's order: the last partner rowid; relevance: `tier:rowid`), null when there is none. */
  next: string | null;
}

type PartnerRow = {
  basico: string;
  nome: string | null;
  cnpj_cpf: string | null;
  qualificacao: number | string | null;
  data_entrada: number | null;
  faixa_etaria: number | string | null;
};
type Office = {
  cnpj: string;
  situacao_cadastral: number | string | null;
  uf: string | null;
  municipio: number | string | null;
};

export function partnerClauses(f: PartnerFilters, ix: IndexTables, opts: PlanOptions = PLAN_DEFAULTS): Clause[] {
  const clauses: Clause[] = [];
  // The checks of a name prefix have their own budgets and fallbacks here (searchPartners).
  if (f.nome !== undefined)
    clauses.push(...wordClauses('nome', f.nome, ix, 'partners', { ...opts, prefixFallbackDocs: 0 }));
  if (f.cnpj_cpf !== undefined) {
    const key = typeof f.cnpj_cpf === 'string' ? partnerKeyTerm(f.cnpj_cpf) : null;
    if (key === null) throw new InvalidFilter('cnpj_cpf', 'expected a CNPJ, a CPF or a masked CPF (***123456**)');
    clauses.push({ param: 'cnpj_cpf', terms: [key] });
  }
  if (!clauses.length) throw new InvalidFilter('nome', 'a partner search needs nome or cnpj_cpf');
  return clauses;
}

/** A checked prefix as an index clause: the OR of its words when kept, else FTS5's `word*`. */
const indexed = (c: Clause): Clause =>
  !c.checked
    ? c
    : c.terms.length
      ? { param: c.param, terms: c.terms }
      : { param: c.param, terms: [], prefix: c.prefix };

/**
 * A name prefix of too many words (prefix.ts) is checked on the partner's name: the candidates
 * come from the other clauses (as for companies, checks.ts) or, alone, from the partners table in
 * its own order (the name is in the row, no fetch). PROBE_BUDGET rejections, then the OR of its
 * words from there when it has at most MAX_OR, else SCAN_BUDGET (a shorter page; alone, then
 * `word*` from there: a prefix rejected that often is rare, its doclists short). Looked up in
 * the index alone, such a prefix opened up to MAX_OR doclists per part, or FTS5 merged every
 * doclist of its words (`word*`) before the first row: seconds when they are not cached.
 */
export function searchPartners(
  st: Statements,
  clauses: Clause[],
  codeTables: CodeTables,
  limit: number,
  after: number | null,
  ms = PAGE_MS,
): PartnerPage {
  const found = partnerIds(st, clauses, limit, after, performance.now() + ms, null);
  return {
    rows: found.ids.map((id) => partnerHit(st, id, codeTables)),
    next: found.next === null ? null : String(found.next),
  };
}

/**
 * The relevance order of a partner search by name (`nome`): tier 0, the rows whose name has
 * exactly the query's core words (any order; found through `partner_keys`, checked on the row,
 * and on `cnpj_cpf` when given), then tier 1, every other row the words find; each in the
 * table's order. The cursor key is `tier:rowid` (the last row examined), so pages neither
 * repeat nor skip, and a page past its budget ends shorter with its cursor.
 */
export function rankedPartners(
  st: Statements,
  nome: string,
  clauses: Clause[],
  keyClauses: Clause[],
  codeTables: CodeTables,
  limit: number,
  cursor: { tier: 0 | 1; after: number | null },
  ms = PAGE_MS,
): PartnerPage {
  const until = performance.now() + ms;
  const words = coreWords(nome);
  const nameOf = st.get('SELECT nome FROM reg.partners WHERE rowid = ?').pluck();
  const exact = (n: unknown) => typeof n === 'string' && sameName(coreWords(n), words) !== null;
  const rows = (ids: number[]) => ids.map((id) => partnerHit(st, id, codeTables));
  let ids: number[] = [];
  let after = cursor.after;
  if (cursor.tier === 0 && words.length) {
    const key = nameKey(words);
    const keyMatch = keyClauses.length ? matchSql(keyClauses)! : null;
    // A row's cnpj_cpf, when one is asked, through partner_fts (the parts' rowid ranges are disjoint).
    const keyed = (id: number) =>
      keyMatch === null ||
      st.files.parts.some(
        (p) =>
          st
            .get(`SELECT 1 FROM ${p}.partner_fts WHERE partner_fts MATCH ? AND rowid = ?`)
            .pluck()
            .get(keyMatch, BigInt(id)) !== undefined,
      );
    const start = after ?? -1;
    function* candidates(): Iterable<number> {
      for (const p of st.files.parts)
        yield* st
          .get(`SELECT rowid FROM ${p}.partner_keys WHERE key = ? AND rowid > ? ORDER BY rowid`)
          .pluck()
          .iterate(key, start) as Iterable<number>;
    }
    const found = collect(
      candidates(),
      (id) => id,
      (id) => exact(nameOf.get(id)) && keyed(id),
      limit,
      Infinity,
      until,
    );
    ids = found.ids;
    if (found.next !== null) return { rows: rows(ids), next: `0:${found.next}` };
    after = null;
    if (ids.length === limit || performance.now() >= until) return { rows: rows(ids), next: '1:' };
  }
  const rest = partnerIds(st, clauses, limit - ids.length, after, until, words.length ? exact : null);
  return { rows: rows([...ids, ...rest.ids]), next: rest.next === null ? null : `1:${rest.next}` };
}

/**
 * The partner rowids of one page in the table's order; `exclude`: the names an earlier tier
 * listed (rankedPartners), passed over like rows a check rejects.
 */
function partnerIds(
  st: Statements,
  clauses: Clause[],
  limit: number,
  after: number | null,
  until: number,
  exclude: ((nome: unknown) => boolean) | null,
): Scan {
  const nameOf = st.get('SELECT nome FROM reg.partners WHERE rowid = ?').pluck();
  const kept = exclude === null ? null : (id: number) => !exclude(nameOf.get(id));
  const prefix = clauses.find((c) => c.checked);
  const others = clauses.filter((c) => !c.checked);
  let found: Scan;
  if (prefix === undefined) {
    found = scanPartners(st, clauses, kept, limit, after, Infinity, until);
  } else {
    const starts = (nome: string | null) =>
      hasWordStarting(normalizeText(String(nome ?? '')), prefix.prefix!) && (exclude === null || !exclude(nome));
    const budget = prefix.terms.length ? PROBE_BUDGET : SCAN_BUDGET;
    if (others.length) {
      found = scanPartners(st, others, (id) => starts(nameOf.get(id) as string | null), limit, after, budget, until);
    } else {
      found = scanRows(st, starts, limit, after, budget, until);
    }
    // Alone, past its budget the prefix is rare among the partners, so `word*` merges few postings.
    if (found.stopped === 'rejections' && (prefix.terms.length || !others.length)) {
      const rest = scanPartners(st, clauses.map(indexed), kept, limit - found.ids.length, found.next, Infinity, until);
      found = { ids: [...found.ids, ...rest.ids], next: rest.next };
    }
  }
  return found;
}

/** `stopped`: the scan ended early, after `budget` rejections or at the page's time budget (`until`). */
type Scan = { ids: number[]; next: number | null; stopped?: 'rejections' | 'time' };

/** Up to `limit` partner rowids after `after` that FTS matches and `check` passes; stops early after `budget` rejections or at `until`. */
function scanPartners(
  st: Statements,
  clauses: Clause[],
  check: ((id: number) => boolean) | null,
  limit: number,
  after: number | null,
  budget: number,
  until: number,
): Scan {
  const match = matchSql(clauses)!;
  // The parts hold consecutive rowid ranges: read one after the other, they come in rowid order.
  function* matches(): Iterable<number> {
    for (const p of st.files.parts) {
      // A BigInt binds as an INTEGER: FTS5 ignores a rowid bound that is a REAL (a JS number) and
      // SQLite then filters every match before it one by one.
      const stmt = st
        .get(`SELECT rowid FROM ${p}.partner_fts WHERE partner_fts MATCH ? AND rowid > ? ORDER BY rowid`)
        .pluck(true);
      yield* stmt.iterate(match, BigInt(after ?? -1)) as Iterable<number>;
    }
  }
  return collect(matches(), (id) => id, check, limit, budget, until);
}

/** Up to `limit` partner rowids after `after` whose name passes `check`, read in the table's order; stops after `budget` rejections. */
function scanRows(
  st: Statements,
  check: (nome: string | null) => boolean,
  limit: number,
  after: number | null,
  budget: number,
  until: number,
): Scan {
  const rows = st.get('SELECT rowid, nome FROM reg.partners WHERE rowid > ? ORDER BY rowid').raw(true);
  return collect(
    rows.iterate(after ?? -1) as Iterable<[number, string | null]>,
    ([id]) => id,
    ([, nome]) => check(nome),
    limit,
    budget,
    until,
  );
}

/**
 * The page of `candidates` (in rowid order): up to `limit` passing `passes`, or stopped after
 * `budget` rejections, or once the clock passes `until` (a shorter page; its cursor is the last
 * candidate examined, so the next page goes on from there).
 */
function collect<T>(
  candidates: Iterable<T>,
  idOf: (c: T) => number,
  passes: ((c: T) => boolean) | null,
  limit: number,
  budget: number,
  until: number,
): Scan {
  const ids: number[] = [];
  let rejected = 0;
  for (const c of candidates) {
    if (passes === null || passes(c)) {
      // One more match beyond a full page: the page ends at its last row.
      if (ids.length === limit) return { ids, next: ids[limit - 1] };
      ids.push(idOf(c));
    } else if (++rejected >= budget) {
      return { ids, next: idOf(c), stopped: 'rejections' };
    }
    if (performance.now() >= until) return { ids, next: idOf(c), stopped: 'time' };
  }
  return { ids, next: null };
}

function partnerHit(st: Statements, id: number, codeTables: CodeTables): PartnerHit {
  const p = st
    .get('SELECT basico, nome, cnpj_cpf, qualificacao, data_entrada, faixa_etaria FROM reg.partners WHERE rowid = ?')
    .get(id) as PartnerRow;
  const razao = st.get('SELECT razao_social FROM reg.companies WHERE basico = ?').pluck().get(p.basico) as
    string | null | undefined;
  // The establishments of a base are a range of the cnpj index; the head office is usually its first.
  const range = [p.basico, `${p.basico}~`];
  const office = (st
    .get(
      'SELECT cnpj, situacao_cadastral, uf, municipio FROM est.establishments WHERE cnpj >= ? AND cnpj < ? AND matriz_filial = 1 LIMIT 1',
    )
    .get(...range) ??
    st
      .get(
        'SELECT cnpj, situacao_cadastral, uf, municipio FROM est.establishments WHERE cnpj >= ? AND cnpj < ? ORDER BY cnpj LIMIT 1',
      )
      .get(...range)) as Office | undefined;
  return {
    ...mapSocio(p, codeTables),
    company: {
      cnpj: office?.cnpj ?? null,
      razao_social: collapse(razao ?? null),
      situacao_cadastral: office ? domainText(SITUACAO_CADASTRAL, office.situacao_cadastral) : '',
      uf: office?.uf ?? '',
      municipio: office ? codeDescription(codeTables.municipios, office.municipio, CODE_WIDTH.municipio) : '',
    },
  };
}
