// Moves a node's app state between its app.db and a PostgreSQL (fleet mode, docs/fleet.md): every
// app-state table, rows as they are (ids, token hashes, session hashes, counters, the epochs), in
// one target transaction, read in batches in one consistent source snapshot.
//
// The tables and columns are read from the two migrated databases, not listed here, so a table a
// later migration adds is copied without touching this file. Only the node-local tables below are
// left out; any other table or column the two sides do not share stops the copy (two program
// versions, or a migration on one side only).
import { Kysely, SqliteDialect, sql, type RawBuilder } from 'kysely';
import { openNodeStore, writeTransaction, type AppBackend, type AppStore } from './store.ts';
import type { AppDatabase } from './schema.ts';
import { migrateToLatest } from './migrate.ts';
import { sqliteMigrations } from './migrations/sqlite/index.ts';
import { openSqlite } from '../sqlite.ts';

/** Tables that belong to one node or one backend, never copied. */
export const NODE_LOCAL_TABLES: ReadonlySet<string> = new Set([
  // Which registry snapshot this node serves: stays in every node's app.db.
  'registry_snapshots',
  // PostgreSQL only: the heartbeats of the nodes serving from it, and the fleet's release
  // (migrations/postgres/0005): the fleet's own coordination, not app state.
  'fleet_nodes',
  'fleet_releases',
  'fleet_target',
  // Each database's own migration bookkeeping.
  'kysely_migration',
  'kysely_migration_lock',
]);

/** Rows per INSERT and per read; fewer for wide tables (SQLite binds at most 32766 values). */
const BATCH_ROWS = 1000;
const MAX_BOUND_VALUES = 30_000;

export interface CopyPlanTable {
  name: string;
  columns: string[];
  /** Primary-key columns in key order: the read's keyset pagination. */
  key: string[];
  /** Written by triggers (the epochs): a counter, not app state of its own. */
  triggerWritten: boolean;
}

export interface CopyResult {
  tables: { name: string; rows: number }[];
}

export class CopyRefused extends Error {}

// The tables are named at run time; kysely's typed builder only knows AppDatabase's.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
const anyDb = (db: Kysely<AppDatabase>) => db as unknown as AnyDb;

async function tableColumns(db: Kysely<AppDatabase>): Promise<Map<string, string[]>> {
  const tables = (await db.introspection.getTables()).filter((t) => !t.isView);
  // PostgreSQL (SQLite has no schemas): the app schema is the connection's; tables that other
  // schemas of the same database hold (an extension's, another application's) are not app state.
  const schema = tables.some((t) => t.schema !== undefined)
    ? (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(db)).rows[0].s
    : undefined;
  return new Map(tables.filter((t) => t.schema === schema).map((t) => [t.name, t.columns.map((c) => c.name)]));
}

/**
 * The tables to copy, parents before children (foreign keys), with the tables that triggers write
 * (the auth and contacts epochs) last, so that no insert of the copy moves them after they were
 * written. Keys, foreign keys and triggers are read from the SQLite side (`sqlite`), which both
 * directions have; the PostgreSQL schema mirrors it.
 */
