// Read side of the registry: one read-only connection to app.db with the active snapshot
// ATTACHed, its statements prepared and its code tables cached in memory. It returns ROWS:
// the caller names the columns it reads (the company mapping's MAPPED_COLUMNS) and turns the rows
// into an answer itself (domain/company/lookup.ts); this module knows nothing of the response.
//
// Swap: a timer polls the active-snapshot pointer. When the importer publishes a new snapshot,
// a new handle is opened and prepared beside the old one, then swapped in, then the old one is
// closed. Lookups are synchronous, so no lookup is running while the timer callback runs: no
// request ever sees a closed handle, and a snapshot that fails to open leaves the old one serving.
import { dataPaths } from '../../lib/config.ts';
import { attachSearch, attachSnapshot } from '../../storage/snapshots/attach.ts';
import { searchPartSchema } from '../../storage/snapshots/search-schema.ts';
import { activeSnapshot, type SnapshotInfo } from '../../storage/snapshots/records.ts';
import { openAppSqlite } from '../../storage/app/sqlite.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { readCodeTables, type CodeTables } from '../../storage/snapshots/code-tables.ts';
import { SNAPSHOT_MMAP_BYTES, SNAPSHOT_SCHEMA_VERSION } from '../../storage/snapshots/tables.ts';
import { prepareRootRows, type RootRows } from './root-rows.ts';
import { compile, type ColumnSelection, type Compiled, type RegistryRows } from './rows.ts';

export interface RegistryInfo {
  id: string;
  /** The release this snapshot came from or was published as (docs/releases.md); null: imported here only. */
  release: string | null;
  month: string;
  importedAt: string;
  /** The extraction date the month's member names carry (`2026-09-13`); null when they carry none. */
  extracted: string | null;
  schemaVersion: number;
  /** Rows per table, from the import statistics (no COUNT(*) over millions of rows). */
  counts: Record<string, number>;
  /** Generated test data (the first-run demo), not the Receita's. */
  synthetic: boolean;
  /** An incomplete month published with --allow-partial. */
  partial: boolean;
  /** Its search index is attached (503 search_unavailable otherwise; lookups work either way). */
  search: boolean;
}

/** The snapshot's search index on the snapshot's connection: domain/search prepares its statements on it. */
export interface SearchFiles {
  readonly sqlite: Sqlite;
  /** Schema names of the parts (`srch`, `srch1`, …); the shared tables are in the first. */
  readonly parts: readonly string[];
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

/** The snapshot being served. Read it synchronously and do not keep it: a later poll may close it. */
export interface OpenSnapshot<C extends ColumnSelection> {
  readonly info: RegistryInfo;
  readonly codeTables: CodeTables;
  /** The rows of a normalised 14-character CNPJ, null when absent. */
  rows(cnpj: string): RegistryRows<C> | null;
  /**
   * The same for another column selection (the compat shapes'), its statement prepared on this
   * snapshot's connection at first use and kept while the snapshot is served.
   */
  rowsOf<S extends ColumnSelection>(compiled: Compiled<S>, cnpj: string): RegistryRows<S> | null;
  /** The establishments of a root, in CNPJ order (listings). */
  readonly root: RootRows<C>;
  /** Null when the snapshot has no usable search index (RegistryReader logs why). */
  readonly search: SearchFiles | null;
}

/** One opened snapshot: its own connection, statement and cached code tables. */
class SnapshotHandle<C extends ColumnSelection> implements OpenSnapshot<C> {
  info: RegistryInfo;
  readonly codeTables: CodeTables;
  readonly root: RootRows<C>;
  readonly search: SearchFiles | null;
  /** Why search is unavailable, for the swap log line. */
  readonly searchProblem: string | null;
  private readonly byCnpj: import('better-sqlite3').Statement<[string], string>;
  private readonly other = new Map<Compiled<ColumnSelection>, import('better-sqlite3').Statement<[string], string>>();

