// Names compared and sorted ignoring ASCII case on both backends: app.db declares plans.name and
// accounts.name COLLATE NOCASE; PostgreSQL has an index on lower(name COLLATE "C") instead, which
// folds the same letters (migrations/postgres/0001_app_schema.ts) and which these expressions use.
import { sql, type RawBuilder } from 'kysely';
import type { AppStore } from '../../storage/app/store.ts';

/** The column as compared and ordered: itself on SQLite (its NOCASE), lower(… COLLATE "C") on PostgreSQL. */
export function nocase(app: AppStore, column: string): RawBuilder<string> {
  return app.backend === 'postgres'
    ? sql<string>`lower(${sql.ref(column)} COLLATE "C")`
    : sql<string>`${sql.ref(column)}`;
}

/** A value to compare with nocase(column). */
export function nocaseValue(app: AppStore, value: string): RawBuilder<string> {
  return app.backend === 'postgres' ? sql<string>`lower(${value} COLLATE "C")` : sql<string>`${value}`;
}
