// The app-state tests run against both backends: app.db (SQLite) and PostgreSQL. `forBackends`
// declares a suite once per backend; its `open()` gives a fresh, migrated, empty store each call
// (a temp data dir, and for PostgreSQL a new database in this file's throwaway cluster, started
// on first need and stopped with the file). Everything opened is closed and removed afterwards.
import { after, describe } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openNodeStore, type AppBackend, type NodeAppStore } from '../../src/storage/app/store.ts';
import { startPgCluster, type PgCluster } from './postgres.ts';

/**
 * Both, unless CNPJ_TEST_BACKENDS names some (`sqlite`: the unit lane, which starts no PostgreSQL;
 * `postgres`: the same files' other half, run in the full lane; scripts/test.ts).
 */
export const BACKENDS: readonly AppBackend[] = (['sqlite', 'postgres'] as const).filter(
  (b) => !process.env.CNPJ_TEST_BACKENDS || process.env.CNPJ_TEST_BACKENDS.split(',').includes(b),
);

let cluster: Promise<PgCluster> | undefined;
let databases = 0;
const opened: NodeAppStore[] = [];
const dirs: string[] = [];

/** This test file's PostgreSQL cluster (one per process, started on first need). */
export function fileCluster(): Promise<PgCluster> {
  cluster ??= startPgCluster();
  return cluster;
}

/** A new empty database in this file's cluster: its URL. */
export async function freshDatabaseUrl(): Promise<string> {
  const c = await fileCluster();
  return c.createDatabase(`t${process.pid}_${++databases}`);
}

/** A new temp dir, removed when the file ends. */
export function tempDataDir(prefix = 'cnpj-app-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

after(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => {});
  if (cluster) await (await cluster).stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh store on `backend` (a new data dir; a new PostgreSQL database), closed with the file. */
export async function openFreshStore(backend: AppBackend): Promise<NodeAppStore> {
  const dir = tempDataDir();
  const store = await openNodeStore(dir, backend === 'postgres' ? await freshDatabaseUrl() : undefined);
  opened.push(store);
  return store;
}

/**
 * `body` declared as one suite per backend, named `${title} [sqlite]` and `${title} [postgres]`.
 * `open()` gives a fresh store of that backend.
 */
export function forBackends(
  title: string,
  body: (ctx: { backend: AppBackend; open: () => Promise<NodeAppStore> }) => void,
): void {
  for (const backend of BACKENDS) {
    void describe(`${title} [${backend}]`, () => body({ backend, open: () => openFreshStore(backend) }));
  }
}
