import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import { recordPublished } from '../../src/storage/snapshots/records.ts';
import { sample, TestServer } from '../importer/download/server.ts';
import { CLI } from '../helpers/cli.ts';

const BIN = CLI;

// Async spawn: the test server lives in this process and must keep answering.
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, CNPJ_API_SOURCE: '', CNPJ_API_REGIME_SOURCE: '' } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('cnpj-api download / update (CLI)', () => {
  let server: TestServer;
  let tmp: string;
  let source: string;
  before(async () => {
    server = await new TestServer({
      webdav: { '/public.php/webdav/': 'TOK' },
      files: {
        '/public.php/webdav/2026-08/Cnaes.zip': sample('Cnaes.zip'),
        '/public.php/webdav/2026-08/Paises.zip': sample('Paises.zip'),
      },
    }).start();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-cli-'));
    source = server.url.replace('http://', 'http://TOK@') + '/public.php/webdav/';
  });
  after(async () => {
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('download prints the summary on stdout and exits 0', async () => {
    const r = await cli(['download', '--data-dir', tmp, '--source', source, '--regime-source', 'none']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^downloaded 2026-08: 2 files \(2 monthly \+ 0 regime, 0 already complete\), .* 0 retries → .*downloads\/2026-08\n$/,
    );
    assert.deepEqual(fs.readdirSync(path.join(tmp, 'downloads', '2026-08')).sort(), ['Cnaes.zip', 'Paises.zip']);
  });

  it('a missing month: exit 1 and one sentence on stderr', async () => {
    const r = await cli([
      'download',
      '--data-dir',
      tmp,
      '--month',
      '2026-01',
      '--source',
      source,
      '--regime-source',
      'none',
    ]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `error: The month 2026-01 is not published at ${server.url}/public.php/webdav/; available months: 2026-08.\n`,
    );
  });

  it('update with the month already imported: "already up to date", exit 0', async () => {
    const app = await openAppDb(tmp);
    recordPublished(app.sqlite, {
      id: '2026-08_x',
      month: '2026-08',
      dir: '2026-08_x',
      importedAt: new Date().toISOString(),
      stats: { tables: {}, sourceFiles: [], missingFiles: [], seconds: 0, bytes: 0 },
    });
    await app.close();
    const r = await cli(['update', '--data-dir', tmp, '--source', source, '--regime-source', 'none']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'already up to date (month 2026-08)\n');
  });
});
