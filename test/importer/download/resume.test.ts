import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DownloadError, downloadMonth } from '../../../importer/download/month.ts';
import { corrupted, sample } from './server.ts';
import { assertComplete, behaveOn, cleanUpAfterEach, DAV, MONTH_FILES, opts, share, shareFiles } from './share.ts';

cleanUpAfterEach();

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
    const o = opts(s, {
      regimeSource: 'none',
      net: { stallTimeoutMs: 300, maxRetries: 2, backoffBaseMs: 5, backoffMaxMs: 10 },
    });
    await assert.rejects(downloadMonth(o), (err: Error) => {
      assert.ok(err instanceof DownloadError);
      assert.match(
        err.message,
        /^1 of 4 files of 2026-08 failed: Empresas0\.zip \(Empresas0\.zip could not be downloaded after 3 attempts: /,
      );
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
      assert.match(
        err.message,
        /Estabelecimentos0\.zip failed the zip integrity test twice \(.+\); the file on the server may be corrupt/,
      );
      return true;
    });
    const dir = path.join(o.dataDir, 'downloads', '2026-08');
    assert.deepEqual(
      fs
        .readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      MONTH_FILES.filter((f) => f !== file).sort(),
    );
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
    assert.deepEqual(
      s.gets(`${DAV}2026-08/Socios0.zip`).map((g) => g.range),
      ['bytes=77-'],
    );
    assert.equal(r.results.find((x) => x.name === 'Socios0.zip')?.fetched, sample('Socios0.zip').length - 77);
  });
});
