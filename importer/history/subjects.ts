// Writes a recorded month's feed subjects (storage/history/subjects.ts): per CNPJ the feed shows,
// the tipo/campo bits and the attributes its filters read. Run inside the month's write
// transaction, after its changes (recordMonth): most come gathered during the comparison and read
// in table order (gathered-subjects.ts); the rest (closed establishments, companies with no
// establishment in the new month) are read here by key from the changes just written and both
// snapshots.
//
// Why a table written at record time, not a join at query time: a feed filter (uf, municipio,
// CNAE, ...) is an attribute of the establishment, not of the change. Joining each change to the
// active snapshot while paging reads one random snapshot row per change examined, and a selective
// filter examines most of the month (~3 M changes at full size) to fill a page. Here a filter is
// an index seek in history.db and the rest a check on the same row, and the feed no longer
// depends on which snapshot is active (a later month's import does not change an older month's
// feed). Measured at 1 M companies, warm: a rare municipio cost hundreds of times more CPU by the
// join (every change of the month probed; linear in the month) than here (docs/benchmarks.md).
// The cost is ~160 bytes per subject (docs/history.md).
//
// Company-level changes (8-character base) are shown under the company's head office: the new
// month's matriz (first in CNPJ order), else its first establishment, else the same in the month
// before, else the base's 0001 CNPJ.
import { normalizeText } from '../../src/domain/search/normalize.ts';
import { SUBJECT_COLUMNS, SUBJECTS_SQL } from '../../src/storage/history/subjects.ts';
import type { Sqlite } from '../../src/storage/sqlite.ts';
import type { GatheredSubjects } from './gathered-subjects.ts';
import { kindBit } from '../../src/domain/history/kinds.ts';
import {
  SUBJECT_COMPANY_COLUMNS,
  SUBJECT_EST_COLUMNS,
  subjectRow,
  type SubjectCompany,
  type SubjectEstablishment,
  type SubjectSimples,
} from './subject-values.ts';
import { headOfficeOr0001, headOfficeSql, SnapshotPair } from './pair.ts';

type Side = 'o' | 'n';

/** Statements reading one month's rows of a CNPJ / base on the pair's connection. */
function sideReader(pair: SnapshotPair, s: Side) {
  const est = pair.sqlite.prepare(`SELECT ${SUBJECT_EST_COLUMNS.join(', ')} FROM ${s}e.establishments WHERE cnpj = ?`);
  const company = pair.sqlite.prepare(
    `SELECT ${SUBJECT_COMPANY_COLUMNS.join(', ')} FROM ${s}c.companies WHERE basico = ?`,
  );
  const simples = pair.sqlite.prepare(
    `SELECT opcao_simples IS 'S' AS simples, opcao_mei IS 'S' AS mei FROM ${s}c.simples WHERE basico = ?`,
  );
  return {
    est: (cnpj: string) => est.get(cnpj) as SubjectEstablishment | undefined,
    company: (base: string) => company.get(base) as SubjectCompany | undefined,
    simples: (base: string) => simples.get(base) as SubjectSimples | undefined,
  };
}

/**
 * Writes `month`'s subjects: those gathered during the comparison, then the rest from its changes
 * (already written on `db`) and the two snapshots; returns how many rows were written (a head
 * office with changes of its own and of its company may count twice).
 */
export function writeSubjects(db: Sqlite, month: string, pair: SnapshotPair, gathered: GatheredSubjects): number {
  const side = { o: sideReader(pair, 'o'), n: sideReader(pair, 'n') };
  const head = pair.sqlite.prepare<{ b: string }, string | null>(`SELECT ${headOfficeSql('@b')}`).pluck(true);
  const headOffice = (b: string) => headOfficeOr0001(head.get({ b }), b);
  // A head office with changes of its own and of its company: one subject with both kinds.
  const insert = db.prepare(SUBJECTS_SQL.upsert);
  db.prepare(SUBJECTS_SQL.deleteMonth).run(month);
  let written = 0;
  for (const row of gathered.subjects()) {
    insert.run(month, ...SUBJECT_COLUMNS.map((c) => row[c]));
    written++;
  }
  // One base at a time: its company rows (8-character key) and its establishments' rows are
  // contiguous in key order, so memory holds one company's subjects, whatever the month's size.
  let base: string | null = null;
  let group = new Map<string, { kinds: number; company: number; closed: boolean }>();
  const flush = () => {
    for (const [cnpj, g] of [...group].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const now = g.closed ? undefined : side.n.est(cnpj);
      const s: Side = now === undefined ? 'o' : 'n';
      const basico = cnpj.slice(0, 8);
      const row = subjectRow(
        cnpj,
        g.kinds,
        g.company,
        now ?? side.o.est(cnpj),
        side[s].company(basico),
        side[s].simples(basico),
      );
      insert.run(month, ...SUBJECT_COLUMNS.map((c) => row[c]));
      written++;
    }
    group = new Map();
  };
  const at = (cnpj: string) => {
    let g = group.get(cnpj);
    if (g === undefined) group.set(cnpj, (g = { kinds: 0, company: 0, closed: false }));
    return g;
  };
  for (const [key, tipo, campo] of keysOf(db, month)) {
    const b = key.slice(0, 8);
    if (b !== base) {
      flush();
      base = b;
    }
    // Gathered above: establishments in the new month, companies with one there.
    if (key.length === 14 ? tipo !== 'encerramento' : gathered.resolved(b)) continue;
    if (key.length === 14) {
      const g = at(key);
      g.kinds |= kindBit(tipo, campo);
      if (tipo === 'encerramento') g.closed = true;
    } else {
      const g = at(headOffice(b));
      g.kinds |= kindBit(tipo, campo);
      g.company = 1;
    }
  }
  flush();
  const putName = db.prepare(SUBJECTS_SQL.putName);
  db.prepare(SUBJECTS_SQL.clearNames).run();
  for (const [code, name] of pair.codeTables[1].municipios) putName.run(normalizeText(name), code);
  return written;
}

/**
 * The month's change keys of companies and closed establishments in key order, read in chunks
 * (keyset on the primary key): the caller inserts on the same connection between chunks, which an
 * open iterator would not allow.
 */
function* keysOf(db: Sqlite, month: string): Generator<[string, string, string]> {
  // Only what the gathering left (closed establishments, companies): the establishments' other
  // changes, most of the month, are skipped in SQL.
  const page = db
    .prepare(
      "SELECT cnpj, tipo, campo FROM changes WHERE month = ? AND (cnpj, campo) > (?, ?) AND (length(cnpj) = 8 OR tipo = 'encerramento') ORDER BY cnpj, campo LIMIT 20000",
    )
    .raw(true);
  let after: [string, string] = ['', ''];
  for (;;) {
    const rows = page.all(month, ...after) as [string, string, string][];
    yield* rows;
    if (rows.length < 20000) return;
    const last = rows[rows.length - 1];
    after = [last[0], last[2]];
  }
}
