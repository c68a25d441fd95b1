// Most of a month's feed subjects (subjects.ts), gathered while the comparison runs and read from
// the new month's snapshot in table order, not by key per subject:
// - an establishment of the new month with changes: the comparison hands its new-month row
//   (compare.ts), so its uf, municipio, CNAE, situação and matriz are not read again;
// - a company with company-level changes: its bases are collected, then the establishments of
//   those bases are found through the key index (bases sorted: the index read in order) and read
//   in rowid order, and the head office picked among them (headOfficeSql's rule);
// - the companies' natureza/porte and Simples/MEI of both: once per base, in table order.
// Left to subjects.ts: closed establishments, and companies with no establishment in the new month.
//
// Why: at 60 M companies, reading these per subject by key was most of the recording's time
// (~1.1 M subjects, three random reads each, the two snapshots not fitting in RAM together;
// docs/benchmarks.md). Rows are stored in the dump's order, unrelated to the key, so key order
// meant a random disk read per row.
//
// The rows wait in a scratch database (an anonymous file SQLite deletes on close, so memory stays
// flat whatever the month's size): the comparison's connection is busy streaming while they come.
import { openSqlite, type Sqlite } from '../../src/storage/sqlite.ts';
import { attachSnapshot } from '../../src/storage/snapshots/attach.ts';
import {
  companies,
  establishments,
  keyIndex,
  simples,
  SNAPSHOT_MMAP_BYTES,
  type TableDef,
} from '../../src/storage/snapshots/tables.ts';
import { HISTORY_WRITE_CACHE_KIB } from '../../src/storage/history/db.ts';
import type { SubjectRow } from '../../src/storage/history/subjects.ts';
import { MAPPED_COLUMNS } from '../../src/domain/company/map.ts';
import { kindBit } from '../../src/domain/history/kinds.ts';
import {
  SUBJECT_COMPANY_COLUMNS,
  SUBJECT_EST_COLUMNS,
  subjectRow,
  type SubjectCompany,
  type SubjectEstablishment,
  type SubjectSimples,
} from './subject-values.ts';

const E = MAPPED_COLUMNS.establishment;
/** Where each column a subject reads sits in the comparison's rows (the mapping's columns). */
const FROM_ROW = SUBJECT_EST_COLUMNS.map((c) => E.indexOf(c));
const CNPJ = E.indexOf('cnpj');
if (FROM_ROW.includes(-1)) throw new Error("a subject column is not among the mapping's establishment columns");
const EST_LIST = SUBJECT_EST_COLUMNS.join(', ');

type Gathered = { cnpj: string; kinds: number; company: number } & SubjectEstablishment &
  SubjectCompany &
  SubjectSimples & { has_company: number | null; has_simples: number | null };

export class GatheredSubjects {
  private readonly scratch: Sqlite;
  private readonly putEstablishment;
  private readonly putCompany;
  private cnpj = '';
  private kinds = 0;
  private resolvedBase: { get(b: string): unknown } | null = null;

