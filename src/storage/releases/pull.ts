// Pulling a release: read and verify the signed pointer and manifest, refuse what this binary
// cannot or should not serve, fetch every missing chunk into `registry/.pull-<id>/` (ranged reads,
// several at once, each chunk checked against its SHA-256 before it counts), merge the history
// months this node lacks, and only then publish the snapshot through the same rename + pointer
// row as an import. A kill at any moment leaves the served month as it was and the staging folder
// behind; the next pull re-checks what is on disk and fetches only the chunks that do not match.
import fs from 'node:fs';
import { open, rm, mkdir, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { dataPaths } from '../../lib/config.ts';
import { acquireLock } from '../../lib/pid-lock.ts';
import { VERSION } from '../../lib/version.ts';
import { openAppDb } from '../app/sqlite.ts';
import { fsyncPath } from '../fs-sync.ts';
import { openHistoryDb } from '../history/db.ts';
import { mergeStagedMonth } from '../history/merge.ts';
import { HISTORY_SCHEMA_VERSION } from '../history/schema.ts';
import { publish, pruneSnapshots } from '../snapshots/lifecycle.ts';
import { activeSnapshot, listSnapshots, reactivateSnapshot, type SnapshotStats } from '../snapshots/records.ts';
import { SEARCH_SCHEMA_VERSION } from '../snapshots/search-schema.ts';
import { SNAPSHOT_SCHEMA_VERSION } from '../snapshots/tables.ts';
import {
  backoffMs,
  DEFAULT_NET,
  describeError,
  FatalDownloadError,
  isRetryable,
  type NetOptions,
} from '../transfer/http.ts';
import { pool } from '../transfer/pool.ts';
import { hashRange } from './hashing.ts';
import { parseLatest, parseManifest, sha256Hex, type Manifest, type ReleaseFile } from './manifest.ts';
import { verify, type PublicKey } from './signing.ts';
import { LATEST_KEY, NotFoundInStore, releaseKey, SIGNATURE_SUFFIX, type ReleaseStore } from './store.ts';
import crypto from 'node:crypto';

export interface PullOptions {
  dataDir: string;
  store: ReleaseStore;
  trusted: readonly PublicKey[];
  /** A release id; default the one latest.json names. */
  release?: string;
  /** Switch to a release of an earlier month than the one served. */
  allowOlder?: boolean;
  /** Chunks fetched at once (default 4). */
  parallel?: number;
  /** Snapshots kept on disk after the switch, the new one included (default 2). */
  keep?: number;
  net?: Partial<NetOptions>;
  log?: (line: string) => void;
  /** Called with the bytes added to the release's progress (tests kill the pull part-way). */
  onBytes?: (received: number, total: number) => void;
  /**
   * Called once the release is fetched and verified (staged), before anything served changes;
   * the switch waits for it to resolve. A fleet's follower switches every node at one time this way.
   */
  hold?: (staged: { release: string; month: string }) => Promise<void>;
}

export type PullResult =
  | { status: 'current'; release: string; month: string; snapshot: string }
  | {
      status: 'pulled';
      release: string;
      month: string;
      snapshot: string;
      previous: string | null;
      /** Size of the release's files this node needed. */
      bytes: number;
      /** Bytes received from the source in this run. */
      fetched: number;
      /** Bytes found already on disk and verified (an earlier, interrupted pull). */
      reused: number;
      historyMerged: string[];
      seconds: number;
      /** Seconds spent fetching and checking chunks. */
      fetchSeconds: number;
    };

/** A release that must not be pulled (signature, trust, schema, age, space, integrity); the message says why. */
export class PullRefused extends Error {
  override name = 'PullRefused';
}

const STAGING_PREFIX = '.pull-';
const LOCK = '.pull.pid';
const VERIFIED = '.verified';

/** Reads and verifies what a release is: the manifest and its bytes. */
export async function readRelease(
  store: ReleaseStore,
  trusted: readonly PublicKey[],
  release?: string,
): Promise<{ manifest: Manifest; bytes: Buffer }> {
  let id = release;
  let expectedSha: string | null = null;
  if (id === undefined) {
    const latest = await store.getBytes(LATEST_KEY);
    if (latest === null) throw new PullRefused(`${store.label} has no ${LATEST_KEY}: nothing was published there yet`);
    const sig = await store.getBytes(`${LATEST_KEY}${SIGNATURE_SUFFIX}`);
    if (sig === null)
      throw new PullRefused(`${store.label}: ${LATEST_KEY} has no signature (${LATEST_KEY}${SIGNATURE_SUFFIX})`);
    verifyOrRefuse(latest, sig, trusted, `${store.label} ${LATEST_KEY}`);
    const pointer = parseLatest(latest, `${store.label} ${LATEST_KEY}`);
    id = pointer.release;
    expectedSha = pointer.manifestSha256;
  }
  const what = `release ${id} at ${store.label}`;
  const bytes = await store.getBytes(releaseKey(id, 'manifest.json'));
  if (bytes === null) throw new PullRefused(`${what} does not exist (no manifest.json; a publication not finished?)`);
  const sig = await store.getBytes(releaseKey(id, `manifest.json${SIGNATURE_SUFFIX}`));
  if (sig === null) throw new PullRefused(`${what}: the manifest has no signature (manifest.json${SIGNATURE_SUFFIX})`);
  verifyOrRefuse(bytes, sig, trusted, `the manifest of ${what}`);
  if (expectedSha !== null && sha256Hex(bytes) !== expectedSha)
    throw new PullRefused(`${LATEST_KEY} and the manifest of ${what} disagree (a publication under way? try again)`);
  let manifest: Manifest;
  try {
    manifest = parseManifest(bytes, `the manifest of ${what}`);
  } catch (err) {
    throw new PullRefused((err as Error).message);
  }
  if (manifest.release !== id) throw new PullRefused(`the manifest of ${what} is that of release ${manifest.release}`);
  return { manifest, bytes };
}

function verifyOrRefuse(data: Buffer, sig: Buffer, trusted: readonly PublicKey[], what: string): void {
  try {
    verify(data, sig.toString('utf8'), trusted, what);
  } catch (err) {
    throw new PullRefused((err as Error).message);
  }
}

/** Refuses a release this binary cannot serve; says which way to upgrade. */
export function checkSchemas(m: Manifest): void {
  const problems: string[] = [];
  const check = (name: string, theirs: number | null, ours: number) => {
    if (theirs === null || theirs === ours) return;
    problems.push(
      theirs > ours
        ? `its ${name} schema is ${theirs}, this cnpj-api (${VERSION}) reads ${ours}: upgrade cnpj-api to ${m.builtBy.version} or later`
        : `its ${name} schema is ${theirs}, older than this cnpj-api (${VERSION}) reads (${ours}): publish it again with this version`,
    );
  };
  check('snapshot', m.schemas.snapshot, SNAPSHOT_SCHEMA_VERSION);
  check('search', m.schemas.search, SEARCH_SCHEMA_VERSION);
  if (m.schemas.history > HISTORY_SCHEMA_VERSION) check('history', m.schemas.history, HISTORY_SCHEMA_VERSION);
  if (problems.length) throw new PullRefused(`release ${m.release} cannot be served here: ${problems.join('; ')}`);
}

interface Task {
  file: ReleaseFile;
  local: string;
  index: number;
  start: number;
  end: number;
}

export async function pullRelease(opts: PullOptions): Promise<PullResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const net: NetOptions = { ...DEFAULT_NET, ...opts.net };
  const { store } = opts;
  const { manifest } = await readRelease(store, opts.trusted, opts.release);
  const id = manifest.release;
  checkSchemas(manifest);

  const paths = dataPaths(opts.dataDir);
  fs.mkdirSync(paths.registryDir, { recursive: true });
  const app = await openAppDb(opts.dataDir);
  let releaseLock: (() => void) | null = null;
  try {
    const active = activeSnapshot(app.sqlite, paths.registryDir);
    if (active?.release === id) return { status: 'current', release: id, month: manifest.month, snapshot: active.id };
    if (active && manifest.month < active.month && !opts.allowOlder)
      throw new PullRefused(
        `release ${id} is month ${manifest.month}, older than the month served here (${active.month}); --allow-older switches back to it`,
      );
    releaseLock = acquireLock(path.join(paths.registryDir, LOCK), 'release pull');

    // Still on disk from before (a rollback to the previous release): nothing to fetch.
    const kept = listSnapshots(app.sqlite, paths.registryDir).find(
      (s) => s.release === id && s.status === 'retired' && fs.existsSync(s.dir),
    );
    if (kept) {
      log(`release ${id} is still on disk (snapshot ${kept.id}): switching back to it`);
      await opts.hold?.({ release: id, month: manifest.month });
      reactivateSnapshot(app.sqlite, kept.id);
      return {
        status: 'pulled',
        release: id,
        month: manifest.month,
        snapshot: kept.id,
        previous: active?.id ?? null,
        bytes: 0,
        fetched: 0,
        reused: 0,
        historyMerged: [],
        seconds: (performance.now() - t0) / 1000,
        fetchSeconds: 0,
      };
    }

    const staging = path.join(paths.registryDir, STAGING_PREFIX + id);
    // A staging folder of another release is an abandoned pull: its bytes are of no use now.
    for (const name of fs.readdirSync(paths.registryDir))
      if (name.startsWith(STAGING_PREFIX) && name !== STAGING_PREFIX + id)
        fs.rmSync(path.join(paths.registryDir, name), { recursive: true, force: true });

    // History months this node lacks, or recorded differently from the publisher's.
    const localMonths = new Map<string, { from: string; at: string }>();
    if (fs.existsSync(paths.historyDb)) {
      const db = openHistoryDb(opts.dataDir);
      try {
        for (const r of db.prepare('SELECT month, from_month, recorded_at FROM history_months').all() as {
          month: string;
          from_month: string;
          recorded_at: string;
        }[])
          localMonths.set(r.month, { from: r.from_month, at: r.recorded_at });
      } finally {
        db.close();
      }
    }
    const neededHistory = manifest.history.filter((h) => {
      const l = localMonths.get(h.month);
      return !l || l.from !== h.fromMonth || l.at !== h.recordedAt;
    });
    const needed = new Set(neededHistory.map((h) => h.path));
    const files = manifest.files.filter((f) => f.path.startsWith('snapshot/') || needed.has(f.path));
    const total = files.reduce((a, f) => a + f.size, 0);

    // Disk: what is not on disk yet, plus slack, before any byte is fetched.
    let allocated = 0;
    for (const f of files) {
      try {
        allocated += Math.min(f.size, fs.statSync(path.join(staging, f.path)).blocks * 512);
      } catch {
        // not started
      }
    }
    const st = fs.statfsSync(paths.registryDir);
    const free = st.bavail * st.bsize;
    // History months are copied once more into history.db when merged; 64 MB keeps app.db and the WALs writable.
    const historyBytes = files.filter((f) => f.path.startsWith('history/')).reduce((a, f) => a + f.size, 0);
    const need = total - allocated + historyBytes + 64 * 2 ** 20;
    if (free < need) {
      const gb = (n: number) => (n / 1e9).toFixed(1);
      throw new PullRefused(
        `not enough disk space in ${paths.registryDir}: ${gb(free)} GB free, release ${id} needs about ${gb(need)} GB more`,
      );
    }

    log(
      `pulling release ${id} (month ${manifest.month}) from ${store.label}: ${files.length} files, ${(total / 1e6).toFixed(1)} MB`,
    );
    const tf = performance.now();
    let received = 0;
    let fetched = 0;
    let reused = 0;
    const progress = (n: number) => {
      received += n;
      opts.onBytes?.(received, total);
    };
    const tasks: Task[] = [];
    await mkdir(path.join(staging, VERIFIED), { recursive: true });
    for (const f of files) {
      const local = path.join(staging, f.path);
      const marker = path.join(staging, VERIFIED, f.path.replaceAll('/', '__'));
      if ((await readFile(marker, 'utf8').catch(() => '')) === f.sha256 && fs.existsSync(local)) {
        reused += f.size;
        progress(f.size);
        continue;
      }
      await mkdir(path.dirname(local), { recursive: true });
      const existed = fs.existsSync(local);
      const fh = await open(local, existed ? 'r+' : 'w');
      try {
        if ((await fh.stat()).size !== f.size) await fh.truncate(f.size);
        const buf = Buffer.allocUnsafe(4 * 2 ** 20);
        for (let i = 0; i < f.chunks.length; i++) {
          const start = i * manifest.chunkBytes;
          const end = Math.min(f.size, start + manifest.chunkBytes);
          // What an interrupted pull left: a chunk whose bytes already match is kept.
          if (existed && (await hashRange(fh, start, end, buf)) === f.chunks[i]) {
            reused += end - start;
            progress(end - start);
          } else tasks.push({ file: f, local, index: i, start, end });
        }
      } finally {
        await fh.close();
      }
    }
    if (reused > 0) log(`resuming: ${(reused / 1e6).toFixed(1)} MB already on disk and verified`);

    const handles = new Map<string, Promise<import('node:fs/promises').FileHandle>>();
    const handleOf = (local: string) => {
      let h = handles.get(local);
      if (!h) handles.set(local, (h = open(local, 'r+')));
      return h;
    };
    const remaining = new Map<string, number>();
    for (const t of tasks) remaining.set(t.local, (remaining.get(t.local) ?? 0) + 1);
    try {
      await pool(tasks, Math.max(1, opts.parallel ?? 4), async (t) => {
        const fh = await handleOf(t.local);
        const got = await fetchChunk(store, releaseKey(id, t.file.path), t, fh, net, progress, log);
        fetched += got;
        const left = remaining.get(t.local)! - 1;
        remaining.set(t.local, left);
        if (left === 0) {
          await fh.sync();
          await writeFile(path.join(staging, VERIFIED, t.file.path.replaceAll('/', '__')), t.file.sha256);
        }
      });
    } finally {
      for (const h of handles.values()) await (await h).close();
    }
    const fetchSeconds = (performance.now() - tf) / 1000;
    log(
      `verified ${files.length} files (${(total / 1e6).toFixed(1)} MB; ${(fetched / 1e6).toFixed(1)} MB fetched at ${(fetched / 1e6 / Math.max(fetchSeconds, 1e-3)).toFixed(1)} MB/s)`,
    );

    await opts.hold?.({ release: id, month: manifest.month });
    // Everything is verified: the history months, then the pointer, as an import does.
    const merged: string[] = [];
    if (neededHistory.length) {
      const db = openHistoryDb(opts.dataDir);
      try {
        for (const h of [...neededHistory].sort((a, b) => (a.month < b.month ? -1 : 1))) {
          mergeStagedMonth(db, [path.join(staging, h.path)], h.month);
          db.prepare('UPDATE history_months SET subjects_version = ? WHERE month = ?').run(h.subjectsVersion, h.month);
          merged.push(h.month);
        }
      } finally {
        db.close();
      }
      log(`history: merged ${merged.join(', ')}`);
    }
    const snapDir = path.join(staging, 'snapshot');
    fs.rmSync(path.join(staging, VERIFIED), { recursive: true, force: true });
    await fsyncPath(snapDir, 'r');
    const taken = new Set(listSnapshots(app.sqlite, paths.registryDir).map((s) => s.id));
    let snapshotId = manifest.snapshot;
    if (taken.has(snapshotId) || fs.existsSync(path.join(paths.registryDir, snapshotId)))
      snapshotId = `${manifest.snapshot}-${id.slice(-8)}`;
    publish(app.sqlite, paths.registryDir, snapDir, {
      id: snapshotId,
      month: manifest.month,
      importedAt: manifest.importedAt,
      stats: manifest.stats as unknown as SnapshotStats,
      release: id,
    });
    await rm(staging, { recursive: true, force: true });
    const pruned = pruneSnapshots(app.sqlite, paths.registryDir, opts.keep ?? 2);
    if (pruned.length) log(`removed old snapshots: ${pruned.join(', ')}`);
    return {
      status: 'pulled',
      release: id,
      month: manifest.month,
      snapshot: snapshotId,
      previous: active?.id ?? null,
      bytes: total,
      fetched,
      reused,
      historyMerged: merged,
      seconds: (performance.now() - t0) / 1000,
      fetchSeconds,
    };
  } finally {
    releaseLock?.();
    await app.close();
  }
}

