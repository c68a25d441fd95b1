// The one place that constructs better-sqlite3 connections. Inside the standalone binary the
// native addon cannot be found by path, so the binary's entry point registers the loaded addon
// here (setNativeBinding) and every connection is created with it.
import Database from 'better-sqlite3';

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
