// The feed subjects of establishments present in the new month (subjects.ts), gathered while the
// comparison reads their rows: the comparison hands each changed establishment's new-month row
// (compare.ts), so its uf, municipio, CNAE, situação and matriz are not read again. Its company's
// natureza/porte and Simples/MEI are then read once per base, in each table's stored order.
//
// Why: at 60 M companies reading them per subject, by key, was most of the recording's time
// (~130 s of ~177 s: ~1.1 M subjects, three random reads each, with the two 24 GB snapshots not
// fitting in RAM together; docs/benchmarks.md). Rows are stored in the dump's order, unrelated to
// the key: the bases are sorted, their rowids found through the key index (read in order), and
// the rows then read in rowid order.
//
// The rows wait in a scratch database (an anonymous file SQLite deletes on close, so memory stays
// flat whatever the month's size): the comparison's connection is busy streaming while they come.
import { openSqlite, type Sqlite } from '../../storage/sqlite.ts';
import { attachSnapshot } from '../../storage/snapshots/attach.ts';
import { companies, keyIndex, simples, SNAPSHOT_MMAP_BYTES, type TableDef } from '../../storage/snapshots/tables.ts';
import { MAPPED_COLUMNS } from '../company/map.ts';
import { kindBit } from './kinds.ts';

/** The attributes a subject takes from its establishment row, in the mapping's column names. */
const FROM_ROW = ['uf', 'municipio', 'cnae_fiscal', 'situacao_cadastral', 'matriz_filial'].map((c) => MAPPED_COLUMNS.establishment.indexOf(c as never));
const CNPJ = MAPPED_COLUMNS.establishment.indexOf('cnpj');

/** A subject row as subjects.ts writes it, minus month and the company flag. */
export type EstablishmentSubject = [cnpj: string, kinds: number, uf: string | null, municipio: number | null, cnae: number | null, situacao: number | null, matriz: number | null, natureza: number | null, porte: number | null, simples: number, mei: number];

export class EstablishmentSubjects {
  private readonly scratch: Sqlite;
  private readonly put;
  private cnpj = '';
  private kinds = 0;

  /** `afterDir`: the new month's snapshot, whose companies and Simples rows the subjects show. */
  constructor(afterDir: string) {
    this.scratch = openSqlite('');
    try {
      attachSnapshot(this.scratch, afterDir, { establishments: 'ne', companies: 'nc' });
      this.scratch.pragma(`nc.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
      this.scratch.exec(`CREATE TABLE pending (cnpj TEXT NOT NULL, kinds INTEGER NOT NULL, uf TEXT, municipio INTEGER, cnae INTEGER, situacao INTEGER, matriz INTEGER);
        BEGIN`);
      this.put = this.scratch.prepare('INSERT INTO pending VALUES (?, ?, ?, ?, ?, ?, ?)');
    } catch (err) {
      this.scratch.close();
      throw err;
    }
  }

  /** Notes one change (any key; only an establishment's counts here). */
  change(key: string, tipo: string, campo: string): void {
    if (key.length !== 14 || tipo === 'encerramento') return;
    if (key !== this.cnpj) [this.cnpj, this.kinds] = [key, 0];
    this.kinds |= kindBit(tipo, campo);
  }

  /** After an establishment's changes were noted: its row in the new month (the mapping's columns). */
  row(row: readonly unknown[]): void {
    const cnpj = row[CNPJ] as string;
    if (cnpj !== this.cnpj || this.kinds === 0) return;
    this.put.run(cnpj, this.kinds, ...FROM_ROW.map((i) => row[i] ?? null));
    [this.cnpj, this.kinds] = ['', 0];
  }

  /** The subjects in CNPJ order, with their companies' attributes; call once, after the comparison. */
  *subjects(): Generator<EstablishmentSubject> {
    const db = this.scratch;
    db.exec('COMMIT');
    db.exec(`CREATE TABLE bases AS SELECT DISTINCT substr(cnpj, 1, 8) AS b FROM pending ORDER BY 1`);
    db.exec(`CREATE TABLE company_attrs AS SELECT c.basico AS b, c.natureza_juridica AS natureza, c.porte AS porte FROM ${inTableOrder(companies)}`);
    db.exec(`CREATE TABLE simples_attrs AS SELECT c.basico AS b, c.opcao_simples IS 'S' AS simples, c.opcao_mei IS 'S' AS mei FROM ${inTableOrder(simples)}`);
    db.exec(`CREATE INDEX company_attrs_b ON company_attrs (b); CREATE INDEX simples_attrs_b ON simples_attrs (b); CREATE INDEX pending_cnpj ON pending (cnpj)`);
    yield* db
      .prepare(
        `SELECT p.cnpj, p.kinds, p.uf, p.municipio, p.cnae, p.situacao, p.matriz, c.natureza, c.porte, coalesce(s.simples, 0), coalesce(s.mei, 0)
         FROM pending p INDEXED BY pending_cnpj
         LEFT JOIN company_attrs c ON c.b = substr(p.cnpj, 1, 8) LEFT JOIN simples_attrs s ON s.b = substr(p.cnpj, 1, 8)
         ORDER BY p.cnpj`,
      )
      .raw(true)
      .iterate() as Generator<EstablishmentSubject>;
  }

  close(): void {
    this.scratch.close();
  }
}

/**
 * The rows of `def` (as `c`) of the bases in `bases`: the key index probed in key order (the
 * bases are sorted), the rowids found sorted, the rows read in rowid order. `LIMIT -1` keeps
 * SQLite from dropping the subquery's ORDER BY.
 */
function inTableOrder(def: TableDef): string {
  const { name } = keyIndex(def);
  return `(SELECT x.rowid AS r FROM bases CROSS JOIN nc.${def.name} x INDEXED BY ${name} ON x.basico = bases.b ORDER BY 1 LIMIT -1) s
    CROSS JOIN nc.${def.name} c ON c.rowid = s.r`;
}
