// Read side of the registry: one read-only connection to app.db with the active snapshot
// ATTACHed, its statements prepared and its lookup tables cached in memory. It returns ROWS:
// the caller names the columns it reads (the company mapping's MAPPED_COLUMNS) and turns the rows
// into an answer itself (domain/company/lookup.ts); this module knows nothing of the response.
//
// Swap: a timer polls the active-snapshot pointer. When the importer publishes a new snapshot,
// a new handle is opened and prepared beside the old one, then swapped in, then the old one is
// closed. Lookups are synchronous, so no lookup is running while the timer callback runs: no
// request ever sees a closed handle, and a snapshot that fails to open leaves the old one serving.
import { dataPaths } from '../../lib/config.ts';
import { activeSnapshot, attachSnapshot, type SnapshotInfo } from '../../storage/snapshots/records.ts';
import { openSqlite, type Sqlite } from '../../storage/sqlite.ts';
import {
  LOOKUP_TABLES,
  SNAPSHOT_SCHEMA_VERSION,
  companies,
  establishments,
  partners,
  regimes,
  simples,
  type CompanyRow,
  type EstablishmentRow,
  type LookupTable,
  type PartnerRow,
  type RegimeRow,
  type SimplesRow,
} from '../../storage/snapshots/tables.ts';

/** The columns a caller reads, per table: the reader fetches these and no others. */
export interface ColumnSelection {
  readonly establishment: readonly (keyof EstablishmentRow)[];
  readonly company: readonly (keyof CompanyRow)[];
  readonly simples: readonly (keyof SimplesRow)[];
  readonly partner: readonly (keyof PartnerRow)[];
  readonly regime: readonly (keyof RegimeRow)[];
}

type Picked<R, K extends readonly PropertyKey[]> = Pick<R, Extract<K[number], keyof R>>;

/** One establishment with its company, Simples option, partners and regimes: the selected columns. */
export interface RegistryRows<C extends ColumnSelection> {
  establishment: Picked<EstablishmentRow, C['establishment']>;
  company: Picked<CompanyRow, C['company']> | null;
  simples: Picked<SimplesRow, C['simples']> | null;
  partners: Picked<PartnerRow, C['partner']>[];
  regimes: Picked<RegimeRow, C['regime']>[];
}

/** The code tables of a snapshot, code → description, held in memory. */
export type CodeTables = Record<LookupTable, ReadonlyMap<number, string>>;

export interface RegistryInfo {
  id: string;
  month: string;
  importedAt: string;
  schemaVersion: number;
  /** Rows per table, from the import statistics (no COUNT(*) over millions of rows). */
  counts: Record<string, number>;
  /** Generated test data (the first-run demo), not the Receita's. */
  synthetic: boolean;
  /** An incomplete month published with --allow-partial. */
  partial: boolean;
}

export interface ReaderOptions<C extends ColumnSelection> {
  dataDir: string;
  /** What lookups return; see ColumnSelection. */
  columns: C;
  /** How often the active-snapshot pointer is checked; 0 disables polling (call refresh()). */
  pollMs?: number;
  /** Operational messages (snapshot swapped, snapshot refused). */
  log?: (line: string) => void;
}

/** A snapshot that must not be served (wrong schema version, missing tables). */
export class SnapshotRefused extends Error {
  override name = 'SnapshotRefused';
}

/**
 * The whole lookup in ONE statement: SQLite writes the establishment, its company, Simples,
 * partners and regimes as one JSON text of arrays (only the selected columns, see
 * ColumnSelection), and JSON.parse turns it into values. Five statements returning rows took
 * 27–33 µs here, this 22–25 µs with the parse: better-sqlite3 creates each column's value
 * through V8's API one by one, JSON.parse makes them all in one pass.
 * Names come from tables.ts and the caller's selection (our own code), never from input.
 */
function lookupSql(m: ColumnSelection): string {
  const cols = (names: readonly string[], prefix = '') => `json_array(${columnNames(names).map((n) => prefix + n).join(', ')})`;
  const base = 'substr(e.cnpj, 1, 8)';
  const one = (names: readonly string[], table: string) => `ifnull((SELECT ${cols(names)} FROM reg.${table} WHERE basico = ${base}), 'null')`;
  const all = (names: readonly string[], table: string) => `(SELECT json_group_array(${cols(names)}) FROM reg.${table} WHERE basico = ${base})`;
  const parts = [
    cols(m.establishment, 'e.'),
    one(m.company, companies.name),
    one(m.simples, simples.name),
    all(m.partner, partners.name),
    all(m.regime, regimes.name),
  ];
  return `SELECT '[' || ${parts.join(" || ',' || ")} || ']' FROM est.${establishments.name} e WHERE e.cnpj = ?`;
}

