// Publishing a snapshot as a release: hash its files (cached per snapshot), export each recorded
// history month to a file of its own, upload what the target does not hold yet, then the signed
// manifest, then the signed `latest.json` last, so a half-published release is never picked.
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../../lib/config.ts';
import { VERSION } from '../../lib/version.ts';
import { openAppDb } from '../app/sqlite.ts';
import { exportMonth } from '../history/export.ts';
import { historyMonths, openHistoryDb } from '../history/db.ts';
import { HISTORY_SCHEMA_VERSION } from '../history/schema.ts';
import { SEARCH_SCHEMA_VERSION } from '../snapshots/search-schema.ts';
import { activeSnapshot, listSnapshots, recordRelease, type SnapshotInfo } from '../snapshots/records.ts';
import { SNAPSHOT_SCHEMA_VERSION } from '../snapshots/tables.ts';
import { hashFile, type FileHashes } from './hashing.ts';
import {
  DEFAULT_CHUNK_BYTES,
  jsonBytes,
  parseLatest,
  parseManifest,
  RELEASE_FORMAT,
  releaseId,
  sha256Hex,
  type HistoryEntry,
  type Latest,
  type Manifest,
  type ReleaseFile,
} from './manifest.ts';
import { sign, type SecretKey } from './signing.ts';
import { LATEST_KEY, releaseKey, SIGNATURE_SUFFIX, type ReleaseStore } from './store.ts';

export interface PublishOptions {
  dataDir: string;
  store: ReleaseStore;
  key: SecretKey;
  /** The snapshot to publish; default the active one. */
  snapshot?: string;
  /** Releases kept at the target, this one included (older ones are deleted); default: all. */
  keep?: number;
  chunkBytes?: number;
  log?: (line: string) => void;
  now?: () => Date;
}

export interface PublishResult {
  release: string;
  month: string;
  snapshot: string;
  /** SHA-256 of the signed manifest (what latest.json and a fleet's target name). */
  manifestSha256: string;
  files: number;
  bytes: number;
  /** Bytes uploaded in this run (files the target already held are skipped). */
  uploaded: number;
  historyMonths: string[];
  latest: boolean;
  pruned: string[];
  seconds: number;
}

/** Files of a snapshot folder that belong to it (not locks or journals, not hidden files). */
function snapshotFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.') && !/(-wal|-shm|-journal|\.pid)$/.test(e.name))
    .map((e) => e.name)
    .sort();
}

interface HashCache {
  chunkBytes: number;
  files: Record<string, { size: number; mtimeMs: number } & FileHashes>;
}

/** Hashes with a cache beside the snapshots: a snapshot's files never change, so a re-publish reads nothing. */
async function hashSnapshot(
  registryDir: string,
  snap: SnapshotInfo,
  chunkBytes: number,
  log: (l: string) => void,
): Promise<ReleaseFile[]> {
  const cacheDir = path.join(registryDir, '.release-hashes');
  const cacheFile = path.join(cacheDir, `${snap.id}.json`);
  let cache: HashCache = { chunkBytes, files: {} };
  try {
    const read = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as HashCache;
    if (read.chunkBytes === chunkBytes) cache = read;
  } catch {
    // none yet
  }
  const out: ReleaseFile[] = [];
  for (const name of snapshotFiles(snap.dir)) {
    const file = path.join(snap.dir, name);
    const st = fs.statSync(file);
    let h = cache.files[name];
    if (!h || h.size !== st.size || h.mtimeMs !== st.mtimeMs) {
      const t0 = performance.now();
      h = { ...(await hashFile(file, chunkBytes)), mtimeMs: st.mtimeMs };
      const s = (performance.now() - t0) / 1000;
      log(`hashed ${name}: ${(h.size / 1e6).toFixed(1)} MB in ${s.toFixed(1)} s`);
      cache.files[name] = h;
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(cacheFile, JSON.stringify(cache));
    }
    out.push({ path: `snapshot/${name}`, size: h.size, sha256: h.sha256, chunks: h.chunks });
  }
  return out;
}