/** One chunk into its place in the file, retried on network errors; its bytes must hash to the manifest's. */
async function fetchChunk(
  store: ReleaseStore,
  key: string,
  t: Task,
  fh: import('node:fs/promises').FileHandle,
  net: NetOptions,
  progress: (n: number) => void,
  log: (l: string) => void,
): Promise<number> {
  let fetched = 0;
  let failures = 0;
  let mismatches = 0;
  for (;;) {
    const h = crypto.createHash('sha256');
    let pos = t.start;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      try {
        await fh.writev(pending, pos - pendingBytes);
      } catch (err) {
        // A full disk or a closed file: fetching again cannot help.
        throw new FatalDownloadError(`cannot write ${t.local}: ${(err as Error).message}`);
      }
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of store.getRange(key, t.start, t.end)) {
        if (pos + chunk.length > t.end)
          throw new FatalDownloadError(`${t.file.path}: the source sent more bytes than the manifest says`);
        h.update(chunk);
        pending.push(chunk);
        pendingBytes += chunk.length;
        pos += chunk.length;
        fetched += chunk.length;
        progress(chunk.length);
        if (pendingBytes >= 1 << 20) await flush();
      }
      await flush();
      if (pos !== t.end) throw Object.assign(new Error('the connection ended early'), { code: 'UND_ERR_SOCKET' });
    } catch (err) {
      progress(-(pos - t.start));
      if (err instanceof NotFoundInStore)
        throw new PullRefused(`${t.file.path} is missing at ${store.label} (the release there is incomplete)`);
      failures++;
      if (!isRetryable(err)) throw new PullRefused(`${t.file.path}: ${describeError(err)}`);
      if (failures > net.maxRetries)
        throw new PullRefused(
          `${t.file.path} could not be fetched from ${store.label} after ${failures} attempts: ${describeError(err)}`,
        );
      const delay = backoffMs(net, failures);
      log(`${t.file.path} chunk ${t.index}: ${describeError(err)}; retrying in ${(delay / 1000).toFixed(1)} s`);
      await sleep(delay);
      continue;
    }
    if (h.digest('hex') === t.file.chunks[t.index]) return fetched;
    progress(-(t.end - t.start));
    if (++mismatches >= 2)
      throw new PullRefused(
        `${t.file.path} does not match its SHA-256 in the manifest (bytes ${t.start}-${t.end - 1}, twice): the copy at ${store.label} is damaged`,
      );
    log(`${t.file.path} chunk ${t.index}: bytes do not match the manifest; fetching it again`);
  }
}
