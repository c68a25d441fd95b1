// The few expressions whose SQL differs between app.db and PostgreSQL, each written here once, so
// the domain's queries never ask which backend they run on.
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { AppStore } from './store.ts';

/**
 * A name column as compared and ordered ignoring ASCII case: itself on app.db (declared COLLATE
 * NOCASE), lower(… COLLATE "C") on PostgreSQL, whose index on that expression folds the same
 * letters (migrations/postgres/0001_app_schema.ts).
 */
export function nocase(store: AppStore, column: string): RawBuilder<string> {
  return store.backend === 'postgres'
    ? sql<string>`lower(${sql.ref(column)} COLLATE "C")`
    : sql<string>`${sql.ref(column)}`;
}

/** A value to compare with nocase(column). */
export function nocaseValue(store: AppStore, value: string): RawBuilder<string> {
  return store.backend === 'postgres' ? sql<string>`lower(${value} COLLATE "C")` : sql<string>`${value}`;
}

/** An integer at `path` inside a JSON text column, read by the database (the text may be large). */
export function jsonInteger(store: AppStore, column: string, path: readonly string[]): RawBuilder<number | null> {
  if (store.backend === 'sqlite') return sql<number | null>`json_extract(${sql.ref(column)}, ${`$.${path.join('.')}`})`;
  const parents = path.slice(0, -1).map((p) => sql` -> ${p}`);
  return sql<
    number | null
  >`CAST(${sql.ref(column)}::jsonb${sql.join(parents, sql``)} ->> ${path[path.length - 1]} AS INTEGER)`;
}

/**
 * Inside writeTransaction(): the rows a select reads locked until the transaction ends (FOR
 * UPDATE, of table `of` only; with `skipLocked`, rows another transaction holds are left out). On
 * app.db nothing to add: BEGIN IMMEDIATE already holds the whole file.
 */
export function lockingRows(tx: AppStore, options: { of?: string; skipLocked?: boolean } = {}) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any select, whatever its tables
  return <Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q => {
    if (tx.backend !== 'postgres') return q;
    const locked = options.of === undefined ? q.forUpdate() : q.forUpdate(options.of);
    return (options.skipLocked ? locked.skipLocked() : locked) as Q;
  };
}
