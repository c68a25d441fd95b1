import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { DownloadError, downloadMonth, type DownloadOptions } from '../../../src/importer/download/month.ts';
import { corrupted, sample, TestServer, type Behavior, type TestServerOptions } from './server.ts';

const TOKEN = 'TestTok3n';
const REGIME_TOKEN = 'RegimeTok';
const DAV = '/public.php/webdav/';
const MONTH_FILES = ['Empresas0.zip', 'Estabelecimentos0.zip', 'Socios0.zip', 'Cnaes.zip'];
const REGIME = {
  'entidades-lucro-real.zip': 'Lucro Real.zip',
  'entidades-lucro-presumido.zip': 'Lucro Presumido.zip',
  'entidades-lucro-arbitrado.zip': 'Lucro Arbitrado.zip',
  'entidades-imunes-e-isentas.zip': 'Imunes e Isentas.zip',
};

let servers: TestServer[] = [];
let tmps: string[] = [];
afterEach(async () => {
  for (const s of servers) await s.stop();
  for (const t of tmps) fs.rmSync(t, { recursive: true, force: true });
  servers = [];
  tmps = [];
});

function tmpdir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-dl-'));
  tmps.push(d);
  return d;
}

/** The official layout: monthly share with two months, regime share at /regime/ (its own token). */
function shareFiles(month = '2026-08'): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const f of MONTH_FILES) files[`${DAV}${month}/${f}`] = sample(f);
  files[`${DAV}2026-07/Empresas0.zip`] = sample('Empresas0.zip');
  for (const [remote, local] of Object.entries(REGIME)) files[`/regime${DAV}${remote}`] = sample(local);
  files[`/regime${DAV}renuncia-irpj-csll-ecf.csv`] = Buffer.from('a,b\n');
  files[`/regime${DAV}entidades-regime-tributario-dicionarios/dicionario.pdf`] = Buffer.from('%PDF');
  return files;
}

async function share(extra: Partial<TestServerOptions> = {}): Promise<TestServer> {
  const s = await new TestServer({
    webdav: { [`/regime${DAV}`]: REGIME_TOKEN, [DAV]: TOKEN },
    files: shareFiles(),
    dirs: [`${DAV}2025-12`, `${DAV}temp`],
    ...extra,
  }).start();
  servers.push(s);
  return s;
}

function opts(s: TestServer, more: Partial<DownloadOptions> = {}): DownloadOptions {
  const u = new URL(s.url);
  return {
    dataDir: tmpdir(),
    source: `http://${TOKEN}@${u.host}${DAV}`,
    regimeSource: `http://${REGIME_TOKEN}@${u.host}/regime${DAV}`,
    parallel: 3,
    net: { stallTimeoutMs: 300, maxRetries: 4, backoffBaseMs: 10, backoffMaxMs: 50 },
    log: () => {},
    progressStream: null,
    ...more,
  };
}

function assertComplete(dir: string, names: string[]): void {
  const present = fs.readdirSync(dir).filter((f) => !f.startsWith('.')).sort();
  assert.deepEqual(present, [...names].sort());
  for (const n of names) {
    const expected = sample(n);
    assert.ok(fs.readFileSync(path.join(dir, n)).equals(expected), `${n} differs from the sample`);
  }
}

const ALL_LOCAL = [...MONTH_FILES, ...Object.values(REGIME)];

function behaveOn(file: string, first: Behavior, more?: Behavior): TestServerOptions['behave'] {
  return (p, attempt) => (p.endsWith(`/${file}`) ? (attempt === 1 ? first : more) : undefined);
}

