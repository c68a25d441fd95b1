// The fleet's node table (PostgreSQL only, postgres-migrations/0003): each serving node's
// heartbeat writes its row; `cnpj-api status --database-url` reads the rows and the schema version.
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { AppDatabase } from './app-schema.ts';
import { redactDatabaseUrl } from './app-store.ts';

/** How recent a heartbeat must be for `status` to list the node. */
export const SEEN_WITHIN_SECONDS = 120;

export interface NodeIdentity {
  /** hostname:data dir: one row per node, the same across its restarts and cluster workers. */
  id: string;
  hostname: string;
  dataDir: string;
  version: string;
  startedAt: Date;
}

export function nodeIdentity(dataDir: string, version: string, startedAt = new Date()): NodeIdentity {
  const hostname = os.hostname();
  const dir = path.resolve(dataDir);
  return { id: `${hostname}:${dir}`, hostname, dataDir: dir, version, startedAt };
}

interface FleetNodesTable {
  id: string;
  hostname: string;
  data_dir: string;
  listen_url: string;
  month: string | null;
  version: string;
  started_at: Date | string;
  seen_at: Date | string;
  stopped_at: Date | string | null;
}

const fleet = (db: Kysely<AppDatabase>) => db.withTables<{ fleet_nodes: FleetNodesTable }>();

/** The node's heartbeat: its row, written with the database's clock. */
export async function recordHeartbeat(
  db: Kysely<AppDatabase>,
  node: NodeIdentity,
  served: { listenUrl: string; month: string | null },
): Promise<void> {
  const row = {
    id: node.id,
    hostname: node.hostname,
    data_dir: node.dataDir,
    listen_url: served.listenUrl,
    month: served.month,
    version: node.version,
    started_at: node.startedAt,
    seen_at: sql<Date>`now()`,
    stopped_at: null,
  };
  await fleet(db)
    .insertInto('fleet_nodes')
    .values(row)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        hostname: (eb) => eb.ref('excluded.hostname'),
        listen_url: (eb) => eb.ref('excluded.listen_url'),
        month: (eb) => eb.ref('excluded.month'),
        version: (eb) => eb.ref('excluded.version'),
        started_at: (eb) => eb.ref('excluded.started_at'),
        seen_at: (eb) => eb.ref('excluded.seen_at'),
        stopped_at: null,
      }),
    )
    .execute();
}

/** A node that stops cleanly says so, rather than looking alive until its heartbeat goes stale. */
export async function recordStopped(db: Kysely<AppDatabase>, node: NodeIdentity): Promise<void> {
  await fleet(db)
    .updateTable('fleet_nodes')
    .set({ stopped_at: sql<Date>`now()` })
    .where('id', '=', node.id)
    .where('started_at', '=', node.startedAt)
    .execute();
}

export interface FleetNode {
  id: string;
  hostname: string;
  dataDir: string;
  listenUrl: string;
  month: string | null;
  version: string;
  startedAt: string;
  seenAt: string;
  /** Seconds since its last heartbeat, by the database's clock. */
  seenSecondsAgo: number;
  stoppedAt: string | null;
}

export interface FleetStatus {
  /** The URL without its password. */
  database: string;
  reachable: boolean;
  error?: string;
  /** The last migration applied, or null when the database was never migrated. */
  schemaVersion: string | null;
  /** Nodes whose heartbeat is at most SEEN_WITHIN_SECONDS old, by node id. */
  nodes: FleetNode[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * What `status` shows about the fleet: read only (it never migrates), one connection, a
 * database that does not answer within `timeoutMs` is reported, not thrown.
 */
export async function readFleetStatus(url: string, timeoutMs = 5000): Promise<FleetStatus> {
  const database = redactDatabaseUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    const e = err as Error & { code?: string };
    return { database, reachable: false, error: e.message || e.code, schemaVersion: null, nodes: [] };
  }
  try {
    const tables = await client.query<{ migrations: string | null; nodes: string | null }>(
      "SELECT to_regclass('kysely_migration')::text AS migrations, to_regclass('fleet_nodes')::text AS nodes",
    );
    const { migrations, nodes } = tables.rows[0];
    const schemaVersion = migrations
      ? ((await client.query<{ name: string }>('SELECT max(name) AS name FROM kysely_migration')).rows[0]?.name ?? null)
      : null;
    if (!nodes) return { database, reachable: true, schemaVersion, nodes: [] };
    const { rows } = await client.query<FleetNodesTable & { ago: number }>(
      `SELECT *, extract(epoch FROM now() - seen_at)::float8 AS ago FROM fleet_nodes
       WHERE seen_at > now() - make_interval(secs => $1) ORDER BY id`,
      [SEEN_WITHIN_SECONDS],
    );
    return {
      database,
      reachable: true,
      schemaVersion,
      nodes: rows.map((r) => ({
        id: r.id,
        hostname: r.hostname,
        dataDir: r.data_dir,
        listenUrl: r.listen_url,
        month: r.month,
        version: r.version,
        startedAt: iso(r.started_at)!,
        seenAt: iso(r.seen_at)!,
        seenSecondsAgo: Math.max(0, Math.round(r.ago)),
        stoppedAt: iso(r.stopped_at),
      })),
    };
  } catch (err) {
    // Connected, but the reads failed (permissions, a timeout): said as such.
    const e = err as Error & { code?: string };
    return { database, reachable: true, error: e.message || e.code, schemaVersion: null, nodes: [] };
  } finally {
    await client.end().catch(() => {});
  }
}
