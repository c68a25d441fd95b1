// One release, every transport: a two-month synthetic registry imported into data dir A and
// published to a folder; that folder served by nginx and pulled over HTTP into an empty data dir
// B; the same data dir published to an S3 bucket (OpenStack Swift with s3api), its biggest file
// in several multipart parts, and pulled from there into an empty data dir C. B and C answer
// lookups, a search page, a count, the first change-feed page and company histories with A's
// bytes and A's release, hold byte-identical snapshot files, and a second pull from either
// source is a no-op. An http:// location is a source only: publishing to one is refused.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runImport } from '../../../importer/run.ts';
import { generateDump } from '../../../src/demo/generate.ts';
import { dataPaths } from '../../../src/lib/config.ts';
import { activeSnapshot } from '../../../src/storage/snapshots/records.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { runCli } from '../../helpers/cli.ts';
import { startNginx, type NginxServer } from '../../helpers/nginx.ts';
import { startSwift, type SwiftServer } from '../../helpers/swift.ts';
import { makeAccount, serve, withAppDb, type TestServer } from '../../server/helpers.ts';

const MiB = 1024 * 1024;
const PART_BYTES = 5 * MiB;
/** Large enough that companies.db (about 250 bytes a company) exceeds one 5 MiB part. */
const COMPANIES = 26_000;
const BUCKET = 'cnpj-releases';
const PREFIX = 'some/prefix';

let tmp: string;
let nginx: NginxServer | undefined;
let swift: SwiftServer | undefined;
let a: TestServer | undefined;
let tokenA: string;
let release: string;
const servers: TestServer[] = [];
const dirA = () => path.join(tmp, 'A');
const pubDir = () => path.join(tmp, 'pub');
const keyFile = () => path.join(tmp, 'keys', 'release.key');
const pubKey = () => path.join(tmp, 'keys', 'release.pub');
const s3Url = `s3://${BUCKET}/${PREFIX}`;
const timings: string[] = [];

