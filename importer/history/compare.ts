// The differences between two imported snapshots (the month before and the new one), as change
// records: establishments by CNPJ, companies, their Simples row, partners and regime rows by base. SQLite finds
// the rows that differ, streaming (pair.ts): memory stays flat whatever the size.
// Raw column values are compared; only a changed value is turned into what the lookup shows, by the
// lookup's own mapping (mapCompany, mapSocio), so a change reads exactly like the lookup did.
import type { CodeTables } from '../../src/storage/snapshots/code-tables.ts';
import {
  MAPPED_COLUMNS,
  mapCompany,
  mapSocio,
  pickRegime,
  type MappedEstablishment,
  type MappedPartner,
  type MappedRegime,
  type SnapshotRows,
} from '../../src/domain/company/map.ts';
import type { Company, Socio } from '../../src/domain/company/schema.ts';
import { hydrator } from '../../src/domain/registry/rows.ts';
import type { Tipo } from '../../src/storage/history/schema.ts';
import {
  COMPANY_FIELDS,
  ESTABLISHMENT_FIELDS,
  REGIME_FIELDS,
  SIMPLES_FIELDS,
  SOCIOS,
  positions,
} from '../../src/domain/history/fields.ts';
import { headOfficeOr0001, SnapshotPair, type Pair } from './pair.ts';

/** Receives each change; `campo` is '' and the values null for abertura/encerramento. */
export type ChangeSink = (cnpj: string, tipo: Tipo, campo: string, antes: string | null, depois: string | null) => void;

const EST = positions(ESTABLISHMENT_FIELDS, MAPPED_COLUMNS.establishment);
const COMPANY = positions(COMPANY_FIELDS, MAPPED_COLUMNS.company);
const SIMPLES = positions(SIMPLES_FIELDS, MAPPED_COLUMNS.simples);
const establishment = hydrator<MappedEstablishment>(MAPPED_COLUMNS.establishment);
const company = hydrator<NonNullable<SnapshotRows['company']>>(MAPPED_COLUMNS.company);
const simples = hydrator<NonNullable<SnapshotRows['simples']>>(MAPPED_COLUMNS.simples);
const partner = hydrator<MappedPartner>(MAPPED_COLUMNS.partner);
const regime = hydrator<MappedRegime>(MAPPED_COLUMNS.regime);
const NO_ESTABLISHMENT = establishment(MAPPED_COLUMNS.establishment.map(() => null));
/** What tells one partner from another, and the compared qualificação (see partnerDiff). */
const PARTNER_KEY = ['nome', 'cnpj_cpf', 'qualificacao'].map((c) => MAPPED_COLUMNS.partner.indexOf(c as never));

/** The lookup's company fields for rows of one side (only the levels given; the rest empty). */
function shown(codeTables: CodeTables, rows: Partial<SnapshotRows>): Company {
  return mapCompany(
    { establishment: NO_ESTABLISHMENT, company: null, simples: null, partners: [], regimes: [], ...rows },
    codeTables,
    [],
  ).company;
}

/**
 * Fields whose raw value differs (columns at `fields`' positions) and whose shown values differ:
 * each reported with both shown values as JSON. `show` maps a side lazily (only when needed).
 */
function fieldDiff(
  a: unknown[],
  b: unknown[],
  fields: [string, number][],
  show: (side: 0 | 1) => Company,
  report: (campo: string, antes: string, depois: string) => void,
): void {
  let sa: Company | undefined;
  let sb: Company | undefined;
  for (const [campo, i] of fields) {
    if (a[i] === b[i]) continue;
    sa ??= show(0);
    sb ??= show(1);
    const x = JSON.stringify(sa[campo as keyof Company]);
    const y = JSON.stringify(sb[campo as keyof Company]);
    if (x !== y) report(campo, x, y);
  }
}

/**
 * The partner set's change: partners (told by name, document and qualificação) removed and added,
 * as multisets. A qualificação change shows as the partner in both lists. Entry date and age band
 * are shown but not compared (the age band moves with time, not with the company).
 */
function partnerDiff(a: unknown[][], b: unknown[][]): [unknown[][], unknown[][]] {
  const key = (p: unknown[]) => JSON.stringify(PARTNER_KEY.map((i) => p[i]));
  const count = new Map<string, number>();
  for (const p of b) count.set(key(p), (count.get(key(p)) ?? 0) + 1);
  const removed: unknown[][] = [];
  for (const p of a) {
    const n = count.get(key(p)) ?? 0;
    if (n > 0) count.set(key(p), n - 1);
    else removed.push(p);
  }
  const added: unknown[][] = [];
  for (const p of b) {
    const n = count.get(key(p)) ?? 0;
    if (n > 0) {
      added.push(p);
      count.set(key(p), n - 1);
    }
  }
  return [removed, added];
}

const socios = (rows: unknown[][], codeTables: CodeTables): Socio[] =>
  rows
    .map((p) => mapSocio(partner(p), codeTables))
    .sort((x, y) => (x.nome_socio < y.nome_socio ? -1 : x.nome_socio > y.nome_socio ? 1 : 0));

