// Runs a schema's migrations to the latest, for app.db (SQLite) and its PostgreSQL twin alike.
import { Migrator, type Kysely, type Migration } from 'kysely';

/**
 * Migrates `db` to the latest of `migrations`; on failure destroys `db` and throws an error naming
 * the migration that failed (`what`: the database, for the operator's message).
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  migrations: Record<string, Migration>,
  what: string,
): Promise<void> {
  const provider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    await db.destroy();
    const step = failed ? `migration ${failed.migrationName}` : 'migration';
    throw new Error(`${what} ${step} failed: ${(error as Error).message ?? error}`, {
      cause: error,
    });
  }
}