async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    timings.push(`${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}

async function buildRegistry(): Promise<void> {
  await generateDump({ companies: COMPANIES, out: path.join(tmp, 'm0'), seed: 23, month: '2026-09' });
  await generateDump({ companies: 0, out: path.join(tmp, 'm1'), evolveFrom: path.join(tmp, 'm0') });
  for (const m of ['m0', 'm1']) await runImport({ dataDir: dirA(), inputs: [path.join(tmp, m)], log: () => {} });
  for (const m of ['m0', 'm1']) fs.rmSync(path.join(tmp, m), { recursive: true, force: true });
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-release-transports-'));
  fs.mkdirSync(pubDir());
  // The registry is built while nginx and Swift start; every one settles before a failure is
  // thrown, so `after` finds whatever was started.
  const settled = await Promise.allSettled([
    timed('registry built (2 months)', buildRegistry),
    timed('nginx started', async () => void (nginx = await startNginx(pubDir()))),
    timed('Swift started', async () => {
      swift = await startSwift();
      await swift.createBucket(BUCKET);
    }),
  ]);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;

  // As an operator would configure it; runCli's children inherit this environment.
  process.env.AWS_ENDPOINT_URL = swift!.endpoint;
  process.env.AWS_ACCESS_KEY_ID = swift!.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = swift!.secretAccessKey;
  process.env.AWS_REGION = swift!.region;
  process.env.CNPJ_API_S3_PART_BYTES = String(PART_BYTES);

  const keys = await runCli(['release', 'keygen', '--out', path.join(tmp, 'keys')]);
  assert.equal(keys.code, 0, keys.err);
  const pub = await timed('published to a folder', () =>
    runCli(['release', 'publish', '--to', pubDir(), '--key', keyFile(), '--data-dir', dirA()]),
  );
  assert.equal(pub.code, 0, pub.err);
  release = pub.out.trim();
  assert.match(release, /^2026-10-[0-9a-f]{16}$/);
  a = await serve(dirA());
  tokenA = (await makeAccount(dirA(), 'a', { quota: 10_000_000 })).token;
});

after(async () => {
  for (const s of [a, ...servers]) await s?.close();
  await nginx?.stop();
  await swift?.stop();
  for (const k of [
    'AWS_ENDPOINT_URL',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_REGION',
    'CNPJ_API_S3_PART_BYTES',
  ])
    delete process.env[k];
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

interface Raw {
  status: number;
  month: string | null;
  release: string | null;
  body: string;
}

async function raw(url: string, token: string): Promise<Raw> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return {
    status: res.status,
    month: res.headers.get('x-registry-month'),
    release: res.headers.get('x-registry-release'),
    body: await res.text(),
  };
}

/** The active snapshot's folder. */
const activeDir = (dataDir: string) =>
  withAppDb(dataDir, (sqlite) => activeSnapshot(sqlite, dataPaths(dataDir).registryDir)!.dir);

/** SHA-256 of every file of a snapshot folder that belongs to it (not SQLite's side files). */
function folderHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
    if (!e.isFile() || e.name.startsWith('.') || /(-wal|-shm|-journal|\.pid)$/.test(e.name)) continue;
    out[e.name] = crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, e.name)))
      .digest('hex');
  }
  return out;
}

/** Every 10th CNPJ of A's active snapshot, 200 of them. */
async function sampleCnpjs(): Promise<string[]> {
  const db = openSqlite(path.join(await activeDir(dirA()), 'establishments.db'), { readonly: true });
  try {
    const all = db.prepare('SELECT cnpj FROM establishments ORDER BY cnpj').pluck().all() as string[];
    return all.filter((_, i) => i % 10 === 0).slice(0, 200);
  } finally {
    db.close();
  }
}

const pull = (from: string, dataDir: string, extra: string[] = []) =>
  runCli(['release', 'pull', '--from', from, '--trust', pubKey(), '--data-dir', dataDir, ...extra]);

function transport(name: string, source: () => string, dataDirName: string, prepare?: () => Promise<void>) {
  describe(`release over ${name}`, () => {
    const dir = () => path.join(tmp, dataDirName);
    let server: TestServer;
    let token: string;

    test(`pull from ${name} into an empty data dir switches to the release`, async () => {
      await prepare?.();
      const r = await timed(`pulled over ${name}`, () => pull(source(), dir(), ['--json']));
      assert.equal(r.code, 0, r.err);
      const result = JSON.parse(r.out) as { status: string; release: string; month: string; previous: unknown };
      assert.equal(result.status, 'pulled');
      assert.equal(result.release, release);
      assert.equal(result.month, '2026-10');
      assert.equal(result.previous, null);
      server = await serve(dir());
      servers.push(server);
      token = (await makeAccount(dir(), dataDirName, { quota: 10_000_000 })).token;
    });

    test(`${name}: the snapshot files are byte-identical to the publisher's`, async () => {
      const theirs = folderHashes(await activeDir(dirA()));
      const ours = folderHashes(await activeDir(dir()));
      assert.ok(Object.keys(theirs).includes('companies.db'), Object.keys(theirs).join(', '));
      assert.deepEqual(ours, theirs);
    });

    test(`${name}: lookups, a search page, a count, the change feed and histories answer A's bytes`, async () => {
      assert.ok(server, 'the pull succeeded');
      async function same(pathAndQuery: string): Promise<Raw> {
        const [ra, rb] = await Promise.all([
          raw(`${a!.url}${pathAndQuery}`, tokenA),
          raw(`${server.url}${pathAndQuery}`, token),
        ]);
        assert.equal(ra.status, 200, `${pathAndQuery}: ${ra.body}`);
        assert.equal(rb.status, ra.status, pathAndQuery);
        assert.equal(rb.body, ra.body, pathAndQuery);
        assert.equal(ra.release, release, `${pathAndQuery}: A names the release it published`);
        assert.equal(rb.release, release, pathAndQuery);
        assert.equal(ra.month, '2026-10', pathAndQuery);
        assert.equal(rb.month, ra.month, pathAndQuery);
        return ra;
      }
      const cnpjs = await sampleCnpjs();
      assert.equal(cnpjs.length, 200);
      for (let i = 0; i < cnpjs.length; i += 20)
        await Promise.all(cnpjs.slice(i, i + 20).map((c) => same(`/api/v1/brazilian_companies/${c}/company`)));
      await same('/api/v1/brazilian_companies?uf=SP&limit=100');
      await same('/api/v1/brazilian_companies/count?uf=SP');
      const feed = JSON.parse((await same('/api/v1/changes?limit=100')).body) as { data: { cnpj: string }[] };
      const changed = [...new Set(feed.data.map((d) => d.cnpj))].slice(0, 20);
      assert.equal(changed.length, 20, 'the second month recorded changes of 20 companies or more');
      await Promise.all(changed.map((c) => same(`/api/v1/brazilian_companies/${c}/history`)));
    });

    test(`${name}: pulling again says it already serves the release`, async () => {
      const r = await pull(source(), dir());
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^already serving release ${release} \\(month 2026-10`));
    });
  });
}

test('publishing to an http:// location is refused: HTTP is a source only', async () => {
  const listed = fs.readdirSync(pubDir()).sort();
  const r = await runCli(['release', 'publish', '--to', nginx!.url, '--key', keyFile(), '--data-dir', dirA()]);
  assert.notEqual(r.code, 0);
  assert.equal(r.out, '');
  assert.match(
    r.err,
    /release publish: http:\/\/127\.0\.0\.1:\d+\/ is read only: a release is published to a folder or to s3:\/\//,
  );
  assert.deepEqual(fs.readdirSync(pubDir()).sort(), listed);
});

transport('HTTP (nginx)', () => nginx!.url, 'B');

transport(
  'S3 (Swift)',
  () => s3Url,
  'C',
  async () => {
    const r = await timed('published to S3', () =>
      runCli(['release', 'publish', '--to', s3Url, '--key', keyFile(), '--data-dir', dirA(), '--json']),
    );
    assert.equal(r.code, 0, r.err);
    const result = JSON.parse(r.out) as { release: string; uploaded: number; bytes: number };
    assert.equal(result.release, release, 'the same files give the same release id');
    assert.equal(result.uploaded, result.bytes, 'an empty bucket: every file went up');

    // The biggest file spans several parts, so it went up as a multipart upload: S3 gives such an
    // object an ETag of `"<md5 of the parts' md5s>-<parts>"`.
    const snapDir = await activeDir(dirA());
    const [biggest] = fs
      .readdirSync(snapDir)
      .map((name) => ({ name, size: fs.statSync(path.join(snapDir, name)).size }))
      .sort((x, y) => y.size - x.size);
    assert.ok(biggest.size > PART_BYTES, `${biggest.name} has ${biggest.size} bytes: no file needs two parts`);
    // Loaded here, with the SDK's warning about Node 20 off, as src/storage/releases/s3-store.ts does.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const { HeadObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      endpoint: swift!.endpoint,
      region: swift!.region,
      forcePathStyle: true,
      credentials: { accessKeyId: swift!.accessKeyId, secretAccessKey: swift!.secretAccessKey },
    });
    try {
      const head = await client.send(
        new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/releases/${release}/snapshot/${biggest.name}` }),
      );
      assert.equal(head.ContentLength, biggest.size);
      timings.push(`S3: ${biggest.name}, ${biggest.size} bytes, ETag ${head.ETag}`);
      assert.equal(head.ETag?.match(/-(\d+)"?$/)?.[1], String(Math.ceil(biggest.size / PART_BYTES)), head.ETag);
    } finally {
      client.destroy();
    }
  },
);

test('timings', (t) => {
  for (const line of timings) t.diagnostic(line);
});