/**
 * Which changes to look for: the establishments' (new, gone, changed fields) or the companies'
 * (company fields, Simples/MEI, partners). The two share nothing, so an import runs them in two
 * processes at once (importer/history/step.ts); both when not given.
 */
export type ComparePart = 'establishments' | 'companies';

export interface CompareOptions {
  /** false: column by column even when both snapshots have row digests (tests). */
  digests?: boolean;
  part?: ComparePart;
}

/** Compares the snapshots in two directories; returns the count of changes per tipo (alteracao: per campo). */
export function compareSnapshots(
  beforeDir: string,
  afterDir: string,
  sink: ChangeSink,
  options: CompareOptions = {},
): Record<string, number> {
  const pair = new SnapshotPair(beforeDir, afterDir, options);
  try {
    return comparePair(pair, sink, options.part);
  } finally {
    pair.close();
  }
}

/**
 * compareSnapshots on snapshots already open (recordMonth's pair, which the feed subjects read too).
 * `onRow` receives each new or changed establishment's new-month row (the mapping's columns) after
 * its changes went to `sink`: the feed subjects take its attributes from it (establishment-subjects.ts).
 */
export function comparePair(
  pair: SnapshotPair,
  sink: ChangeSink,
  part?: ComparePart,
  onRow?: (row: unknown[]) => void,
): Record<string, number> {
  const counts: Record<string, number> = {};
  const emit: ChangeSink = (cnpj, tipo, campo, antes, depois) => {
    const k = campo || tipo;
    counts[k] = (counts[k] ?? 0) + 1;
    sink(cnpj, tipo, campo, antes, depois);
  };
  if (part !== 'companies') establishmentChanges(pair, emit, onRow);
  if (part !== 'establishments') companyChanges(pair, emit);
  return counts;
}

const parse = (t: string | null) => (t === null ? null : (JSON.parse(t) as unknown[]));

function establishmentChanges(pair: SnapshotPair, emit: ChangeSink, onRow?: (row: unknown[]) => void): void {
  const [sql, lk] = [pair.sql, pair.codeTables];
  for (const [cnpj, x, y] of pair.rows<Pair>(sql.establishments)) {
    if (x === null) {
      emit(cnpj, 'abertura', '', null, null);
      onRow?.(parse(y)!);
      continue;
    }
    const rows = [parse(x)!, parse(y)!];
    fieldDiff(
      rows[0],
      rows[1],
      EST,
      (s) => shown(lk[s], { establishment: establishment(rows[s]) }),
      (campo, a, b) => emit(cnpj, 'alteracao', campo, a, b),
    );
    onRow?.(rows[1]);
  }
  for (const [cnpj] of pair.rows<[string]>(sql.gone)) emit(cnpj, 'encerramento', '', null, null);
}

function companyChanges(pair: SnapshotPair, emit: ChangeSink): void {
  const [sql, lk] = [pair.sql, pair.codeTables];
  // A base in one month only is a company opened or gone: its establishments said so.
  for (const [basico, x, y] of pair.rows<Pair>(sql.companies)) {
    const rows = [parse(x)!, parse(y)!];
    fieldDiff(
      rows[0],
      rows[1],
      COMPANY,
      (s) => shown(lk[s], { company: company(rows[s]) }),
      (campo, a, b) => emit(basico, 'alteracao', campo, a, b),
    );
  }
  const none = MAPPED_COLUMNS.simples.map(() => null);
  for (const [basico, x, y] of pair.rows<Pair>(sql.simples)) {
    const rows = [parse(x), parse(y)];
    fieldDiff(
      rows[0] ?? none,
      rows[1] ?? none,
      SIMPLES,
      (s) => shown(lk[s], { simples: rows[s] && simples(rows[s]) }),
      (campo, a, b) => emit(basico, 'alteracao', campo, a, b),
    );
  }
  // The candidates first (few), then each one's lists: one statement at a time on the connection.
  const bases = [...pair.rows<[string]>(sql.partnerBases)].map(([b]) => b);
  for (const basico of bases) {
    const [[x, y]] = [...pair.rows<[string, string]>(sql.partners, basico, basico)];
    const [removed, added] = partnerDiff(JSON.parse(x) as unknown[][], JSON.parse(y) as unknown[][]);
    if (removed.length || added.length)
      emit(basico, 'alteracao', SOCIOS, JSON.stringify(socios(removed, lk[0])), JSON.stringify(socios(added, lk[1])));
  }
  // The regime the lookup shows: the latest year's row, preferring the CNPJ asked for (the head
  // office here, under which the feed shows company changes). A field absent is null.
  for (const [basico, x, y, head] of pair.rows<[string, string, string, string | null]>(sql.regimes)) {
    const cnpj = headOfficeOr0001(head, basico);
    const [a, b] = [x, y].map((t) => pickRegime((JSON.parse(t) as unknown[][]).map(regime), cnpj));
    for (const campo of REGIME_FIELDS) {
      const [antes, depois] = [JSON.stringify(a[campo] ?? null), JSON.stringify(b[campo] ?? null)];
      if (antes !== depois) emit(basico, 'alteracao', campo, antes, depois);
    }
  }
}