/** Column names go into generated code: plain identifiers only. */
function columnNames(names: readonly string[]): readonly string[] {
  for (const n of names) if (!/^[a-z_][a-z0-9_]*$/.test(n)) throw new Error(`unexpected column name ${n}`);
  return names;
}

/** Array of values (in `names` order) → row object, through a generated object literal. */
function hydrator<R>(names: readonly string[]): (values: unknown[]) => R {
  return new Function('v', `return { ${columnNames(names).map((n, i) => `${n}: v[${i}]`).join(', ')} };`) as (values: unknown[]) => R;
}

/** The statement and the row builders for one column selection, made once per reader. */
interface Compiled<C extends ColumnSelection> {
  sql: string;
  establishment: (values: unknown[]) => RegistryRows<C>['establishment'];
  company: (values: unknown[]) => NonNullable<RegistryRows<C>['company']>;
  simples: (values: unknown[]) => NonNullable<RegistryRows<C>['simples']>;
  partner: (values: unknown[]) => RegistryRows<C>['partners'][number];
  regime: (values: unknown[]) => RegistryRows<C>['regimes'][number];
}

function compile<C extends ColumnSelection>(columns: C): Compiled<C> {
  return {
    sql: lookupSql(columns),
    establishment: hydrator(columns.establishment),
    company: hydrator(columns.company),
    simples: hydrator(columns.simples),
    partner: hydrator(columns.partner),
    regime: hydrator(columns.regime),
  };
}

type LookupJson = [unknown[], unknown[] | null, unknown[] | null, unknown[][], unknown[][]];

/** The snapshot being served. Read it synchronously and do not keep it: a later poll may close it. */
export interface OpenSnapshot<C extends ColumnSelection> {
  readonly info: RegistryInfo;
  readonly lookups: CodeTables;
  /** The rows of a normalised 14-character CNPJ, null when absent. */
  rows(cnpj: string): RegistryRows<C> | null;
}

/** One opened snapshot: its own connection, statement and cached lookup tables. */
class SnapshotHandle<C extends ColumnSelection> implements OpenSnapshot<C> {
  readonly info: RegistryInfo;
  readonly lookups: CodeTables;
  private readonly byCnpj: import('better-sqlite3').Statement<[string], string>;

  private constructor(
    readonly sqlite: Sqlite,
    snap: SnapshotInfo,
    private readonly compiled: Compiled<C>,
  ) {
    const version = readSchemaVersion(sqlite);
    if (version !== SNAPSHOT_SCHEMA_VERSION) {
      throw new SnapshotRefused(
        `snapshot ${snap.id} has schema_version ${version ?? 'missing'}, this server reads ${SNAPSHOT_SCHEMA_VERSION}`,
      );
    }
    try {
      this.byCnpj = sqlite.prepare<[string], string>(compiled.sql).pluck(true);
      const lookups = {} as Record<LookupTable, Map<number, string>>;
      for (const t of LOOKUP_TABLES) {
        const m = new Map<number, string>();
        for (const r of sqlite.prepare(`SELECT code, description FROM reg.${t}`).all() as { code: unknown; description: unknown }[]) {
          if (typeof r.code === 'number' && typeof r.description === 'string') m.set(r.code, r.description);
        }
        lookups[t] = m;
      }
      this.lookups = lookups;
    } catch (err) {
      throw new SnapshotRefused(`snapshot ${snap.id} is unreadable: ${(err as Error).message}`);
    }
    const counts: Record<string, number> = {};
    for (const [name, t] of Object.entries(snap.stats?.tables ?? {})) counts[name] = t.rows;
    this.info = { id: snap.id, month: snap.month, importedAt: snap.importedAt, schemaVersion: version, counts, synthetic: snap.stats?.synthetic === true, partial: !!snap.stats?.partial?.length };
  }

