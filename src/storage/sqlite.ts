// The one place that constructs better-sqlite3 connections. Inside the standalone binary the
// native addon cannot be found by path, so the binary's entry point registers the loaded addon
// here (setNativeBinding) and every connection is created with it.
import Database from 'better-sqlite3';

// Snapshots are ATTACHed as `file:…?mode=ro&immutable=1` URIs (immutable skips file locking on
// every statement, a good share of a lookup's time: docs/benchmarks.md). SQLite reads URIs only
// with URI handling on, which better-sqlite3 takes from this variable when its addon loads, at
// the first connection.
process.env.SQLITE_USE_URI ??= '1';

export type Sqlite = Database.Database;

let nativeBinding: unknown;

export function setNativeBinding(binding: unknown): void {
  nativeBinding = binding;
}

export interface OpenOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
}

export function openSqlite(file: string, options: OpenOptions = {}): Sqlite {
  const opts: Database.Options = { readonly: options.readonly ?? false, fileMustExist: options.fileMustExist ?? false };
  if (nativeBinding) (opts as { nativeBinding?: unknown }).nativeBinding = nativeBinding;
  return new Database(file, opts);
}

/**
 * `journal_mode = OFF` for a file whose build is thrown away on any failure. better-sqlite3 opens
 * connections in SQLite's defensive mode, which silently keeps the old mode (the pragma answers
 * 'delete'): every bulk build wrote a rollback journal beside its file (gigabytes per search part
 * at full size: docs/benchmarks.md). Defensive mode is lifted for this pragma only, and the answer
 * is checked.
 */
export function journalOff(db: Sqlite): void {
  db.unsafeMode(true);
  try {
    const mode = db.pragma('journal_mode = OFF', { simple: true });
    if (mode !== 'off') throw new Error(`SQLite kept journal_mode = ${String(mode)}`);
  } finally {
    db.unsafeMode(false);
  }
}