  private constructor(
    readonly sqlite: Sqlite,
    snap: SnapshotInfo,
    private readonly compiled: Compiled<C>,
    searchParts: number | string,
  ) {
    const version = readSchemaVersion(sqlite);
    if (version !== SNAPSHOT_SCHEMA_VERSION) {
      throw new SnapshotRefused(
        `snapshot ${snap.id} has schema_version ${version ?? 'missing'}, this server reads ${SNAPSHOT_SCHEMA_VERSION}`,
      );
    }
    try {
      this.byCnpj = sqlite.prepare<[string], string>(compiled.sql).pluck(true);
      this.root = prepareRootRows(sqlite, compiled.columns);
      this.codeTables = readCodeTables(sqlite, 'reg');
    } catch (err) {
      throw new SnapshotRefused(`snapshot ${snap.id} is unreadable: ${(err as Error).message}`);
    }
    this.search =
      typeof searchParts === 'number'
        ? { sqlite, parts: Array.from({ length: searchParts }, (_, i) => searchPartSchema(i)) }
        : null;
    this.searchProblem = typeof searchParts === 'string' ? searchParts : null;
    const counts: Record<string, number> = {};
    for (const [name, t] of Object.entries(snap.stats?.tables ?? {})) counts[name] = t.rows;
    this.info = {
      id: snap.id,
      release: snap.release,
      month: snap.month,
      importedAt: snap.importedAt,
      extracted: snap.stats?.extracted ?? null,
      schemaVersion: version,
      counts,
      synthetic: snap.stats?.synthetic === true,
      partial: !!snap.stats?.partial?.length,
      search: this.search !== null,
    };
  }

  static open<C extends ColumnSelection>(
    dataDir: string,
    snap: SnapshotInfo,
    compiled: Compiled<C>,
  ): SnapshotHandle<C> {
    const sqlite = openAppSqlite(dataDir, 'reader');
    try {
      attachSnapshot(sqlite, snap.dir);
      const search = attachSearch(sqlite, snap.dir);
      const searchSchemas =
        'parts' in search ? Array.from({ length: search.parts }, (_, i) => searchPartSchema(i)) : [];
      // The snapshot files are immutable: memory-map them whole (see SNAPSHOT_MMAP_BYTES).
      for (const schema of ['est', 'reg', ...searchSchemas])
        sqlite.pragma(`${schema}.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
      // app.db too: every counted call commits on another connection, which empties this
      // connection's page cache for app.db; mapped pages come back without a read() each.
      sqlite.pragma('main.mmap_size = 268435456');
      return new SnapshotHandle(sqlite, snap, compiled, 'parts' in search ? search.parts : search.unavailable);
    } catch (err) {
      sqlite.close();
      if (err instanceof SnapshotRefused) throw err;
      throw new SnapshotRefused(`snapshot ${snap.id} cannot be opened: ${(err as Error).message}`);
    }
  }

  rows(cnpj: string): RegistryRows<C> | null {
    const text = this.byCnpj.get(cnpj);
    return text === undefined ? null : this.compiled.rows(text);
  }

  rowsOf<S extends ColumnSelection>(compiled: Compiled<S>, cnpj: string): RegistryRows<S> | null {
    let statement = this.other.get(compiled);
    if (statement === undefined) {
      statement = this.sqlite.prepare<[string], string>(compiled.sql).pluck(true);
      this.other.set(compiled, statement);
    }
    const text = statement.get(cnpj);
    return text === undefined ? null : compiled.rows(text);
  }

  close(): void {
    this.sqlite.close();
  }
}

function readSchemaVersion(sqlite: Sqlite): number | null {
  try {
    const r = sqlite.prepare(`SELECT value FROM reg.meta WHERE key = 'schema_version'`).get() as
      { value: unknown } | undefined;
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
  private readonly dataDir: string;
  private readonly registryDir: string;
  private readonly log: (line: string) => void;
  private readonly compiled: Compiled<C>;
  private timer: NodeJS.Timeout | null = null;

  constructor(opts: ReaderOptions<C>) {
    const paths = dataPaths(opts.dataDir);
    this.dataDir = opts.dataDir;
    this.registryDir = paths.registryDir;
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.compiled = compile(opts.columns);
    // A connection of its own for polling, so the pointer can be read while handles come and go.
    this.pointer = openAppSqlite(this.dataDir, 'reader');
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
    // The served snapshot published as a release here: the same files, now named by the release.
    if (snap && this.handle?.info.id === snap.id && this.handle.info.release !== snap.release)
      this.handle.info = { ...this.handle.info, release: snap.release };
    if (!snap || snap.id === this.lastSeenId) return false;
    this.lastSeenId = snap.id;
    let next: SnapshotHandle<C>;
    try {
      next = SnapshotHandle.open(this.dataDir, snap, this.compiled);
    } catch (err) {
      this.log(`registry: refusing snapshot ${snap.id} (${snap.month}): ${(err as Error).message}`);
      return false;
    }
    const old = this.handle;
    this.handle = next;
    // Nothing can be mid-lookup here (lookups are synchronous), so the old handle closes now.
    old?.close();
    const search = next.searchProblem ? `; search unavailable: ${next.searchProblem}` : '';
    this.log(
      `registry: serving snapshot ${snap.id} (month ${snap.month})${old ? `, replaced ${old.info.id}` : ''}${search}`,
    );
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