  /** `afterDir`: the new month's snapshot, whose rows the subjects show. */
  constructor(afterDir: string) {
    this.scratch = openSqlite('');
    try {
      attachSnapshot(this.scratch, afterDir, { establishments: 'ne', companies: 'nc' });
      for (const s of ['ne', 'nc']) this.scratch.pragma(`${s}.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
      // Its tables and the final sort hold ~1.3 M rows at full size: spilled in 16 MB pieces by default.
      this.scratch.pragma(`cache_size = -${HISTORY_WRITE_CACHE_KIB}`);
      this.scratch.aggregate('bit_or', { start: 0, step: (a: number, b: number) => a | b });
      this.scratch.exec(`
        CREATE TABLE est_subjects (cnpj TEXT NOT NULL, kinds INTEGER NOT NULL, ${EST_LIST});
        CREATE TABLE company_changes (b TEXT NOT NULL, bit INTEGER NOT NULL);
        BEGIN`);
      this.putEstablishment = this.scratch.prepare(
        `INSERT INTO est_subjects VALUES (?, ?, ${FROM_ROW.map(() => '?').join(', ')})`,
      );
      this.putCompany = this.scratch.prepare('INSERT INTO company_changes VALUES (?, ?)');
    } catch (err) {
      this.scratch.close();
      throw err;
    }
  }

  /** Notes one change as the comparison finds it. */
  change(key: string, tipo: string, campo: string): void {
    if (key.length === 8) {
      this.putCompany.run(key, kindBit(tipo, campo));
    } else if (tipo !== 'encerramento') {
      if (key !== this.cnpj) [this.cnpj, this.kinds] = [key, 0];
      this.kinds |= kindBit(tipo, campo);
    }
  }

  /** After an establishment's changes were noted: its row in the new month (the mapping's columns). */
  row(row: readonly unknown[]): void {
    const cnpj = row[CNPJ] as string;
    if (cnpj !== this.cnpj || this.kinds === 0) return;
    this.putEstablishment.run(cnpj, this.kinds, ...FROM_ROW.map((i) => row[i] ?? null));
    [this.cnpj, this.kinds] = ['', 0];
  }

  /**
   * The gathered subjects in CNPJ order (a head office with changes of its own and of its company
   * comes twice: once each); call once, after the comparison. Then `resolved` tells the bases
   * whose company subject is among them.
   */
  *subjects(): Generator<SubjectRow> {
    const db = this.scratch;
    const { name: byCnpj } = keyIndex(establishments);
    db.exec(`COMMIT;
      CREATE TABLE company_bases AS SELECT b, bit_or(bit) AS kinds FROM company_changes GROUP BY b ORDER BY b;
      -- every new-month establishment of those bases, through the key index, then read in table order
      CREATE TABLE candidates AS SELECT c.b, x.rowid AS r FROM company_bases c CROSS JOIN ne.establishments x INDEXED BY ${byCnpj} ON x.cnpj > c.b AND x.cnpj < c.b || '~';
      CREATE TABLE candidate_rows AS SELECT c.b, e.cnpj, ${SUBJECT_EST_COLUMNS.map((c) => `e.${c}`).join(', ')}
        FROM (SELECT b, r FROM candidates ORDER BY r LIMIT -1) c CROSS JOIN ne.establishments e ON e.rowid = c.r;
      -- the head office: the first matriz in CNPJ order, else the first establishment
      CREATE TABLE heads AS SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY b ORDER BY matriz_filial IS NOT 1, cnpj) AS n FROM candidate_rows) WHERE n = 1;
      CREATE UNIQUE INDEX heads_b ON heads (b);
      CREATE TABLE bases AS SELECT substr(cnpj, 1, 8) AS b FROM est_subjects UNION SELECT b FROM heads ORDER BY 1;
      CREATE TABLE company_attrs AS SELECT c.basico AS b, ${SUBJECT_COMPANY_COLUMNS.map((k) => `c.${k}`).join(', ')} FROM ${inTableOrder(companies)};
      CREATE TABLE simples_attrs AS SELECT c.basico AS b, c.opcao_simples IS 'S' AS simples, c.opcao_mei IS 'S' AS mei FROM ${inTableOrder(simples)};
      CREATE INDEX company_attrs_b ON company_attrs (b);
      CREATE INDEX simples_attrs_b ON simples_attrs (b);`);
    const attributes = `${SUBJECT_EST_COLUMNS.map((c) => `p.${c}`).join(', ')}, ${SUBJECT_COMPANY_COLUMNS.map((c) => `a.${c}`).join(', ')},
      a.b IS NOT NULL AS has_company, s.simples, s.mei, s.b IS NOT NULL AS has_simples`;
    const withCompany = `LEFT JOIN company_attrs a ON a.b = substr(p.cnpj, 1, 8) LEFT JOIN simples_attrs s ON s.b = substr(p.cnpj, 1, 8)`;
    this.resolvedBase = db.prepare('SELECT 1 FROM heads WHERE b = ?').pluck(true);
    const rows = db
      .prepare(
        `SELECT p.cnpj, p.kinds, 0 AS company, ${attributes} FROM est_subjects p ${withCompany}
         UNION ALL
         SELECT p.cnpj, c.kinds, 1, ${attributes} FROM heads p CROSS JOIN company_bases c ON c.b = p.b ${withCompany}
         ORDER BY 1`,
      )
      .iterate() as IterableIterator<Gathered>;
    for (const r of rows)
      yield subjectRow(r.cnpj, r.kinds, r.company, r, r.has_company ? r : undefined, r.has_simples ? r : undefined);
  }

  /** Whether a base's company subject came from subjects() (false: it has no new-month establishment). */
  resolved(base: string): boolean {
    if (this.resolvedBase === null) throw new Error('resolved() before subjects()');
    return this.resolvedBase.get(base) !== undefined;
  }

  close(): void {
    this.scratch.close();
  }
}

/**
 * The rows of `def` (as `c`) of the bases in `bases`: the key index probed in key order (the
 * bases are sorted), the rowids sorted, the rows read in rowid order. `LIMIT -1` keeps SQLite
 * from dropping the subquery's ORDER BY.
 */
function inTableOrder(def: TableDef): string {
  const { name } = keyIndex(def);
  return `(SELECT x.rowid AS r FROM bases CROSS JOIN nc.${def.name} x INDEXED BY ${name} ON x.basico = bases.b ORDER BY 1 LIMIT -1) s
    CROSS JOIN nc.${def.name} c ON c.rowid = s.r`;
}
