// The fleet's release in the shared PostgreSQL (migrations/postgres/0005): which release every
// node must serve, when they switch to it, and what each node's follower has staged. Written by
// `release publish --database-url` and `release activate`; read and advanced by each node's
// follower (src/server/fleet-follow.ts). Every change is announced on FLEET_CHANNEL (LISTEN/NOTIFY),
// which followers also poll for, in case the notification connection is lost.
import { sql, type Kysely } from 'kysely';
import type { AppDatabase } from './schema.ts';
import { SEEN_WITHIN_SECONDS } from './fleet-nodes.ts';
import { pgClient } from './pg-connect.ts';

export const FLEET_CHANNEL = 'cnpj_api_fleet';

export interface FleetListener {
  /** Whether the connection still listens (it ends itself on any error: open another). */
  readonly live: boolean;
  close(): Promise<void>;
}

/**
 * A connection of its own LISTENing on FLEET_CHANNEL: `onChange` at each announcement. A lost
 * connection is not reopened here: `live` turns false, and the follower's next poll opens another.
 */
export async function listenForFleetChanges(databaseUrl: string, onChange: () => void): Promise<FleetListener> {
  const c = pgClient(databaseUrl, { connectionTimeoutMillis: 5000, keepAlive: true });
  let live = true;
  const end = () => {
    live = false;
    return c.end().catch(() => {});
  };
  c.on('error', () => void end());
  c.on('end', () => void end());
  c.on('notification', onChange);
  try {
    await c.connect();
    await c.query(`LISTEN ${FLEET_CHANNEL}`);
  } catch (err) {
    await end();
    throw err;
  }
  return {
    get live() {
      return live;
    },
    close: async () => {
      await end();
    },
  };
}

export interface FleetTarget {
  release: string;
  month: string;
  manifestSha256: string;
  /** Grows with each new target (a rollback to an earlier release is a new switch). */
  generation: number;
  setAt: Date;
  setBy: string;
  switchAfterSeconds: number;
  /** When every node switches (database time); null until the fleet is ready or the wait expired. */
  switchAt: Date | null;
  /** The database's clock when this was read. */
  dbNow: Date;
}

export interface FleetFollower {
  id: string;
  listenUrl: string;
  /** What it serves (from its heartbeat). */
  release: string | null;
  month: string | null;
  /** What its follower has pulled and verified, ready to switch to. */
  staged: string | null;
  followError: string | null;
}

const notify = (db: Kysely<AppDatabase>, what: string) => sql`SELECT pg_notify(${FLEET_CHANNEL}, ${what})`.execute(db);

export type TargetChange = { moved: true; generation: number } | { moved: false; reason: string };

/**
 * Records a published release and points the fleet at it, unless the fleet already targets it or
 * a later month (a publication never moves the fleet back: `release activate` does, on purpose).
 */
export async function recordFleetRelease(
  db: Kysely<AppDatabase>,
  r: { release: string; month: string; manifestSha256: string; by: string; switchAfterSeconds: number },
): Promise<TargetChange> {
  return db.transaction().execute(async (tx) => {
    await sql`INSERT INTO fleet_releases (release, month, manifest_sha256, published_by)
      VALUES (${r.release}, ${r.month}, ${r.manifestSha256}, ${r.by}) ON CONFLICT (release) DO NOTHING`.execute(tx);
    const cur = await lockedTarget(tx);
    if (cur?.release === r.release) return { moved: false, reason: `the fleet already targets release ${r.release}` };
    if (cur && cur.month > r.month)
      return {
        moved: false,
        reason: `the fleet targets release ${cur.release} of a later month (${cur.month}); \`release activate ${r.release}\` moves it back`,
      };
    return setTarget(tx, r.release, r.by, r.switchAfterSeconds, cur);
  });
}

/** Points the fleet at a release published to it before (a rollback, or forward again). */
export async function activateFleetRelease(
  db: Kysely<AppDatabase>,
  release: string,
  by: string,
  switchAfterSeconds: number,
): Promise<TargetChange> {
  return db.transaction().execute(async (tx) => {
    const known = await sql<{ release: string }>`SELECT release FROM fleet_releases WHERE release = ${release}`.execute(
      tx,
    );
    if (known.rows.length === 0) {
      const all = await sql<{
        release: string;
      }>`SELECT release FROM fleet_releases ORDER BY published_at DESC LIMIT 5`.execute(tx);
      throw new Error(
        `release ${release} was never published to this fleet${all.rows.length ? ` (latest: ${all.rows.map((x) => x.release).join(', ')})` : ''}`,
      );
    }
    const cur = await lockedTarget(tx);
    if (cur?.release === release) return { moved: false, reason: `the fleet already targets release ${release}` };
    return setTarget(tx, release, by, switchAfterSeconds, cur);
  });
}