export async function copyPlan(sqlite: Kysely<AppDatabase>, other: Kysely<AppDatabase>): Promise<CopyPlanTable[]> {
  const a = await tableColumns(sqlite);
  const b = await tableColumns(other);
  const problems: string[] = [];
  const names: string[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    if (NODE_LOCAL_TABLES.has(name) || name.startsWith('sqlite_')) continue;
    const ca = a.get(name);
    const cb = b.get(name);
    if (!ca || !cb) {
      problems.push(`table ${name} exists only in ${ca ? 'app.db' : 'PostgreSQL'}`);
      continue;
    }
    const onlyA = ca.filter((c) => !cb.includes(c));
    const onlyB = cb.filter((c) => !ca.includes(c));
    if (onlyA.length) problems.push(`${name}.${onlyA.join(`, ${name}.`)} only in app.db`);
    if (onlyB.length) problems.push(`${name}.${onlyB.join(`, ${name}.`)} only in PostgreSQL`);
    names.push(name);
  }
  if (problems.length)
    throw new CopyRefused(
      `app.db and PostgreSQL do not have the same app schema (${problems.join('; ')}); run the same cnpj-api version on both`,
    );

  const info = new Map<string, { columns: string[]; key: string[]; parents: string[] }>();
  for (const name of names) {
    const cols = await sql<{ name: string; pk: number }>`SELECT name, pk FROM pragma_table_info(${name})`.execute(
      sqlite,
    );
    const key = cols.rows
      .filter((c) => c.pk > 0)
      .sort((x, y) => x.pk - y.pk)
      .map((c) => c.name);
    if (!key.length) throw new CopyRefused(`table ${name} has no primary key to copy it in batches by`);
    const fks = await sql<{ table: string }>`SELECT "table" FROM pragma_foreign_key_list(${name})`.execute(sqlite);
    info.set(name, {
      columns: cols.rows.map((c) => c.name),
      key,
      parents: [...new Set(fks.rows.map((f) => f.table))].filter((t) => t !== name),
    });
  }
  const triggers = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'trigger'`.execute(sqlite);
  const triggerWritten = new Set<string>();
  for (const t of triggers.rows) {
    const body = t.sql.slice(t.sql.search(/\bBEGIN\b/i));
    for (const m of body.matchAll(/\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+["`]?(\w+)/gi)) triggerWritten.add(m[1]);
  }

  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || !info.has(name)) return;
    if (visiting.has(name)) throw new CopyRefused(`foreign keys form a cycle through ${name}`);
    visiting.add(name);
    for (const p of info.get(name)!.parents) visit(p);
    visiting.delete(name);
    ordered.push(name);
  };
  // Sorted first so the order does not depend on the catalogue's.
  const sorted = [...info.keys()].sort();
  for (const name of sorted.filter((n) => !triggerWritten.has(n))) visit(name);
  for (const name of sorted.filter((n) => triggerWritten.has(n))) visit(name);
  return ordered.map((name) => ({
    name,
    columns: info.get(name)!.columns,
    key: info.get(name)!.key,
    triggerWritten: triggerWritten.has(name),
  }));
}

/** The rows of `table` in key order: one JSON line each, to compare databases. */
async function allRows(db: Kysely<AppDatabase>, t: CopyPlanTable): Promise<string[]> {
  const rows = await anyDb(db).selectFrom(t.name).select(t.columns).execute();
  // Sorted here: the two databases' collations may order text keys differently.
  return rows.map((r) => JSON.stringify(t.columns.map((c) => r[c]))).sort();
}

/**
 * Why the target is not empty, or null. Empty = holds only what its migrations put there (the
 * default plans, the epochs at 0), compared with `fresh`, a database migrated just now.
 */