describe('download over WebDAV (Nextcloud share)', () => {
  it('picks the latest month, downloads its zips and the regime files under the importer names', async () => {
    const s = await share();
    const o = opts(s);
    const r = await downloadMonth(o);
    assert.equal(r.month, '2026-08');
    assert.equal(r.dir, path.join(o.dataDir, 'downloads', '2026-08'));
    assertComplete(r.dir, ALL_LOCAL);
    assert.equal(r.files, 8);
    assert.equal(r.regimeFiles, 4);
    assert.equal(r.skipped, 0);
    assert.equal(r.retries, 0);
    assert.equal(r.totalBytes, ALL_LOCAL.reduce((n, f) => n + sample(f).length, 0));
    // Basic auth with the token as user on every request, and Depth: 1 listings.
    const props = s.log.filter((l) => l.method === 'PROPFIND');
    assert.ok(props.some((l) => l.path === DAV));
    assert.ok(props.some((l) => l.path === `${DAV}2026-08/`));
    assert.ok(s.log.filter((l) => l.path.startsWith(DAV)).every((l) => l.auth === 'Basic ' + Buffer.from(`${TOKEN}:`).toString('base64')));
    assert.equal(s.gets().length, 8);
  });

  it('listed names that are not plain file names (control characters, a dot first) are not downloaded', async () => {
    const files = shareFiles();
    // ESC starts a terminal command (clear the screen, set the title): never a file name here.
    files[`${DAV}2026-08/\x1b]0;owned\x07\x1b[2JEmpresas1.zip`] = sample('Empresas1.zip');
    files[`${DAV}2026-08/.hidden.zip`] = sample('Empresas1.zip');
    const s = await share({ files });
    const r = await downloadMonth(opts(s));
    assertComplete(r.dir, ALL_LOCAL);
    assert.ok(!s.gets().some((l) => /\x1b|hidden/.test(l.path)), 'never requested');
  });

  it('downloads an explicit month into --out', async () => {
    const s = await share();
    const out = path.join(tmpdir(), 'x');
    const r = await downloadMonth(opts(s, { month: '2026-07', out, regimeSource: 'none' }));
    assert.equal(r.month, '2026-07');
    assertComplete(out, ['Empresas0.zip']);
  });

  it('a month that is not there: clear error naming it and the available months', async () => {
    const s = await share();
    await assert.rejects(downloadMonth(opts(s, { month: '2025-01' })), (err: Error) => {
      assert.ok(err instanceof DownloadError);
      assert.match(err.message, /The month 2025-01 is not published at http:\/\/127\.0\.0\.1:\d+\/public\.php\/webdav\/; available months: 2025-12, 2026-07, 2026-08\./);
      return true;
    });
  });

  it('a wrong token: says the share refused it', async () => {
    const s = await share();
    const o = opts(s);
    await assert.rejects(downloadMonth({ ...o, source: o.source!.replace(TOKEN, 'nope') }), /refused access \(HTTP 401\); the share token may have changed/);
  });

  it('rerun skips complete files (no GET), and --recheck re-tests them', async () => {
    const s = await share();
    const o = opts(s);
    await downloadMonth(o);
    const before = s.gets().length;
    const r2 = await downloadMonth(o);
    assert.equal(r2.skipped, 8);
    assert.equal(r2.fetchedBytes, 0);
    assert.equal(s.gets().length, before);
    const r3 = await downloadMonth({ ...o, recheck: true });
    assert.equal(r3.skipped, 8);
    assert.equal(s.gets().length, before);
    assertComplete(r2.dir, ALL_LOCAL);
  });

  it('a complete file whose size differs from the listing is fetched again', async () => {
    const s = await share();
    const o = opts(s, { regimeSource: 'none' });
    const dir = path.join(o.dataDir, 'downloads', '2026-08');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'Cnaes.zip'), 'old');
    const r = await downloadMonth(o);
    assert.equal(r.skipped, 0);
    assertComplete(dir, MONTH_FILES);
  });
});

