// Two snapshots on one read-only connection (the month before as `oe`/`oc`, the new one as
// `ne`/`nc`) and the statements that find what differs between them. SQLite does the walking: the
// two months' key indexes are merged (EXCEPT over (key, digest), each index read once in key
// order, streamed: nothing is loaded whole), only the rows that differ are read by key, and only
// those that differ in a compared column come back to JavaScript, as JSON texts of the mapping's
// columns. Walking both sides' key indexes in JavaScript instead was ~3x slower at 1 M companies
// (every row crossed into V8 twice; docs/history.md).
import { attachSnapshot } from '../../src/storage/snapshots/attach.ts';
import { openSqlite, type Sqlite } from '../../src/storage/sqlite.ts';
import {
  companies,
  DIGEST_COLUMN,
  establishments,
  keyIndex,
  partners,
  regimes,
  simples,
  SNAPSHOT_MMAP_BYTES,
  type TableDef,
} from '../../src/storage/snapshots/tables.ts';
import { makeCnpj } from '../../src/domain/cnpj.ts';
import { readCodeTables, type CodeTables } from '../../src/storage/snapshots/code-tables.ts';
import { MAPPED_COLUMNS } from '../../src/domain/company/map.ts';
import { columnNames } from '../../src/domain/registry/rows.ts';
import { COMPANY_FIELDS, ESTABLISHMENT_FIELDS, SIMPLES_FIELDS } from '../../src/domain/history/fields.ts';

const json = (names: readonly string[], t: string) =>
  `json_array(${columnNames(names)
    .map((n) => `${t}.${n}`)
    .join(', ')})`;
/** Every compared column equal (IS: NULLs equal), as a condition on rows `o` and `n`. */
const same = (fields: Record<string, string>) =>
  `(${columnNames(Object.values(fields))
    .map((c) => `o.${c} IS n.${c}`)
    .join(' AND ')})`;
/** A base present in both months' companies: only then are its company-level fields compared. */
const inBoth = (t: string) =>
  `EXISTS (SELECT 1 FROM oc.companies x WHERE x.basico = ${t}.basico) AND EXISTS (SELECT 1 FROM nc.companies y WHERE y.basico = ${t}.basico)`;
const E = MAPPED_COLUMNS.establishment;
const REGIME_COLUMNS = columnNames(regimes.columns.slice(1).map(([name]) => name));

const firstOf = (s: string, base: string, matriz: boolean) =>
  `(SELECT cnpj FROM ${s}.establishments WHERE cnpj > ${base} AND cnpj < ${base} || '~'${matriz ? ' AND matriz_filial = 1' : ''} ORDER BY cnpj LIMIT 1)`;

/**
 * The CNPJ a company's own changes are shown under (its head office), as an expression of the
 * base (an SQL expression): the new month's matriz (the first in CNPJ order), else its first
 * establishment, else the same in the month before; NULL when neither month has one
 * (headOfficeOr0001 then takes the base's 0001 CNPJ).
 */
export const headOfficeSql = (base: string) =>
  `coalesce(${['ne', 'oe'].flatMap((s) => [firstOf(s, base, true), firstOf(s, base, false)]).join(', ')})`;

/** The head office headOfficeSql found, or the base's 0001 CNPJ when neither month has one. */
export const headOfficeOr0001 = (found: string | null | undefined, base: string): string =>
  found ?? makeCnpj(base, '0001');

/**
 * The (key, digest) pairs of `schema`'s `table` that `other`'s has not: rows new or changed, told
 * from the two key indexes alone. SQLite merges the two indexes, each read once in key order
 * (MERGE (EXCEPT) in the plan): no B-tree descent per row. Probing the other month's index for
 * each row instead cost a descent each: at 60 M companies most of the comparison's time went to
 * those ~390 M probes (docs/benchmarks.md, "The full month, measured").
 */
const notIn = (schema: string, other: string, def: TableDef, digest: boolean) => {
  // The key index's own columns, in its order (the regimes' is (basico, ano, digest)): another
  // order would sort both months first. Without the digest, the key alone.
  const names = digest ? keyIndex(def).columns : [def.index[0]];
  const cols = columnNames(names).join(', ');
  return `SELECT ${cols} FROM ${schema}.${def.name} EXCEPT SELECT ${cols} FROM ${other}.${def.name} ORDER BY ${names.map((_, i) => i + 1).join(', ')}`;
};

