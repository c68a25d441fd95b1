// Kysely's view of app.db. Each migration that adds a table adds its interface here.
import type { Generated } from 'kysely';

export interface RegistrySnapshotsTable {
  id: string;
  month: string;
  dir: string;
  status: 'active' | 'retired' | 'deleted';
  imported_at: string;
  stats_json: string;
}

export interface AppDatabase {
  registry_snapshots: RegistrySnapshotsTable;
}

export type { Generated };
