// Faults of a release pull (docs/releases.md, "Faults"). A registry of two synthetic months is
// published as two releases, with 256 KiB chunks so the big files have several; a data dir B pulls
// the first one and serves it. Each case then pulls the second one into a copy of B, from a copy of
// the published folder with one fault applied: a flipped byte, a truncated file, a bad signature,
// an untrusted key, a newer schema, a release that does not exist, a folder with nothing published.
// Each such pull exits 1 with one `error:` line naming the cause, and B serves the same month and
// release as before (its server's X-Registry-Release, its active snapshot) with no new snapshot
// folder. Over nginx, a connection cut mid-file is retried and the pull succeeds; a pull killed
// with SIGKILL at ~30 % and again at ~70 % leaves B serving the old release, and the next pull
// takes the stale lock over and fetches only what the killed ones had not verified.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runImport } from '../../../importer/run.ts';
import { generateDump } from '../../../src/demo/generate.ts';
import { dataPaths } from '../../../src/lib/config.ts';
import { openAppDb } from '../../../src/storage/app/sqlite.ts';
import { openDirStore } from '../../../src/storage/releases/dir-store.ts';
import { jsonBytes, sha256Hex, type Latest, type Manifest } from '../../../src/storage/releases/manifest.ts';
import { publishRelease } from '../../../src/storage/releases/publish.ts';
import { generateKeyPair, readSecretKey, sign } from '../../../src/storage/releases/signing.ts';
import { activeSnapshot } from '../../../src/storage/snapshots/records.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { CLI, type CliResult } from '../../helpers/cli.ts';
import { startNginx, type NginxServer } from '../../helpers/nginx.ts';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts';
import { makeAccount, serve, type TestServer } from '../../server/helpers.ts';

const CHUNK_BYTES = 262_144;

let tmp: string;
let pub: string; // the published folder: release 1 (month 1), then release 2 (month 2), latest.json → 2
let keyFile: string;
let trust: string;
let otherTrust: string; // a second key pair's release.pub: signs nothing here
let B0: string; // a data dir that pulled release 1; never opened after before(), only copied
let r1: Manifest;
let r2: Manifest;
let old: { id: string; month: string; release: string | null };
let token: string;
let cnpj: string; // in both months
let total: number; // bytes of release 2 that a node on release 1 needs
let setupSeconds: number;

const servers = new Set<TestServer>();
const children = new Set<ChildProcess>();
const stoppers: (() => Promise<void>)[] = [];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const manifestOf = (dir: string, id: string): Manifest =>
  JSON.parse(fs.readFileSync(path.join(dir, 'releases', id, 'manifest.json'), 'utf8')) as Manifest;

/** An independent copy of the published folder, for one fault. */
function copyPub(name: string): string {
  const dir = path.join(tmp, `pub-${name}`);
  fs.cpSync(pub, dir, { recursive: true });
  return dir;
}

/** An independent copy of B (on release 1), with a server on it. */
async function freshB(name: string): Promise<{ dir: string; server: TestServer }> {
  const dir = path.join(tmp, `B-${name}`);
  fs.cpSync(B0, dir, { recursive: true });
  const server = await serve(dir, { pollMs: 100 });
  servers.add(server);
  return { dir, server };
}

async function closeServer(s: TestServer): Promise<void> {
  servers.delete(s);
  await s.close();
}

/** The CLI as a child process (test/helpers/cli.ts's runCli, with the child known to after()). */
function runCli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const pull = (dataDir: string, from: string, ...extra: string[]): Promise<CliResult> =>
  runCli(['release', 'pull', '--from', from, '--trust', trust, '--data-dir', dataDir, ...extra]);

/** Exit 1, and one `error:` line (no stack trace) matching every pattern; returns that line. */
function refused(r: CliResult, ...patterns: RegExp[]): string {
  assert.equal(r.code, 1, `exit code\n${r.err}`);
  const lines = r.err.split('\n');
  const errors = lines.filter((l) => l.startsWith('error: '));
  assert.equal(errors.length, 1, `one error line\n${r.err}`);
  assert.ok(!lines.some((l) => /^\s+at /.test(l)), `no stack trace\n${r.err}`);
  assert.match(errors[0]!, /^error: release pull: .*; the served month is unchanged$/);
  for (const p of patterns) assert.match(errors[0]!, p);
  assert.equal(r.out, '');
  return errors[0]!;
}

