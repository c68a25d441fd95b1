// `cnpj-api backup` while a server process answers and counts calls, then the restore procedure
// of docs/backup.md (stop, copy over app.db, delete -wal/-shm, start).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { dataPaths } from '../../src/lib/config.ts';
import { openSqlite } from '../../src/storage/sqlite.ts';
import { SERPRO_FILIAL, fixture } from '../server/fixtures.ts';
import {
  bearer,
  get,
  killServe,
  makeAccount,
  publish,
  spawnServe,
  tempDataDir,
  writeSnapshot,
} from '../server/helpers.ts';
import { runCli } from '../helpers/cli.ts';

function read(file: string) {
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      journal: db.pragma('journal_mode', { simple: true }),
      accounts: (db.prepare('SELECT name FROM accounts').all() as { name: string }[]).map((r) => r.name),
      tokens: (db.prepare('SELECT count(*) AS n FROM api_tokens').get() as { n: number }).n,
      calls: (db.prepare('SELECT coalesce(sum(calls), 0) AS n FROM usage_monthly').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

test('backup: a consistent copy while a server counts calls; refusals; the documented restore', async () => {
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const acct = await makeAccount(dataDir, 'Backup', { plan: 'Black' });
  let server = await spawnServe(dataDir);
  const backupFile = path.join(dataDir, 'backups', 'app-copy.db');
  fs.mkdirSync(path.dirname(backupFile));
  try {
    // A client counting calls until told to stop (bounded in time and count).
    let answered = 0;
    let stop = false;
    const deadline = Date.now() + 20_000;
    const client = (async () => {
      while (!stop && Date.now() < deadline && answered < 20_000) {
        const r = await get(`${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(acct.token));
        assert.equal(r.status, 200);
        answered++;
      }
    })();
    while (answered < 50) await new Promise((r) => setTimeout(r, 10));

    const atStart = answered;
    const r = await runCli(['backup', backupFile, '--data-dir', dataDir]);
    const atEnd = answered;
    while (answered < atEnd + 20) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await client;

    assert.equal(r.code, 0, r.err);
    const size = fs.statSync(backupFile).size;
    assert.match(
      r.out,
      new RegExp(
        `^backup written to ${backupFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+\\.\\d MB, ${size} bytes\\)\\nno history\\.db yet \\(no month recorded\\): nothing else to back up\\n$`,
      ),
    );
    assert.deepEqual(fs.readdirSync(path.dirname(backupFile)), ['app-copy.db'], 'no temp file left');
    const copy = read(backupFile);
    assert.equal(copy.integrity, 'ok');
    assert.equal(copy.journal, 'delete', 'one self-contained file');
    assert.deepEqual(copy.accounts, ['Backup']);
    assert.equal(copy.tokens, 1);
    // Every call answered before the backup started was committed before its answer; none
    // answered after it ended can be in the copy.
    assert.ok(copy.calls >= atStart && copy.calls <= atEnd + 1, `${atStart} <= ${copy.calls} <= ${atEnd}`);

    // Refusals: an existing file (kept as it was), a missing folder, a data dir without app.db.
    const before = fs.readFileSync(backupFile);
    let f = await runCli(['backup', backupFile, '--data-dir', dataDir]);
    assert.equal(f.code, 1);
    assert.equal(f.err, `error: ${backupFile} already exists; pass --force to replace it\n`);
    assert.ok(fs.readFileSync(backupFile).equals(before));
    f = await runCli(['backup', path.join(dataDir, 'nope', 'x.db'), '--data-dir', dataDir]);
    assert.match(f.err, /^error: folder .*nope does not exist\n$/);
    f = await runCli(['backup', path.join(dataDir, 'x.db'), '--data-dir', path.join(dataDir, 'backups')]);
    assert.match(f.err, /^error: no app\.db in .*: nothing to back up\n$/);
    assert.ok(!fs.existsSync(path.join(dataDir, 'backups', 'app.db')), 'no app.db created by the attempt');

    // --force replaces it with a newer copy.
    const total = answered;
    f = await runCli(['backup', backupFile, '--force', '--data-dir', dataDir]);
    assert.equal(f.code, 0, f.err);
    assert.equal(read(backupFile).calls, total);

    // The restore procedure: stop, copy over app.db, delete -wal/-shm, start. The copy's calls
    // are what the quota counts from.
    await killServe(server);
    const appDb = dataPaths(dataDir).appDb;
    fs.copyFileSync(backupFile, appDb);
    fs.rmSync(`${appDb}-wal`, { force: true });
    fs.rmSync(`${appDb}-shm`, { force: true });
    server = await spawnServe(dataDir);
    const after = await get(`${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(acct.token));
    assert.equal(after.status, 200);
    assert.equal(Number(after.headers.get('x-ratelimit-remaining')), 500_000 - total - 1);
  } finally {
    await killServe(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
