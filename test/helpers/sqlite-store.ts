// An app.db opened by a test as the AppStore the accounts domain takes (the SQLite backend).
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../../src/storage/app/schema.ts';
import type { AppStore } from '../../src/storage/app/store.ts';

export function sqliteStore(app: { db: Kysely<AppDatabase> }): AppStore {
  return { backend: 'sqlite', db: app.db };
}
