import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { MONTHLY_ZIPS } from '../../../importer/import-plan.ts';
import { runUpdate, type UpdateOptions } from '../../../importer/download/update.ts';
import { openAppDb } from '../../../src/storage/app/sqlite.ts';
import { recordPublished } from '../../../src/storage/snapshots/records.ts';
import { sample, TestServer } from './server.ts';

// A complete month: the 37 standard names (any small valid zip will do for the download side).
const FILES = [...MONTHLY_ZIPS].sort();
const zipOf = (name: string) => sample(name.replace(/\d\.zip$/, '0.zip'));
let server: TestServer | undefined;
let tmp: string | undefined;
afterEach(async () => {
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function setup(months: string[], omit: string[] = []) {
  const files: Record<string, Buffer> = {};
  for (const m of months) for (const f of FILES) if (!omit.includes(f)) files[`/m/${m}/${f}`] = zipOf(f);
  server = await new TestServer({ autoindex: { '/m/': 'apache' }, files }).start();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-upd-'));
  const imports: { dir: string; month: string; files: string[] }[] = [];
  const dataDir = tmp;
  const options = (more: Partial<UpdateOptions> = {}): UpdateOptions => ({
    dataDir,
    source: `${server!.url}/m/`,
    regimeSource: 'none',
    log: () => {},
    progressStream: null,
    net: { stallTimeoutMs: 1000, maxRetries: 2, backoffBaseMs: 5, backoffMaxMs: 10 },
    // Stands in for runImport: records what it was given and publishes a snapshot row.
    importMonth: async (dir, month) => {
      imports.push({
        dir,
        month,
        files: fs
          .readdirSync(dir)
          .filter((f) => !f.startsWith('.'))
          .sort(),
      });
      const app = await openAppDb(dataDir);
      try {
        const id = `${month}-test${imports.length}`;
        recordPublished(app.sqlite, {
          id,
          month,
          dir: id,
          importedAt: new Date().toISOString(),
          stats: { tables: {}, sourceFiles: [], missingFiles: [], seconds: 0, bytes: 0 },
        });
        return { snapshotId: id, month };
      } finally {
        await app.close();
      }
    },
    ...more,
  });
  return { dataDir, imports, options };
}

describe('update', () => {
  it('downloads and imports the newest month, deletes the zips, then says up to date', async () => {
    const { dataDir, imports, options } = await setup(['2026-07', '2026-08']);
    const r = await runUpdate(options());
    assert.equal(r.status, 'updated');
    if (r.status !== 'updated') return;
    assert.equal(r.month, '2026-08');
    assert.equal(r.snapshotId, '2026-08-test1');
    assert.equal(r.previous, null);
    assert.deepEqual(imports, [{ dir: path.join(dataDir, 'downloads', '2026-08'), month: '2026-08', files: FILES }]);
    assert.ok(!fs.existsSync(r.download.dir), 'downloads deleted after a successful import');

    const again = await runUpdate(options());
    assert.deepEqual({ status: again.status, month: again.month }, { status: 'up-to-date', month: '2026-08' });
    assert.equal(imports.length, 1);
    assert.equal(server!.gets().filter((g) => g.path.endsWith('.zip')).length, 37);
  });

  it('a newer month appears: imports it; --keep-downloads keeps the zips', async () => {
    const { imports, options } = await setup(['2026-07']);
    await runUpdate(options());
    assert.equal(imports[0].month, '2026-07');
    for (const f of FILES) server!.opts.files[`/m/2026-08/${f}`] = zipOf(f);
    const r = await runUpdate(options({ keepDownloads: true }));
    assert.equal(r.status, 'updated');
    if (r.status !== 'updated') return;
    assert.equal(r.month, '2026-08');
    assert.equal(r.previous, '2026-07');
    assert.deepEqual(
      fs
        .readdirSync(r.download.dir)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      FILES,
    );
  });

  it('a failed import keeps the downloads (a rerun does not fetch again) and rethrows', async () => {
    const { dataDir, options } = await setup(['2026-08']);
    const failing = options({ importMonth: async () => Promise.reject(new Error('disk full during import')) });
    await assert.rejects(runUpdate(failing), /disk full during import/);
    const dir = path.join(dataDir, 'downloads', '2026-08');
    assert.deepEqual(
      fs
        .readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort(),
      FILES,
    );
    const r = await runUpdate(options());
    assert.equal(r.status, 'updated');
    if (r.status === 'updated') assert.equal(r.download.skipped, 37);
    assert.equal(server!.gets().filter((g) => g.path.endsWith('.zip')).length, 37);
  });

  it('a month missing standard zips is refused (nothing fetched) unless allowPartial', async () => {
    const { imports, options } = await setup(['2026-08'], ['Socios9.zip', 'Simples.zip']);
    await assert.rejects(
      runUpdate(options()),
      /^DownloadError: Not importing: the 2026-08 folder lacks 2 of the 37 standard zips \(Socios9\.zip, Simples\.zip\); the publication may still be in progress, run again later\.$/,
    );
    assert.equal(server!.gets().filter((g) => g.path.endsWith('.zip')).length, 0);
    assert.equal(imports.length, 0);
    const r = await runUpdate(options({ allowPartial: true }));
    assert.equal(r.status, 'updated');
    assert.equal(imports[0].files.length, 35);
  });

  it('refuses to run twice at the same time', async () => {
    const { dataDir, options } = await setup(['2026-08']);
    fs.mkdirSync(path.join(dataDir, 'downloads'), { recursive: true });
    // The parent process of this test is alive: its pid makes the lock look held.
    fs.writeFileSync(path.join(dataDir, 'downloads', '.update.lock'), `${process.ppid}\n`);
    await assert.rejects(runUpdate(options()), /Another cnpj-api update is running \(pid \d+/);
    // A lock left by a dead process is taken over.
    fs.writeFileSync(path.join(dataDir, 'downloads', '.update.lock'), '999999999\n');
    assert.equal((await runUpdate(options())).status, 'updated');
  });
});