/**
 * The statements, apart so a test can check their plans use the key indexes. With `digests`
 * (both snapshots have the row digest, storage/snapshots/tables.ts), a row whose (key, digest) is
 * in the other month's index is skipped before its twin is read: only changed rows cost a table read.
 */
export function pairSql(digests: boolean, regimeDigests = digests) {
  /**
   * The new month's rows of `table` (as `n`) that may have changed: by digest (above), else every
   * row. The changed rows are read in table order (rowid), not key order: rows are stored in the
   * dump's order, unrelated to the key, so key order read them at random (a disk read each when
   * not cached), and the month before, written in nearly the same order, is then read nearly in
   * order too. `LIMIT -1` keeps SQLite from dropping the subquery's ORDER BY.
   */
  const changedRows = (schema: string, other: string, def: TableDef) => {
    const { name, columns } = keyIndex(def);
    return digests
      ? `(SELECT n.rowid AS r FROM (${notIn(schema, other, def, true)}) c
          CROSS JOIN ${schema}.${def.name} n INDEXED BY ${name} ON ${columns.map((k) => `n.${k} = c.${k}`).join(' AND ')}
          ORDER BY 1 LIMIT -1) s CROSS JOIN ${schema}.${def.name} n ON n.rowid = s.r`
      : `${schema}.${def.name} n`;
  };
  /** Bases where a row of one month has no equal in the other (by digest, or by `columns`), either way. */
  const basesDiffering = (def: TableDef, withDigest: boolean, columns: readonly string[]) =>
    withDigest
      ? `SELECT basico FROM (${notIn('nc', 'oc', def, true)}) UNION SELECT basico FROM (${notIn('oc', 'nc', def, true)})`
      : ['nc', 'oc']
          .map(
            (s, i) =>
              `SELECT t.basico FROM ${s}.${def.name} t WHERE NOT EXISTS (SELECT 1 FROM ${['oc', 'nc'][i]}.${def.name} x WHERE x.basico = t.basico AND ${columnNames(
                columns,
              )
                .map((c) => `x.${c} IS t.${c}`)
                .join(' AND ')})`,
          )
          .join(' UNION ');
  return {
    /** New CNPJs (old JSON null) and establishments changed in a compared column: [cnpj, old, new]. */
    establishments: `SELECT n.cnpj, CASE WHEN o.cnpj IS NULL THEN NULL ELSE ${json(E, 'o')} END, ${json(E, 'n')}
      FROM ${changedRows('ne', 'oe', establishments)} LEFT JOIN oe.establishments o ON o.cnpj = n.cnpj
      WHERE o.cnpj IS NULL OR NOT ${same(ESTABLISHMENT_FIELDS)}`,
    /** CNPJs gone from the new month (the key indexes alone). */
    gone: notIn('oe', 'ne', establishments, false),
    /** Companies in both months changed in a compared column: [basico, old, new]. */
    companies: `SELECT n.basico, ${json(MAPPED_COLUMNS.company, 'o')}, ${json(MAPPED_COLUMNS.company, 'n')}
      FROM ${changedRows('nc', 'oc', companies)} CROSS JOIN oc.companies o ON o.basico = n.basico WHERE NOT ${same(COMPANY_FIELDS)}`,
    /** Simples rows changed, added or removed, of companies in both months: [basico, old or null, new or null]. */
    simples: `SELECT n.basico, CASE WHEN o.basico IS NULL THEN NULL ELSE ${json(MAPPED_COLUMNS.simples, 'o')} END, ${json(MAPPED_COLUMNS.simples, 'n')}
      FROM ${changedRows('nc', 'oc', simples)} LEFT JOIN oc.simples o ON o.basico = n.basico
      WHERE (o.basico IS NULL OR NOT ${same(SIMPLES_FIELDS)}) AND ${inBoth('n')}
      UNION ALL SELECT o.basico, ${json(MAPPED_COLUMNS.simples, 'o')}, NULL
      FROM (${notIn('oc', 'nc', simples, false)}) c CROSS JOIN oc.simples o ON o.basico = c.basico WHERE ${inBoth('o')}`,
    /**
     * Bases of companies in both months where a partner of one month has no equal in the other
     * (by name, document and qualificação; or by digest): the candidates, partnerDiff (compare.ts)
     * decides on the lists.
     */
    partnerBases: `SELECT basico FROM (${basesDiffering(partners, digests, ['nome', 'cnpj_cpf', 'qualificacao'])}) b WHERE ${inBoth('b')}`,
    /**
     * Companies in both months whose regime rows differ (a row of one month with no equal in the
     * other): [basico, old rows, new rows, head office or null] (compare.ts decides from the rows
     * what the lookup shows). The head office is the one the lookup of the company's regime is
     * shown for; one statement, streamed, so nothing is held per candidate.
     */
    regimes: `SELECT b.basico,
        (SELECT json_group_array(${json(MAPPED_COLUMNS.regime, 'o')}) FROM oc.regimes o WHERE o.basico = b.basico),
        (SELECT json_group_array(${json(MAPPED_COLUMNS.regime, 'n')}) FROM nc.regimes n WHERE n.basico = b.basico),
        ${headOfficeSql('b.basico')}
      FROM (${basesDiffering(regimes, regimeDigests, REGIME_COLUMNS)}) b WHERE ${inBoth('b')}`,
    /** One base's partners in each month, as JSON arrays of the mapping's columns. */
    partners: `SELECT (SELECT json_group_array(${json(MAPPED_COLUMNS.partner, 'o')}) FROM oc.partners o WHERE o.basico = ?),
      (SELECT json_group_array(${json(MAPPED_COLUMNS.partner, 'n')}) FROM nc.partners n WHERE n.basico = ?)`,
  } as const;
}

