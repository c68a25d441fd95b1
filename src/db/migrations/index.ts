// Migrations are listed in code (not read from a folder) so they survive bundling into the
// standalone binary. Names sort in the order they run.
import type { Migration } from 'kysely';
import * as m0001 from './0001_registry_snapshots.ts';

export const migrations: Record<string, Migration> = {
  '0001_registry_snapshots': m0001,
};
