// The fleet's node table (PostgreSQL only, migrations/postgres/0003): each serving node's
// heartbeat writes its row; `cnpj-api status --database-url` reads the rows and the schema version.
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { pgClient } from './pg-connect.ts';
import type { AppDatabase } from './schema.ts';
import { redactDatabaseUrl } from './store.ts';

/** Seconds after the fleet's switch time before a node still serving another release is behind. */
export const SWITCH_GRACE_SECONDS = 5;

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
  release: string | null;
  staged_release: string | null;
  follow_seen_at: Date | string | null;
  follow_error: string | null;
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
  served: { listenUrl: string; month: string | null; release: string | null },
): Promise<void> {
  const row = {
    id: node.id,
    hostname: node.hostname,
    data_dir: node.dataDir,
    listen_url: served.listenUrl,
    month: served.month,
    release: served.release,
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
        release: (eb) => eb.ref('excluded.release'),
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
  /** The release it serves (null: none, or a snapshot imported there). */
  release: string | null;
  /** Its follower (serve --follow in fleet mode) reported lately. */
  following: boolean;
  /** The release its follower has fetched and verified, ready to switch to. */
  staged: string | null;
  followError: string | null;
  /** It serves another release than the fleet's, whose switch is past (its /readyz says behind_fleet). */
  behind: boolean;
}

/** The release every node must serve (release publish --database-url, release activate). */
export interface FleetTargetStatus {
  release: string;
  month: string;
  generation: number;
  setAt: string;
  setBy: string;
  switchAfterSeconds: number;
  /** When the nodes switch (or switched); null while the fleet waits for every node to stage it. */
  switchAt: string | null;
  /** switchAt is past. */
  passed: boolean;
  /** switchAt is past by more than the grace for the nodes' own switch: every node should serve it. */
  due: boolean;
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
  /** The fleet's release, when one was published with --database-url. */
  target: FleetTargetStatus | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * What `status` shows about the fleet: read only (it never migrates), one connection, a
 * database that does not answer within `timeoutMs` is reported, not thrown.
 */
export async function readFleetStatus(url: string, timeoutMs = 5000): Promise<FleetStatus> {
  const database = redactDatabaseUrl(url);
  const client = pgClient(url, { connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    const e = err as Error & { code?: string };
    return { database, reachable: false, error: e.message || e.code, schemaVersion: null, nodes: [], target: null };
  }
  try {
    const tables = await client.query<{ migrations: string | null; nodes: string | null; target: string | null }>(
      "SELECT to_regclass('kysely_migration')::text AS migrations, to_regclass('fleet_nodes')::text AS nodes, to_regclass('fleet_target')::text AS target",
    );
    const { migrations, nodes } = tables.rows[0];
    let target: FleetTargetStatus | null = null;
    if (tables.rows[0].target) {
      const t = await client.query<{
        release: string;
        month: string;
        generation: number;
        set_at: Date;
        set_by: string;
        switch_after_seconds: number;
        switch_at: Date | null;
        passed: boolean;
        due: boolean;
      }>(
        `SELECT t.release, r.month, t.generation::float8 AS generation, t.set_at, t.set_by, t.switch_after_seconds,
           t.switch_at, coalesce(t.switch_at < now(), false) AS passed,
           coalesce(t.switch_at + make_interval(secs => $1) < now(), false) AS due
         FROM fleet_target t JOIN fleet_releases r USING (release) WHERE t.id = 1`,
        [SWITCH_GRACE_SECONDS],
      );
      const r = t.rows[0];
      if (r)
        target = {
          release: r.release,
          month: r.month,
          generation: r.generation,
          setAt: iso(r.set_at)!,
          setBy: r.set_by,
          switchAfterSeconds: r.switch_after_seconds,
          switchAt: iso(r.switch_at),
          passed: r.passed,
          due: r.due,
        };
    }
    const schemaVersion = migrations
      ? ((await client.query<{ name: string }>('SELECT max(name) AS name FROM kysely_migration')).rows[0]?.name ?? null)
      : null;
    if (!nodes) return { database, reachable: true, schemaVersion, nodes: [], target };
    const { rows } = await client.query<FleetNodesTable & { ago: number; following: boolean | null }>(
      `SELECT *, extract(epoch FROM now() - seen_at)::float8 AS ago,
         follow_seen_at > now() - make_interval(secs => $1) AS following FROM fleet_nodes
       WHERE seen_at > now() - make_interval(secs => $1) ORDER BY id`,
      [SEEN_WITHIN_SECONDS],
    );
    return {
      database,
      reachable: true,
      schemaVersion,
      target,
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
        release: r.release ?? null,
        following: r.following === true,
        staged: r.staged_release ?? null,
        followError: r.follow_error ?? null,
        behind: target !== null && target.due && !r.stopped_at && r.release !== target.release,
      })),
    };
  } catch (err) {
    // Connected, but the reads failed (permissions, a timeout): said as such.
    const e = err as Error & { code?: string };
    return { database, reachable: true, error: e.message || e.code, schemaVersion: null, nodes: [], target: null };
  } finally {
    await client.end().catch(() => {});
  }
}