export type PairSql = ReturnType<typeof pairSql>;

export type Pair = [string, string | null, string | null];

/** The tables compared by digest, and the schemas (both months) that must have it. */
const DIGEST_TABLES = [
  [['oe', 'ne'], 'establishments'],
  [['oc', 'nc'], 'companies'],
  [['oc', 'nc'], 'simples'],
  [['oc', 'nc'], 'partners'],
] as const;

export class SnapshotPair {
  /** Code tables of the month before and of the new month. */
  readonly codeTables: [CodeTables, CodeTables];
  readonly sqlite: Sqlite;
  /** The statements for these two snapshots: by digest when both have them. */
  readonly sql: PairSql;

  /** `digests: false` compares column by column even when both snapshots have digests (tests). */
  constructor(beforeDir: string, afterDir: string, options: { digests?: boolean } = {}) {
    this.sqlite = openSqlite(':memory:');
    try {
      attachSnapshot(this.sqlite, beforeDir, { establishments: 'oe', companies: 'oc' });
      attachSnapshot(this.sqlite, afterDir, { establishments: 'ne', companies: 'nc' });
      // Immutable files: map them whole (see SNAPSHOT_MMAP_BYTES).
      for (const schema of ['oe', 'oc', 'ne', 'nc']) this.sqlite.pragma(`${schema}.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
      this.codeTables = [readCodeTables(this.sqlite, 'oc'), readCodeTables(this.sqlite, 'nc')];
      // Regimes have had a digest since after the others: a snapshot of the months between has
      // digests for the others only, and its regimes are compared column by column.
      const digests = (tables: readonly (readonly [readonly string[], string])[]) =>
        options.digests !== false &&
        tables.every(([schemas, table]) => schemas.every((sc) => this.hasDigest(sc, table)));
      this.sql = pairSql(digests(DIGEST_TABLES), digests([[['oc', 'nc'], 'regimes']]));
    } catch (err) {
      this.sqlite.close();
      throw err;
    }
  }

  private hasDigest(schema: string, table: string): boolean {
    return (
      this.sqlite.prepare('SELECT 1 FROM pragma_table_info(?, ?) WHERE name = ?').get(table, schema, DIGEST_COLUMN) !==
      undefined
    );
  }

  /** The rows of one of PAIR_SQL's statements, streamed. */
  rows<R extends unknown[]>(sql: string, ...params: unknown[]): IterableIterator<R> {
    return this.sqlite
      .prepare(sql)
      .raw(true)
      .iterate(...params) as IterableIterator<R>;
  }

  plan(sql: string): string[] {
    const params = sql
      .split('?')
      .slice(1)
      .map(() => 'x');
    return (this.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
      (r) => r.detail,
    );
  }

  close(): void {
    this.sqlite.close();
  }
}