/** The folders under registry/ that are not hidden (snapshots; not staging folders nor locks). */
const snapshotFolders = (dataDir: string): string[] =>
  fs
    .readdirSync(dataPaths(dataDir).registryDir)
    .filter((n) => !n.startsWith('.'))
    .sort();

async function activeOf(dataDir: string) {
  const app = await openAppDb(dataDir);
  try {
    const s = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir);
    return s && { id: s.id, month: s.month, release: s.release };
  } finally {
    await app.close();
  }
}

async function served(s: TestServer): Promise<{ release: string | null; month: string | null }> {
  const res = await fetch(`${s.url}/api/v1/brazilian_companies/${cnpj}/company`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return { release: res.headers.get('x-registry-release'), month: res.headers.get('x-registry-month') };
}

/** B serves release 1 as before: its server, its active snapshot, its one snapshot folder. */
async function servesOld(dataDir: string, s: TestServer): Promise<void> {
  assert.deepEqual(await served(s), { release: r1.release, month: r1.month });
  assert.deepEqual(await activeOf(dataDir), old);
  assert.deepEqual(snapshotFolders(dataDir), [old.id]);
}

/** Waits until B's server answers with release 2 (it follows the pointer every 100 ms). */
async function servesNew(dataDir: string, s: TestServer): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await served(s)).release !== r2.release && Date.now() < deadline) await sleep(25);
  assert.deepEqual(await served(s), { release: r2.release, month: r2.month });
  const active = await activeOf(dataDir);
  assert.equal(active?.release, r2.release);
  assert.equal(active?.month, r2.month);
}

/** Bytes allocated to a pull's staged files: they are sparse, so this grows with what was written. */
function stagedBytes(staging: string): number {
  let sum = 0;
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.verified') walk(p);
      } else
        try {
          const st = fs.statSync(p);
          sum += Math.min(st.size, st.blocks * 512);
        } catch {
          // gone meanwhile
        }
    }
  };
  walk(staging);
  return sum;
}

before(async () => {
  const t0 = performance.now();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-release-faults-'));
  pub = path.join(tmp, 'pub');
  const keys = generateKeyPair(path.join(tmp, 'keys'));
  keyFile = keys.secretFile;
  trust = keys.publicFile;
  otherTrust = generateKeyPair(path.join(tmp, 'other-keys')).publicFile;
  const key = readSecretKey(keyFile);
  const A = path.join(tmp, 'A');
  B0 = path.join(tmp, 'B0');
  const publishA = async () => {
    const store = openDirStore(pub);
    try {
      // In process: `release publish` has no --chunk-bytes option yet.
      return await publishRelease({ dataDir: A, store, key, chunkBytes: CHUNK_BYTES });
    } finally {
      await store.close();
    }
  };

  await generateDump({ companies: 4000, out: path.join(tmp, 'm0'), seed: 23, month: '2026-09' });
  // No search index: its builder processes would double the import's time, and a fault is a fault
  // in any file (the round-trip test pulls a release with one).
  await runImport({ dataDir: A, inputs: [path.join(tmp, 'm0')], search: false, log: () => {} });
  const p1 = await publishA();
  // B pulls release 1 while A imports the second month.
  const pulling = pull(B0, pub);
  await generateDump({ companies: 0, out: path.join(tmp, 'm1'), evolveFrom: path.join(tmp, 'm0') });
  await runImport({ dataDir: A, inputs: [path.join(tmp, 'm1')], search: false, log: () => {} });
  const p2 = await publishA();
  const first = await pulling;
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, new RegExp(`switched to release ${p1.release}`));
  for (const m of ['m0', 'm1']) fs.rmSync(path.join(tmp, m), { recursive: true, force: true });

  r1 = manifestOf(pub, p1.release);
  r2 = manifestOf(pub, p2.release);
  assert.notEqual(r1.month, r2.month);
  assert.equal(r2.chunkBytes, CHUNK_BYTES);
  assert.ok(r2.history.length > 0, 'month 2 has recorded history');
  assert.ok(
    r2.files.filter((f) => f.path.startsWith('snapshot/') && f.chunks.length >= 3).length >= 2,
    'several files of several chunks',
  );
  const latest = JSON.parse(fs.readFileSync(path.join(pub, 'latest.json'), 'utf8')) as Latest;
  assert.equal(latest.release, r2.release);
  const known = (h: Manifest['history'][number]) =>
    r1.history.some((o) => o.month === h.month && o.fromMonth === h.fromMonth && o.recordedAt === h.recordedAt);
  const needed = new Set(r2.history.filter((h) => !known(h)).map((h) => h.path));
  total = r2.files.filter((f) => f.path.startsWith('snapshot/') || needed.has(f.path)).reduce((a, f) => a + f.size, 0);

  token = (await makeAccount(B0, 'b', { quota: 10_000_000 })).token;
  const a = await activeOf(B0);
  assert.ok(a);
  old = a;
  assert.equal(old.release, r1.release);
  const cnpjsOf = (dataDir: string, snapshot: string) => {
    const db = openSqlite(path.join(dataPaths(dataDir).registryDir, snapshot, 'establishments.db'), {
      readonly: true,
    });
    try {
      return db.prepare('SELECT cnpj FROM establishments ORDER BY cnpj LIMIT 200').pluck().all() as string[];
    } finally {
      db.close();
    }
  };
  const later = new Set(cnpjsOf(A, p2.snapshot));
  cnpj = cnpjsOf(B0, old.id).find((c) => later.has(c))!;
  assert.ok(cnpj, 'a CNPJ present in both months');
  setupSeconds = (performance.now() - t0) / 1000;
});

