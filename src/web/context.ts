// What the web pages need from the server that mounts them.
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../db/schema.ts';
import type { Sqlite } from '../db/sqlite.ts';

export interface WebContext {
  sqlite: Sqlite;
  db: Kysely<AppDatabase>;
  now: () => Date;
  /** Public base URL of the API, e.g. http://127.0.0.1:8080, for the curl example. */
  baseUrl: string;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). Default false. */
  trustProxy?: boolean;
  /** Where unexpected errors are reported. Default: console.error. */
  log?: (line: string) => void;
}