describe('resume, stalls, truncation', () => {
  it('resumes with Range after the server closes the socket mid-file', async () => {
    const file = 'Socios0.zip';
    const s = await share({ behave: behaveOn(file, { kind: 'cut', after: 200 }) });
    const r = await downloadMonth(opts(s, { regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    const gets = s.gets(`${DAV}2026-08/${file}`);
    assert.equal(gets.length, 2);
    assert.equal(gets[0].range, undefined);
    assert.match(gets[1].range ?? '', /^bytes=([1-9]\d*)-$/);
    assert.ok(Number(/=(\d+)/.exec(gets[1].range!)![1]) <= 200);
    assert.equal(r.retries, 1);
  });

  it('a connection that stalls mid-file is dropped after the read timeout and resumed', async () => {
    const file = 'Estabelecimentos0.zip';
    const s = await share({ behave: behaveOn(file, { kind: 'stall', after: 100 }) });
    const t0 = Date.now();
    const r = await downloadMonth(opts(s, { regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    const gets = s.gets(`${DAV}2026-08/${file}`);
    assert.equal(gets.length, 2);
    assert.equal(gets[1].range, 'bytes=100-');
    assert.ok(Date.now() - t0 >= 300, 'waited for the stall timeout');
    assert.equal(r.results.find((x) => x.name === file)?.retries, 1);
  });

  it('a response shorter than its Content-Length is resumed', async () => {
    const file = 'Empresas0.zip';
    const s = await share({ behave: behaveOn(file, { kind: 'truncate', after: 150 }) });
    const r = await downloadMonth(opts(s, { regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    const gets = s.gets(`${DAV}2026-08/${file}`);
    assert.equal(gets.length, 2);
    assert.equal(gets[1].range, 'bytes=150-');
  });

  it('a server that ignores Range (200) makes the file restart from zero', async () => {
    const file = 'Socios0.zip';
    const s = await share({ behave: behaveOn(file, { kind: 'cut', after: 120 }, { kind: 'ignore-range' }) });
    const r = await downloadMonth(opts(s, { regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    const gets = s.gets(`${DAV}2026-08/${file}`);
    assert.equal(gets.length, 2);
    assert.ok(gets[1].range);
  });

  it('a file truncated on every attempt fails clearly and leaves only a .part', async () => {
    const file = 'Empresas0.zip';
    // Each attempt adds no byte: the resumed request is cut before sending anything.
    const s = await share({ behave: (p) => (p.endsWith(file) ? { kind: 'truncate', after: 0 } : undefined) });
    const o = opts(s, { regimeSource: 'none', net: { stallTimeoutMs: 300, maxRetries: 2, backoffBaseMs: 5, backoffMaxMs: 10 } });
    await assert.rejects(downloadMonth(o), (err: Error) => {
      assert.ok(err instanceof DownloadError);
      assert.match(err.message, /^1 of 4 files of 2026-08 failed: Empresas0\.zip \(Empresas0\.zip could not be downloaded after 3 attempts: /);
      assert.match(err.message, /Rerun the command to resume/);
      assert.equal(err.summary?.files, 3);
      return true;
    });
    const dir = path.join(o.dataDir, 'downloads', '2026-08');
    assert.ok(!fs.existsSync(path.join(dir, file)));
    assert.equal(s.gets(`${DAV}2026-08/${file}`).length, 3);
  });

  it('transient server errors (503) are retried with backoff', async () => {
    const s = await share({ behave: behaveOn('Cnaes.zip', { kind: 'status', status: 503 }) });
    const r = await downloadMonth(opts(s, { regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    assert.equal(r.retries, 1);
  });
});

describe('zip integrity', () => {
  it('a corrupt zip fails the test twice: not marked complete, no .part left, clear error; the others complete', async () => {
    const file = 'Estabelecimentos0.zip';
    const files = shareFiles();
    files[`${DAV}2026-08/${file}`] = await corrupted(file);
    const s = await share({ files });
    const o = opts(s, { regimeSource: 'none' });
    await assert.rejects(downloadMonth(o), (err: Error) => {
      assert.ok(err instanceof DownloadError);
      assert.match(err.message, /Estabelecimentos0\.zip failed the zip integrity test twice \(.+\); the file on the server may be corrupt/);
      return true;
    });
    const dir = path.join(o.dataDir, 'downloads', '2026-08');
    assert.deepEqual(fs.readdirSync(dir).filter((f) => !f.startsWith('.')).sort(), MONTH_FILES.filter((f) => f !== file).sort());
    assert.equal(s.gets(`${DAV}2026-08/${file}`).length, 2);
  });

  it('bad bytes served once are fetched again from zero and then pass', async () => {
    const file = 'Socios0.zip';
    const s = await share({ behave: behaveOn(file, { kind: 'body', body: await corrupted(file) }) });
    const r = await downloadMonth(opts(s, { regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    const gets = s.gets(`${DAV}2026-08/${file}`);
    assert.equal(gets.length, 2);
    assert.equal(gets[1].range, undefined);
  });

  it('a full-size but corrupt .part left by an earlier run is tested, dropped and fetched again', async () => {
    const s = await share();
    const o = opts(s, { regimeSource: 'none' });
    const dir = path.join(o.dataDir, 'downloads', '2026-08');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'Cnaes.zip.part'), await corrupted('Cnaes.zip'));
    const r = await downloadMonth(o);
    assertComplete(dir, MONTH_FILES);
    assert.equal(s.gets(`${DAV}2026-08/Cnaes.zip`).length, 1);
    assert.equal(r.retries, 1);
  });

  it('a partial .part is resumed from its size', async () => {
    const s = await share();
    const o = opts(s, { regimeSource: 'none' });
    const dir = path.join(o.dataDir, 'downloads', '2026-08');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'Socios0.zip.part'), sample('Socios0.zip').subarray(0, 77));
    const r = await downloadMonth(o);
    assertComplete(dir, MONTH_FILES);
    assert.deepEqual(s.gets(`${DAV}2026-08/Socios0.zip`).map((g) => g.range), ['bytes=77-']);
    assert.equal(r.results.find((x) => x.name === 'Socios0.zip')?.fetched, sample('Socios0.zip').length - 77);
  });
});

describe('plain HTTP mirrors (autoindex)', () => {
  for (const style of ['apache', 'python', 'nginx'] as const) {
    it(`lists a ${style} autoindex, picks the latest month, sizes by HEAD, and skips on rerun`, async () => {
      const files: Record<string, Buffer> = {};
      for (const f of MONTH_FILES) files[`/mirror/2026-09/${f}`] = sample(f);
      files['/mirror/2026-06/Cnaes.zip'] = sample('Cnaes.zip');
      files['/mirror/README.txt'] = Buffer.from('hi');
      for (const f of Object.values(REGIME)) files[`/regime/${f}`] = sample(f);
      files['/regime/Dicionário de Dados do Regime Tributário.pdf'] = Buffer.from('%PDF');
      const s = await new TestServer({ autoindex: { '/mirror/': style, '/regime/': style }, files }).start();
      servers.push(s);
      const o = opts(s, { source: `${s.url}/mirror/`, regimeSource: `${s.url}/regime` });
      const r = await downloadMonth(o);
      assert.equal(r.month, '2026-09');
      assertComplete(r.dir, ALL_LOCAL);
      assert.equal(s.log.filter((l) => l.method === 'HEAD').length, 8);
      const zipGets = () => s.gets().filter((g) => g.path.endsWith('.zip')).length;
      assert.equal(zipGets(), 8);
      const r2 = await downloadMonth(o);
      assert.equal(r2.skipped, 8);
      assert.equal(zipGets(), 8);
    });
  }

  it('without HEAD, the size comes from the GET; a cut transfer still resumes', async () => {
    const files: Record<string, Buffer> = {};
    for (const f of MONTH_FILES) files[`/m/2026-09/${f}`] = sample(f);
    const s = await new TestServer({
      autoindex: { '/m/': 'python' },
      files,
      noHead: true,
      behave: behaveOn('Socios0.zip', { kind: 'cut', after: 100 }),
    }).start();
    servers.push(s);
    const r = await downloadMonth(opts(s, { source: `${s.url}/m/`, regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    assert.match(s.gets('/m/2026-09/Socios0.zip')[1].range ?? '', /^bytes=\d+-$/);
  });

  it('a 404 month on a mirror names the available months', async () => {
    const s = await new TestServer({ autoindex: { '/m/': 'apache' }, files: { '/m/2026-09/Cnaes.zip': sample('Cnaes.zip') } }).start();
    servers.push(s);
    await assert.rejects(downloadMonth(opts(s, { source: `${s.url}/m/`, month: '2026-10' })), /The month 2026-10 is not published at .*; available months: 2026-09\./);
  });
});