export async function publishRelease(opts: PublishOptions): Promise<PublishResult> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const now = opts.now ?? (() => new Date());
  const chunkBytes = opts.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const { store } = opts;
  if (!store.writable) throw new Error(`${store.label} is read only: a release is published to a folder or to s3://`);
  const paths = dataPaths(opts.dataDir);
  const app = await openAppDb(opts.dataDir);
  const exportDir = path.join(paths.registryDir, `.release-export-${process.pid}`);
  try {
    const snap = opts.snapshot
      ? listSnapshots(app.sqlite, paths.registryDir).find((s) => s.id === opts.snapshot)
      : activeSnapshot(app.sqlite, paths.registryDir);
    if (!snap)
      throw new Error(
        opts.snapshot
          ? `no snapshot ${opts.snapshot} in ${paths.registryDir}`
          : 'no active snapshot to publish (import a month first)',
      );
    if (snap.status === 'deleted') throw new Error(`snapshot ${snap.id} was pruned: its files are gone`);

    const files = await hashSnapshot(paths.registryDir, snap, chunkBytes, log);
    const history: HistoryEntry[] = [];
    const historyFiles = new Map<string, string>();
    if (fs.existsSync(paths.historyDb)) {
      const db = openHistoryDb(opts.dataDir);
      try {
        const subjectsVersion = db.prepare('SELECT month, subjects_version AS v FROM history_months').all() as {
          month: string;
          v: number;
        }[];
        for (const m of historyMonths(db).reverse()) {
          if (m.month > snap.month) continue; // a later month's history belongs to a later release
          const file = exportMonth(db, path.join(exportDir, m.month), m.month);
          const rel = `history/${m.month}.db`;
          const h = await hashFile(file, chunkBytes);
          files.push({ path: rel, size: h.size, sha256: h.sha256, chunks: h.chunks });
          historyFiles.set(rel, file);
          history.push({
            month: m.month,
            fromMonth: m.fromMonth,
            recordedAt: m.recordedAt,
            subjectsVersion: subjectsVersion.find((r) => r.month === m.month)?.v ?? HISTORY_SCHEMA_VERSION,
            path: rel,
          });
        }
      } finally {
        db.close();
      }
    }

    const id = releaseId(snap.month, files);
    const localFile = (rel: string) => historyFiles.get(rel) ?? path.join(snap.dir, rel.slice('snapshot/'.length));
    const hasSearch = files.some((f) => /^snapshot\/search(-\d+)?\.db$/.test(f.path));
    const manifest: Manifest = {
      format: RELEASE_FORMAT,
      release: id,
      month: snap.month,
      extracted: snap.stats.extracted ?? null,
      snapshot: snap.id,
      importedAt: snap.importedAt,
      publishedAt: now().toISOString(),
      builtBy: { name: 'cnpj-api', version: VERSION },
      schemas: {
        snapshot: SNAPSHOT_SCHEMA_VERSION,
        search: hasSearch ? SEARCH_SCHEMA_VERSION : null,
        history: HISTORY_SCHEMA_VERSION,
      },
      stats: snap.stats as unknown as Record<string, unknown>,
      chunkBytes,
      files,
      history,
    };
    parseManifest(jsonBytes(manifest), 'the new manifest'); // our own output must pass our own check

    // An already-published manifest of this id keeps its date: the release is the same bytes.
    const existing = await store.getBytes(releaseKey(id, 'manifest.json'));
    let manifestBytes = jsonBytes(manifest);
    if (existing) {
      try {
        const old = parseManifest(existing, 'the published manifest');
        manifestBytes = jsonBytes({ ...manifest, publishedAt: old.publishedAt });
      } catch {
        // unreadable: written again
      }
    }

    let uploaded = 0;
    for (const f of files) {
      const key = releaseKey(id, f.path);
      if (await store.hasFile(key, f.size, f.sha256)) {
        log(`${f.path}: already at the target`);
        continue;
      }
      const t = performance.now();
      await store.putFile(key, localFile(f.path), { size: f.size, sha256: f.sha256 });
      uploaded += f.size;
      const s = (performance.now() - t) / 1000;
      log(`uploaded ${f.path}: ${(f.size / 1e6).toFixed(1)} MB in ${s.toFixed(1)} s`);
    }
    const trusted = (what: string) => `cnpj-api release ${id} ${what} month:${snap.month}`;
    await store.putBytes(releaseKey(id, 'manifest.json'), manifestBytes);
    await store.putBytes(
      releaseKey(id, `manifest.json${SIGNATURE_SUFFIX}`),
      Buffer.from(sign(manifestBytes, opts.key, trusted('manifest'))),
    );

    // The pointer moves last, and never back to an older month.
    const current = await readLatestUnverified(store);
    const latest: Latest = {
      format: RELEASE_FORMAT,
      release: id,
      month: snap.month,
      manifestSha256: sha256Hex(manifestBytes),
      publishedAt: (JSON.parse(manifestBytes.toString()) as Manifest).publishedAt,
    };
    const moveLatest = current === null || current.month <= snap.month;
    if (moveLatest) {
      const latestBytes = jsonBytes(latest);
      await store.putBytes(LATEST_KEY, latestBytes);
      await store.putBytes(
        `${LATEST_KEY}${SIGNATURE_SUFFIX}`,
        Buffer.from(sign(latestBytes, opts.key, trusted('latest'))),
      );
    } else log(`latest.json stays at ${current.release} (month ${current.month}, newer than ${snap.month})`);
    recordRelease(app.sqlite, snap.id, id);

    const pruned = opts.keep ? await pruneReleases(store, opts.keep, moveLatest ? id : current!.release) : [];
    return {
      release: id,
      month: snap.month,
      snapshot: snap.id,
      manifestSha256: latest.manifestSha256,
      files: files.length,
      bytes: files.reduce((a, f) => a + f.size, 0),
      uploaded,
      historyMonths: history.map((h) => h.month),
      latest: moveLatest,
      pruned,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    fs.rmSync(exportDir, { recursive: true, force: true });
    await app.close();
  }
}

/** The target's pointer, read without verifying (the publisher only compares months). */
async function readLatestUnverified(store: ReleaseStore): Promise<Latest | null> {
  const bytes = await store.getBytes(LATEST_KEY);
  if (!bytes) return null;
  try {
    return parseLatest(bytes, `${store.label} latest.json`);
  } catch {
    return null;
  }
}

/** Keeps the `keep` newest releases (by month, then publication) and always the one latest.json names. */
export async function pruneReleases(store: ReleaseStore, keep: number, latest: string): Promise<string[]> {
  const ids = await store.listReleases();
  const dated: { id: string; order: string }[] = [];
  for (const id of ids) {
    const bytes = await store.getBytes(releaseKey(id, 'manifest.json'));
    let order = '';
    try {
      if (bytes) {
        const m = parseManifest(bytes, id);
        order = `${m.month} ${m.publishedAt}`;
      }
    } catch {
      // an unreadable or half-published release sorts oldest
    }
    dated.push({ id, order });
  }
  dated.sort((a, b) => (a.order < b.order ? 1 : a.order > b.order ? -1 : 0));
  const removed: string[] = [];
  for (const r of dated.slice(Math.max(1, keep))) {
    if (r.id === latest) continue;
    await store.removeRelease(r.id);
    removed.push(r.id);
  }
  return removed;
}