async function notEmpty(target: Kysely<AppDatabase>, fresh: Kysely<AppDatabase>, plan: CopyPlanTable[]) {
  const found: string[] = [];
  // An epoch's value says nothing about emptiness (app.db's migrations move it, PostgreSQL's not).
  for (const t of plan.filter((p) => !p.triggerWritten)) {
    const count = await anyDb(target)
      .selectFrom(t.name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const n = Number(count.n);
    if (n === 0) continue;
    const seeded = await allRows(fresh, t);
    if (n === seeded.length && JSON.stringify(await allRows(target, t)) === JSON.stringify(seeded)) continue;
    found.push(`${t.name} (${n} rows)`);
  }
  return found.length ? found.join(', ') : null;
}

/** One read transaction (a consistent snapshot of every table) on `db`. */
async function readSnapshot<T>(
  db: Kysely<AppDatabase>,
  backend: AppBackend,
  fn: (db: Kysely<AppDatabase>) => Promise<T>,
) {
  return db.connection().execute(async (conn) => {
    // SQLite: a read transaction in WAL mode sees one state of the file until it ends.
    await sql.raw(backend === 'sqlite' ? 'BEGIN' : 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY').execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql
        .raw('ROLLBACK')
        .execute(conn)
        .catch(() => {});
    }
  });
}

function afterKey(key: string[], last: Record<string, unknown>): RawBuilder<boolean> {
  const cols = sql.join(key.map((k) => sql.ref(k)));
  const vals = sql.join(key.map((k) => last[k]));
  return key.length === 1 ? sql<boolean>`${cols} > ${vals}` : sql<boolean>`(${cols}) > (${vals})`;
}

export interface CopyOptions {
  /** A database migrated just now on the target's schema, for the emptiness check. */
  fresh: Kysely<AppDatabase>;
  /** Called after each table is written (operator progress). */
  onTable?: (name: string, rows: number) => void;
  /** Discard the app state the target holds instead of refusing (never its registry pointer). */
  replace?: boolean;
}

/**
 * Copies every app-state table of `from` into `to`, which must be empty (as migrated, nothing
 * more), in one transaction of `to`. Identity sequences on PostgreSQL continue after the copied ids.
 */
export async function copyAppState(
  from: AppStore,
  to: AppStore,
  plan: CopyPlanTable[],
  options: CopyOptions,
): Promise<CopyResult> {
  const result: CopyResult = { tables: [] };
  await writeTransaction(to, async (tx) => {
    const found = options.replace ? null : await notEmpty(tx.db, options.fresh, plan);
    if (found)
      throw new CopyRefused(
        `the target already holds app state: ${found}; copy only into an empty database (a new PostgreSQL database, or a data dir without app.db), or give --replace to discard what it holds`,
      );
    // What the migrations seeded (default plans, epoch rows), or with `replace` all the target
    // held, gives way to the source's rows.
    for (const t of [...plan].reverse()) await anyDb(tx.db).deleteFrom(t.name).execute();
    await readSnapshot(from.db, from.backend, async (src) => {
      for (const t of plan) {
        const batch = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_BOUND_VALUES / t.columns.length)));
        let rows = 0;
        let last: Record<string, unknown> | undefined;
        for (;;) {
          let q = anyDb(src).selectFrom(t.name).select(t.columns);
          if (last) q = q.where(afterKey(t.key, last));
          for (const k of t.key) q = q.orderBy(sql.ref(k));
          const page = await q.limit(batch).execute();
          if (!page.length) break;
          await anyDb(tx.db).insertInto(t.name).values(page).execute();
          rows += page.length;
          last = page[page.length - 1];
          if (page.length < batch) break;
        }
        result.tables.push({ name: t.name, rows });
        options.onTable?.(t.name, rows);
      }
    });
    if (tx.backend === 'postgres') await continueIdentities(tx.db, plan);
  });
  return result;
}

/** PostgreSQL: each identity column's next value follows the largest id copied. */
async function continueIdentities(db: Kysely<AppDatabase>, plan: CopyPlanTable[]): Promise<void> {
  const names = plan.map((t) => t.name);
  const identities = await sql<{ table_name: string; column_name: string }>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES'`.execute(db);
  for (const { table_name: table, column_name: column } of identities.rows) {
    if (!names.includes(table)) continue;
    // is_called = false on an empty table: the next id is 1, as on a new database.
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 1), max(${sql.ref(column)}) IS NOT NULL)
      FROM ${sql.table(table)}`.execute(db);
  }
}

export type CopyDirection = 'to-postgres' | 'from-postgres';

/**
 * `cnpj-api app-state copy`: the data dir's app.db into the PostgreSQL at `url` ('to-postgres'),
 * or that PostgreSQL into the data dir's app.db ('from-postgres'). Both are migrated to the latest
 * schema first (a missing app.db is created); the target must hold no app state yet.
 */
export async function copyAppStateBetween(
  dataDir: string,
  url: string,
  direction: CopyDirection,
  options: Pick<CopyOptions, 'onTable' | 'replace'> = {},
): Promise<CopyResult> {
  const store = await openNodeStore(dataDir, url, { maxConnections: 2 });
  // What a database holds right after its migrations, for the emptiness check: SQLite's seeds,
  // which PostgreSQL's migration repeats.
  const fresh = new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: openSqlite(':memory:') }) });
  try {
    await migrateToLatest(fresh, sqliteMigrations, 'in-memory app.db');
    const sqlite: AppStore = { backend: 'sqlite', db: store.local.db };
    const postgres: AppStore = { backend: 'postgres', db: store.db };
    const plan = await copyPlan(sqlite.db, postgres.db);
    const [from, to] = direction === 'to-postgres' ? [sqlite, postgres] : [postgres, sqlite];
    return await copyAppState(from, to, plan, { ...options, fresh });
  } finally {
    await fresh.destroy().catch(() => {});
    await store.close();
  }
}
