// Web app (server-rendered pages). Mounted on the same polka app as the API by src/server.ts.
import type { Polka } from 'polka';
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../db/schema.ts';
import type { Sqlite } from '../db/sqlite.ts';

export interface WebContext {
  sqlite: Sqlite;
  db: Kysely<AppDatabase>;
  now: () => Date;
  /** Public base URL of the API, e.g. http://127.0.0.1:8080, for the curl example. */
  baseUrl: string;
}

export function mountWeb(_app: Polka, _ctx: WebContext): void {
  // Filled in by the web app work (issue 4).
}