async function lockedTarget(
  tx: Kysely<AppDatabase>,
): Promise<{ release: string; month: string; generation: number } | null> {
  const r = await sql<{ release: string; month: string; generation: string }>`
    SELECT t.release, r.month, t.generation FROM fleet_target t JOIN fleet_releases r USING (release)
    WHERE t.id = 1 FOR UPDATE OF t`.execute(tx);
  const row = r.rows[0];
  return row ? { release: row.release, month: row.month, generation: Number(row.generation) } : null;
}

async function setTarget(
  tx: Kysely<AppDatabase>,
  release: string,
  by: string,
  switchAfterSeconds: number,
  cur: { generation: number } | null,
): Promise<TargetChange> {
  const generation = (cur?.generation ?? 0) + 1;
  await sql`INSERT INTO fleet_target (id, release, generation, set_at, set_by, switch_after_seconds, switch_at)
    VALUES (1, ${release}, ${generation}, now(), ${by}, ${switchAfterSeconds}, NULL)
    ON CONFLICT (id) DO UPDATE SET release = excluded.release, generation = excluded.generation,
      set_at = excluded.set_at, set_by = excluded.set_by,
      switch_after_seconds = excluded.switch_after_seconds, switch_at = NULL`.execute(tx);
  // Delivered at commit.
  await notify(tx, `target ${generation}`);
  return { moved: true, generation };
}

/** The fleet's target, or null before the first release was published with --database-url. */
export async function readFleetTarget(db: Kysely<AppDatabase>): Promise<FleetTarget | null> {
  const r = await sql<{
    release: string;
    month: string;
    manifest_sha256: string;
    generation: string;
    set_at: Date;
    set_by: string;
    switch_after_seconds: number;
    switch_at: Date | null;
    db_now: Date;
  }>`SELECT t.release, r.month, r.manifest_sha256, t.generation, t.set_at, t.set_by, t.switch_after_seconds,
      t.switch_at, now() AS db_now
    FROM fleet_target t JOIN fleet_releases r USING (release) WHERE t.id = 1`.execute(db);
  const row = r.rows[0];
  if (!row) return null;
  return {
    release: row.release,
    month: row.month,
    manifestSha256: row.manifest_sha256,
    generation: Number(row.generation),
    setAt: new Date(row.set_at),
    setBy: row.set_by,
    switchAfterSeconds: row.switch_after_seconds,
    switchAt: row.switch_at && new Date(row.switch_at),
    dbNow: new Date(row.db_now),
  };
}

/**
 * Fixes the switch time of `generation` at the database's now() + `delayMs`, unless a node did
 * already (the first writer wins; everyone reads the same time back).
 */
export async function claimSwitch(db: Kysely<AppDatabase>, generation: number, delayMs: number): Promise<Date | null> {
  const r = await sql<{ switch_at: Date }>`
    UPDATE fleet_target SET switch_at = now() + make_interval(secs => ${delayMs / 1000})
    WHERE id = 1 AND generation = ${generation} AND switch_at IS NULL RETURNING switch_at`.execute(db);
  if (r.rows[0]) await notify(db, `switch ${generation}`);
  const t = await sql<{
    switch_at: Date | null;
  }>`SELECT switch_at FROM fleet_target WHERE id = 1 AND generation = ${generation}`.execute(db);
  return t.rows[0]?.switch_at ? new Date(t.rows[0].switch_at) : null;
}

/** Live nodes whose follower reported lately: those the fleet waits for. */
export async function liveFollowers(db: Kysely<AppDatabase>): Promise<FleetFollower[]> {
  const r = await sql<{
    id: string;
    listen_url: string;
    release: string | null;
    month: string | null;
    staged_release: string | null;
    follow_error: string | null;
  }>`SELECT id, listen_url, release, month, staged_release, follow_error FROM fleet_nodes
    WHERE stopped_at IS NULL AND seen_at > now() - make_interval(secs => ${SEEN_WITHIN_SECONDS})
      AND follow_seen_at > now() - make_interval(secs => ${SEEN_WITHIN_SECONDS})
    ORDER BY id`.execute(db);
  return r.rows.map((x) => ({
    id: x.id,
    listenUrl: x.listen_url,
    release: x.release,
    month: x.month,
    staged: x.staged_release,
    followError: x.follow_error,
  }));
}

/** The follower's part of the node's row: what it has staged, and that it is following. */
export async function recordFollowerBeat(
  db: Kysely<AppDatabase>,
  nodeId: string,
  /** What the node serves now (its heartbeat says so too, but only every 10 s: a switch shows at once). */
  served: { release: string | null; month: string | null },
  staged: string | null,
  error: string | null,
  /** Wakes the other followers (the staged release changed). */
  announce: boolean,
): Promise<boolean> {
  const r =
    await sql`UPDATE fleet_nodes SET staged_release = ${staged}, follow_error = ${error}, follow_seen_at = now(),
      release = ${served.release}, month = ${served.month}
    WHERE id = ${nodeId}`.execute(db);
  const changed = Number(r.numAffectedRows ?? 0) > 0;
  if (changed && announce) await notify(db, `staged ${nodeId}`);
  return changed;
}
