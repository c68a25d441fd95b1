// Test fixtures for the API: a temp data dir, snapshots written straight from the schema source
// (src/storage/snapshots/tables.ts), accounts and tokens through the accounts module, a running server.
import { rowDigest } from '../../importer/row-digest.ts';
import type { SqlParam } from '../../importer/tables/source-table.ts';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { createAccount } from '../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../src/domain/accounts/plans.ts';
import { createToken } from '../../src/domain/accounts/tokens.ts';
import { storeContacts } from '../../src/domain/company/contacts.ts';
import { dataPaths } from '../../src/lib/config.ts';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import { openAppStore, type AppStore } from '../../src/storage/app/store.ts';
import { recordPublished } from '../../src/storage/snapshots/records.ts';
import { openSqlite, type Sqlite } from '../../src/storage/sqlite.ts';
import {
  CODE_TABLES,
  SNAPSHOT_FILES,
  SNAPSHOT_SCHEMA_VERSION,
  companies,
  createIndexSql,
  createTableSql,
  digitsColumns,
  establishments,
  insertSql,
  codeTable,
  partners,
  regimes,
  simples,
  type CompanyRow,
  type EstablishmentRow,
  type CodeTable,
  type PartnerRow,
  type RegimeRow,
  type SimplesRow,
  type TableDef,
} from '../../src/storage/snapshots/tables.ts';
import { startServer, type ServerOptions, type StartedServer } from '../../src/server/server.ts';
import { sqliteStore } from '../helpers/sqlite-store.ts';
import { CLI } from '../helpers/cli.ts';

export interface SnapshotData {
  establishments: EstablishmentRow[];
  companies: CompanyRow[];
  simples: SimplesRow[];
  partners: PartnerRow[];
  regimes: RegimeRow[];
  codeTables: Partial<Record<CodeTable, [number, string][]>>;
}

const tempDirs: string[] = [];
// Removed when the test file's process ends (its servers are stopped by then).
process.once('exit', () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-api-test-'));
  tempDirs.push(dir);
  return dir;
}

function fill(db: Sqlite, def: TableDef, rows: readonly Record<string, unknown>[]): void {
  db.exec(createTableSql(def));
  const ins = db.prepare(insertSql(def));
  for (const r of rows) {
    const values = def.columns.map(([n]) => (r[n] ?? null) as SqlParam);
    // The row digest, as the importer writes it (storage/snapshots/tables.ts DIGEST_COLUMN), and
    // a number in a DIGITS column bound as the INTEGER the importer stores (importer/batch-insert.ts).
    const digest = def.digest ? [rowDigest(values, 1, values.length)] : [];
    for (const i of digitsColumns(def)) if (typeof values[i] === 'number') values[i] = BigInt(values[i] as number);
    ins.run(...values, ...digest);
  }
  db.exec(createIndexSql(def));
}

/** Writes `<registry>/<id>/{establishments,companies}.db` like the importer does (plus reg.meta). */
export function writeSnapshot(
  dataDir: string,
  id: string,
  data: SnapshotData,
  opts: { schemaVersion?: number | null } = {},
): string {
  const dir = path.join(dataPaths(dataDir).registryDir, id);
  fs.mkdirSync(dir, { recursive: true });
  const est = openSqlite(path.join(dir, SNAPSHOT_FILES.establishments));
  fill(est, establishments, data.establishments);
  est.close();
  const reg = openSqlite(path.join(dir, SNAPSHOT_FILES.companies));
  fill(reg, companies, data.companies);
  fill(reg, simples, data.simples);
  fill(reg, partners, data.partners);
  fill(reg, regimes, data.regimes);
  for (const t of CODE_TABLES) {
    fill(
      reg,
      codeTable(t),
      (data.codeTables[t] ?? []).map(([code, description]) => ({ code, description })),
    );
  }
  const version = opts.schemaVersion === undefined ? SNAPSHOT_SCHEMA_VERSION : opts.schemaVersion;
  if (version !== null) {
    reg.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)');
    const m = reg.prepare('INSERT INTO meta VALUES (?, ?)');
    m.run('schema_version', String(version));
    m.run('month', '2026-04');
    m.run('imported_at', new Date().toISOString());
  }
  reg.close();
  return dir;
}