  static open<C extends ColumnSelection>(appDb: string, snap: SnapshotInfo, compiled: Compiled<C>): SnapshotHandle<C> {
    const sqlite = openSqlite(appDb, { readonly: true, fileMustExist: true });
    try {
      sqlite.pragma('busy_timeout = 5000');
      attachSnapshot(sqlite, snap.dir);
      // The snapshot files are immutable: memory-map them so hot pages are shared with the OS
      // cache instead of copied into SQLite's page cache.
      for (const schema of ['est', 'reg']) sqlite.pragma(`${schema}.mmap_size = 2147418112`);
      // app.db too: every counted call commits on another connection, which empties this
      // connection's page cache for app.db; mapped pages come back without a read() each.
      sqlite.pragma('main.mmap_size = 268435456');
      return new SnapshotHandle(sqlite, snap, compiled);
    } catch (err) {
      sqlite.close();
      if (err instanceof SnapshotRefused) throw err;
      throw new SnapshotRefused(`snapshot ${snap.id} cannot be opened: ${(err as Error).message}`);
    }
  }

  rows(cnpj: string): RegistryRows<C> | null {
    const text = this.byCnpj.get(cnpj);
    if (text === undefined) return null;
    const [e, c, s, p, r] = JSON.parse(text) as LookupJson;
    const h = this.compiled;
    return {
      establishment: h.establishment(e),
      company: c === null ? null : h.company(c),
      simples: s === null ? null : h.simples(s),
      partners: p.map(h.partner),
      regimes: r.map(h.regime),
    };
  }

  close(): void {
    this.sqlite.close();
  }
}

function readSchemaVersion(sqlite: Sqlite): number | null {
  try {
    const r = sqlite.prepare(`SELECT value FROM reg.meta WHERE key = 'schema_version'`).get() as { value: unknown } | undefined;
    if (r === undefined || r.value === null) return null;
    const n = Number(r.value);
    return Number.isInteger(n) ? n : null;
  } catch {
    return null; // no meta table: an unknown layout
  }
}

export class RegistryReader<C extends ColumnSelection> {
  private handle: SnapshotHandle<C> | null = null;
  /** The snapshot id last tried, so a refused one is logged once, not every poll. */
  private lastSeenId: string | null = null;
  private readonly pointer: Sqlite;
  private readonly appDb: string;
  private readonly registryDir: string;
  private readonly log: (line: string) => void;
  private readonly compiled: Compiled<C>;
  private timer: NodeJS.Timeout | null = null;

  constructor(opts: ReaderOptions<C>) {
    const paths = dataPaths(opts.dataDir);
    this.appDb = paths.appDb;
    this.registryDir = paths.registryDir;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.compiled = compile(opts.columns);
    // A connection of its own for polling, so the pointer can be read while handles come and go.
    this.pointer = openSqlite(this.appDb, { readonly: true, fileMustExist: true });
    this.pointer.pragma('busy_timeout = 5000');
    this.refresh();
    const pollMs = opts.pollMs ?? 1000;
    if (pollMs > 0) {
      this.timer = setInterval(() => {
        try {
          this.refresh();
        } catch (err) {
          this.log(`registry: poll failed: ${(err as Error).message}`);
        }
      }, pollMs);
      this.timer.unref();
    }
  }

  /** Registry loaded? (503 registry_unavailable otherwise) */
  get available(): boolean {
    return this.handle !== null;
  }

  get info(): RegistryInfo | null {
    return this.handle?.info ?? null;
  }

  /** The snapshot being served, null when none is. */
  get snapshot(): OpenSnapshot<C> | null {
    return this.handle;
  }

  /** Checks the pointer now; opens and swaps in a newly published snapshot. True if swapped. */
  refresh(): boolean {
    const snap = activeSnapshot(this.pointer, this.registryDir);
    if (!snap || snap.id === this.lastSeenId) return false;
    this.lastSeenId = snap.id;
    let next: SnapshotHandle<C>;
    try {
      next = SnapshotHandle.open(this.appDb, snap, this.compiled);
    } catch (err) {
      this.log(`registry: refusing snapshot ${snap.id} (${snap.month}): ${(err as Error).message}`);
      return false;
    }
    const old = this.handle;
    this.handle = next;
    // Nothing can be mid-lookup here (lookups are synchronous), so the old handle closes now.
    old?.close();
    this.log(`registry: serving snapshot ${snap.id} (month ${snap.month})${old ? `, replaced ${old.info.id}` : ''}`);
    return true;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.handle?.close();
    this.handle = null;
    this.pointer.close();
  }
}
