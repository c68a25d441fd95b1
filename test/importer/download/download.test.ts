import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DownloadError, downloadMonth } from '../../../importer/download/month.ts';
import { sample, TestServer } from './server.ts';
import {
  ALL_LOCAL,
  assertComplete,
  behaveOn,
  cleanUpAfterEach,
  DAV,
  MONTH_FILES,
  opts,
  REGIME,
  share,
  shareFiles,
  tmpdir,
  TOKEN,
  track,
} from './share.ts';

cleanUpAfterEach();

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
    assert.equal(
      r.totalBytes,
      ALL_LOCAL.reduce((n, f) => n + sample(f).length, 0),
    );
    // Basic auth with the token as user on every request, and Depth: 1 listings.
    const props = s.log.filter((l) => l.method === 'PROPFIND');
    assert.ok(props.some((l) => l.path === DAV));
    assert.ok(props.some((l) => l.path === `${DAV}2026-08/`));
    assert.ok(
      s.log
        .filter((l) => l.path.startsWith(DAV))
        .every((l) => l.auth === 'Basic ' + Buffer.from(`${TOKEN}:`).toString('base64')),
    );
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
      assert.match(
        err.message,
        /The month 2025-01 is not published at http:\/\/127\.0\.0\.1:\d+\/public\.php\/webdav\/; available months: 2025-12, 2026-07, 2026-08\./,
      );
      return true;
    });
  });

  it('a wrong token: says the share refused it', async () => {
    const s = await share();
    const o = opts(s);
    await assert.rejects(
      downloadMonth({ ...o, source: o.source!.replace(TOKEN, 'nope') }),
      /refused access \(HTTP 401\); the share token may have changed/,
    );
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
      track(s);
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
    track(s);
    const r = await downloadMonth(opts(s, { source: `${s.url}/m/`, regimeSource: 'none' }));
    assertComplete(r.dir, MONTH_FILES);
    assert.match(s.gets('/m/2026-09/Socios0.zip')[1].range ?? '', /^bytes=\d+-$/);
  });

  it('a 404 month on a mirror names the available months', async () => {
    const s = await new TestServer({
      autoindex: { '/m/': 'apache' },
      files: { '/m/2026-09/Cnaes.zip': sample('Cnaes.zip') },
    }).start();
    track(s);
    await assert.rejects(
      downloadMonth(opts(s, { source: `${s.url}/m/`, month: '2026-10' })),
      /The month 2026-10 is not published at .*; available months: 2026-09\./,
    );
  });
});