/** Points app.db at the snapshot (what the importer does last). */
export async function publish(dataDir: string, id: string, month: string, data?: SnapshotData): Promise<void> {
  const app = await openAppDb(dataDir);
  try {
    const tables: Record<string, { rows: number; rejected: number; duplicates: number }> = {};
    if (data) {
      for (const t of ['establishments', 'companies', 'simples', 'partners', 'regimes'] as const) {
        tables[t] = { rows: data[t].length, rejected: 0, duplicates: 0 };
      }
    }
    recordPublished(app.sqlite, {
      id,
      month,
      dir: id,
      importedAt: new Date().toISOString(),
      stats: { tables, sourceFiles: [], missingFiles: [], seconds: 1, bytes: 0 },
    });
  } finally {
    await app.close();
  }
}

export interface TestAccount {
  accountId: number;
  tokenId: number;
  token: string;
}

/** An account on `plan` with one token. `quota` creates a plan of its own with that quota. */
export async function makeAccount(
  dataDir: string,
  name: string,
  opts: { plan?: string; quota?: number; apiIncluded?: boolean; expires?: string; now?: () => Date } = {},
): Promise<TestAccount> {
  const app = await openAppDb(dataDir);
  try {
    let plan = opts.plan ?? 'Ouro';
    if (opts.quota !== undefined || opts.apiIncluded !== undefined) {
      plan = `Plano ${name}`;
      await setPlan(sqliteStore(app), plan, {
        monthlyQuota: opts.quota ?? 1000,
        apiIncluded: opts.apiIncluded ?? true,
      });
    }
    const account = await createAccount(sqliteStore(app), { name, plan });
    const t = await createToken(
      sqliteStore(app),
      { accountId: account.id, name: 'teste', createdBy: 'cli', expires: opts.expires },
      opts.now,
    );
    return { accountId: account.id, tokenId: t.id, token: t.token };
  } finally {
    await app.close();
  }
}

/** `fn` on the data dir's app state as the accounts domain takes it (app.db). */
export async function withAppStore<T>(dataDir: string, fn: (app: AppStore) => T | Promise<T>): Promise<T> {
  const app = await openAppStore(dataDir);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

export async function withAppDb<T>(dataDir: string, fn: (sqlite: Sqlite) => T): Promise<T> {
  const app = await openAppDb(dataDir);
  try {
    return fn(app.sqlite);
  } finally {
    await app.close();
  }
}

export async function loadContacts(
  dataDir: string,
  rows: { cnpj: string; tipo_contato: string; tipo_website: string; contato: string }[],
) {
  await withAppStore(dataDir, (app) =>
    storeContacts(
      app,
      rows.map(({ cnpj, ...contact }) => ({ cnpj, contact })),
      'replace',
    ),
  );
}

export interface TestServer extends StartedServer {
  lines: string[];
}

export async function serve(dataDir: string, opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const lines: string[] = [];
  const s = await startServer({ dataDir, host: '127.0.0.1', port: 0, pollMs: 25, log: (l) => lines.push(l), ...opts });
  return { ...s, lines };
}

/**
 * The tests' fetch: bursts of concurrent requests share at most 32 connections per origin, as a
 * client's pool would, and stay under the server's bound on connections per address (128).
 */
setGlobalDispatcher(new Agent({ connections: 32 }));

export async function get(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body };
}

export const bearer = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  exited: Promise<unknown>;
}

/**
 * `cnpj-api serve --port 0` as a child process (in its own process group, so a cleanup can kill
 * its cluster workers too), once it printed its URL and `ready(pid)` holds.
 */
export async function spawnServe(
  dataDir: string,
  args: string[] = [],
  ready: (pid: number) => boolean = () => true,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise((r) => child.once('exit', r));
  let err = '';
  child.stderr!.on('data', (b) => (err += b));
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (!(url = /serving on (http:\/\/\S+)/.exec(err)?.[1]) || !ready(child.pid!)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`serve ${args.join(' ')} did not start:\n${err}`);
    }
    await sleep(25);
  }
  return { child, url, stderr: () => err, exited };
}

/** The children of a process (a cluster primary's workers). */
export function childPids(pid: number): number[] {
  try {
    // Node children only: tsx may run an esbuild service as a child of the same process while
    // it transforms files it has not cached yet (a fresh clone), which is no server worker.
    return execFileSync('pgrep', ['-P', String(pid), '-x', 'node'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Kills a spawnServe() process group and waits for the process to exit. */
export async function killServe(s: ServeProcess): Promise<void> {
  try {
    process.kill(-s.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  await s.exited;
}

/**
 * Polls `probe` every 100 ms until it returns something other than undefined, and returns that;
 * past `ms`, fails naming `what` with `context()` (the servers' logs) appended.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  opts: { ms?: number; context?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.ms ?? 90_000);
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${opts.context?.() ?? ''}`);
    await sleep(100);
  }
}