after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of [...servers]) await closeServer(s);
  for (const stop of stoppers.reverse()) await stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// The cases are independent (each its own copy of the folder and of B), so they run a few at a
// time: most of their time is starting the CLI, on a machine that may be busy. The longest go first.
describe('faults of a pull: refused or survived, and B serves what it should', { concurrency: 4 }, () => {
  let nginx: NginxServer;
  let port: number;

  before(async () => {
    nginx = await startNginx(pub);
    stoppers.push(() => nginx.stop());
    port = Number(new URL(nginx.url).port);
  });

  async function proxy(opts: Parameters<typeof startTcpProxy>[1]): Promise<TcpProxy> {
    const p = await startTcpProxy(port, opts);
    stoppers.push(() => p.close());
    return p;
  }

  const file = (dir: string, rel: string) => path.join(dir, 'releases', r2.release, rel);
  const biggest = () => [...r2.files].sort((a, b) => b.size - a.size)[0]!;

  test('kill -9 at ~30 % and at ~70 %: B serves the old release; the third pull reuses what was verified', async (t) => {
    t.diagnostic(`setup (two imports, two publications, the first pull) took ${setupSeconds.toFixed(1)} s`);
    const b = await freshB('kill');
    const registry = dataPaths(b.dir).registryDir;
    const staging = path.join(registry, `.pull-${r2.release}`);
    const lock = path.join(registry, '.pull.pid');
    // One range at a time (--parallel 1), so the proxy's throttle is the pull's rate: ~5 s whole.
    const slow = await proxy({ bytesPerSecond: Math.round(total / 5) });

    /** A pull through the throttled proxy, SIGKILLed once its staged files hold `fraction` of the bytes. */
    async function killAt(fraction: number): Promise<{ pid: number; err: string; staged: number }> {
      const args = ['release', 'pull', '--from', slow.url, '--trust', trust, '--data-dir', b.dir, '--parallel', '1'];
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      children.add(child);
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const exited = new Promise((r) => child.once('exit', r));
      const deadline = Date.now() + 90_000;
      for (;;) {
        const staged = stagedBytes(staging);
        if (staged >= fraction * total) break;
        if (child.exitCode !== null || Date.now() > deadline) {
          child.kill('SIGKILL');
          await exited;
          assert.fail(`the pull ended (or stalled) at ${staged} of ${total} bytes:\n${err}`);
        }
        await sleep(15);
      }
      child.kill('SIGKILL');
      await exited;
      assert.equal(child.signalCode, 'SIGKILL', err);
      return { pid: child.pid!, err, staged: stagedBytes(staging) };
    }

    await servesOld(b.dir, b.server);
    const t0 = performance.now();
    const k1 = await killAt(0.3);
    // The killed pull left its lock (its pid) and its staging folder; B serves what it served.
    assert.equal(fs.readFileSync(lock, 'utf8').trim(), String(k1.pid));
    assert.ok(fs.existsSync(staging));
    await servesOld(b.dir, b.server);
    // `cnpj-api status` says the same, while the second pull runs.
    const status = runCli(['status', '--json', '--data-dir', b.dir]);

    // The second pull takes the stale lock over, keeps the verified chunks, and is killed too.
    const k2 = await killAt(0.7);
    const st = await status;
    assert.equal(st.code, 0, st.err);
    const active = (JSON.parse(st.out) as { active: { id: string; month: string; release: string } }).active;
    assert.deepEqual({ id: active.id, month: active.month, release: active.release }, old);
    assert.match(k2.err, /resuming: [\d.]+ MB already on disk and verified/);
    assert.equal(fs.readFileSync(lock, 'utf8').trim(), String(k2.pid));
    await servesOld(b.dir, b.server);

    // The third, unthrottled, through a proxy of its own that counts what it carries.
    const counting = await proxy({});
    const r = await pull(b.dir, counting.url, '--json');
    assert.equal(r.code, 0, r.err);
    const result = JSON.parse(r.out) as {
      status: string;
      release: string;
      bytes: number;
      fetched: number;
      reused: number;
    };
    t.diagnostic(
      `killed at ${((k1.staged / total) * 100).toFixed(0)} % and ${((k2.staged / total) * 100).toFixed(0)} % ` +
        `of ${total} bytes; last pull: fetched ${result.fetched}, reused ${result.reused}, the proxy carried ` +
        `${counting.bytes}; ${((performance.now() - t0) / 1000).toFixed(1)} s for the three pulls`,
    );
    assert.equal(result.status, 'pulled');
    assert.equal(result.release, r2.release);
    assert.equal(result.bytes, total);
    assert.equal(result.fetched + result.reused, result.bytes);
    assert.ok(result.fetched < result.bytes, 'fetched less than the release');
    assert.ok(result.reused >= 0.6 * result.bytes, `reused ${result.reused} of ${result.bytes}`);
    assert.ok(counting.bytes >= result.fetched, 'the proxy carried what was fetched');
    assert.ok(counting.bytes < 0.5 * total, `the proxy carried ${counting.bytes} bytes of ${total}`);
    assert.equal(fs.existsSync(lock), false, 'the lock is released');
    assert.equal(fs.existsSync(staging), false, 'the staging folder is gone');
    await servesNew(b.dir, b.server);
    await closeServer(b.server);
  });

  test('the connection cut mid-file three times: retried with backoff, the pull succeeds', async (t) => {
    const p = await proxy({ cutAfterBytes: Math.round(biggest().size * 0.4), cuts: 3 });
    const b = await freshB('cut');
    await servesOld(b.dir, b.server);
    const t0 = performance.now();
    const r = await pull(b.dir, p.url, '--retries', '5', '--json');
    assert.equal(r.code, 0, r.err);
    const result = JSON.parse(r.out) as { status: string; release: string; bytes: number; fetched: number };
    assert.equal(result.status, 'pulled');
    assert.equal(result.release, r2.release);
    assert.equal(result.bytes, total);
    assert.ok(p.cut >= 1, `the proxy cut ${p.cut} connections`);
    const retries = r.err.split('\n').filter((l) => /retrying in/.test(l));
    assert.ok(retries.length >= 1, r.err);
    t.diagnostic(`${p.cut} cuts, pulled in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${retries.join(' | ')}`);
    await servesNew(b.dir, b.server);
    assert.equal(fs.existsSync(path.join(dataPaths(b.dir).registryDir, '.pull.pid')), false);
    await closeServer(b.server);
  });

  /** One fault on a copy of the published folder, pulled into a copy of B with a server on it. */
  function refusal(name: string, fault: (dir: string) => void, extra: string[], patterns: () => RegExp[]) {
    test(name, async (t) => {
      const slug = name.split(':')[0]!.replace(/\W+/g, '-');
      const from = copyPub(slug);
      fault(from);
      const b = await freshB(slug);
      await servesOld(b.dir, b.server);
      const line = refused(await pull(b.dir, from, ...extra), ...patterns());
      t.diagnostic(line);
      await servesOld(b.dir, b.server);
      await closeServer(b.server);
    });
  }

  // --retries 1 here and for the truncated file: a refused chunk leaves the pull's other workers
  // retrying their now closed files with backoff, and the process lingers minutes after its error
  // line with the default 8 retries.
  refusal(
    'a flipped byte in the middle of a chunk of a snapshot file: refused, naming the file',
    (dir) => {
      const fd = fs.openSync(file(dir, biggest().path), 'r+');
      const at = CHUNK_BYTES + CHUNK_BYTES / 2;
      const b = Buffer.alloc(1);
      fs.readSync(fd, b, 0, 1, at);
      b[0] = b[0]! ^ 0xff;
      fs.writeSync(fd, b, 0, 1, at);
      fs.closeSync(fd);
    },
    ['--retries', '1'],
    () => [new RegExp(`${escape(biggest().path)} does not match its SHA-256`), /damaged/],
  );

  // A short file in a folder reads as a connection that ended early, retried with backoff.
  refusal(
    'a truncated snapshot file: refused, naming the file',
    (dir) => fs.truncateSync(file(dir, biggest().path), Math.floor(biggest().size * 0.4)),
    ['--retries', '1'],
    () => [new RegExp(escape(biggest().path))],
  );

  refusal(
    'a byte of manifest.json altered after signing: refused, bad signature',
    (dir) => {
      const f = file(dir, 'manifest.json');
      const text = fs.readFileSync(f, 'utf8');
      const at = text.indexOf('"publishedAt": "') + '"publishedAt": "'.length;
      fs.writeFileSync(f, text.slice(0, at) + (text[at] === '1' ? '2' : '1') + text.slice(at + 1));
    },
    [],
    () => [/the signature of the manifest of release .* does not match its content \(bad signature\)/],
  );

  refusal(
    'a byte of latest.json.minisig altered: refused, bad signature',
    (dir) => {
      const f = path.join(dir, 'latest.json.minisig');
      const lines = fs.readFileSync(f, 'utf8').split('\n');
      // Line 2 is base64 of "ED", the key id (8 bytes), the signature (64): char 60 is in the signature.
      lines[1] = lines[1]!.slice(0, 60) + (lines[1]![60] === 'A' ? 'B' : 'A') + lines[1]!.slice(61);
      fs.writeFileSync(f, lines.join('\n'));
    },
    [],
    () => [/the signature of .*latest\.json does not match its content \(bad signature\)/],
  );

  test('signed by a key B does not trust: refused, not trusted', async (t) => {
    const b = await freshB('untrusted');
    const r = await runCli(['release', 'pull', '--from', pub, '--trust', otherTrust, '--data-dir', b.dir]);
    const line = refused(
      r,
      /latest\.json is signed by key [0-9A-F]{16}, which is not trusted \(trusted: [0-9A-F]{16}\)/,
    );
    t.diagnostic(line);
    await servesOld(b.dir, b.server);
    await closeServer(b.server);
  });

  refusal(
    'a newer snapshot schema, properly signed: refused, upgrade cnpj-api',
    (dir) => {
      const key = readSecretKey(keyFile);
      const m = manifestOf(dir, r2.release);
      m.schemas.snapshot += 1;
      m.builtBy.version = '99.0.0';
      const bytes = jsonBytes(m);
      const trusted = (what: string) => `cnpj-api release ${m.release} ${what} month:${m.month}`;
      fs.writeFileSync(file(dir, 'manifest.json'), bytes);
      fs.writeFileSync(file(dir, 'manifest.json.minisig'), sign(bytes, key, trusted('manifest')));
      const latest = JSON.parse(fs.readFileSync(path.join(dir, 'latest.json'), 'utf8')) as Latest;
      const latestBytes = jsonBytes({ ...latest, manifestSha256: sha256Hex(bytes) });
      fs.writeFileSync(path.join(dir, 'latest.json'), latestBytes);
      fs.writeFileSync(path.join(dir, 'latest.json.minisig'), sign(latestBytes, key, trusted('latest')));
    },
    [],
    () => [
      new RegExp(
        `its snapshot schema is ${r2.schemas.snapshot + 1}, this cnpj-api \\(.*\\) reads ${r2.schemas.snapshot}`,
      ),
      /upgrade cnpj-api to 99\.0\.0 or later/,
    ],
  );

  refusal(
    'a --release id that was never published: refused, does not exist',
    () => {},
    ['--release', '2026-10-0123456789abcdef'],
    () => [/release 2026-10-0123456789abcdef at .* does not exist/],
  );

  refusal(
    'a folder without latest.json: refused, nothing was published',
    (dir) => fs.rmSync(path.join(dir, 'latest.json')),
    [],
    () => [/has no latest\.json: nothing was published there yet/],
  );
});
