import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openAppDb, openAppSqlite } from '../../../src/storage/app/sqlite.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-db-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('a reader connection needs an app.db that exists: it never creates one', () => {
  assert.throws(() => openAppSqlite(dataDir, 'reader'), /unable to open database file|SQLITE_CANTOPEN/);
  assert.ok(!fs.existsSync(path.join(dataDir, 'app.db')));
});

test("each role's connection gets its pragmas: durable commits, the API's group commit, read-only readers", async () => {
  const app = await openAppDb(dataDir); // creates and migrates
  const pragmas = (role: 'main' | 'api' | 'reader') => {
    const c = openAppSqlite(dataDir, role);
    try {
      const get = (p: string) => c.pragma(p, { simple: true });
      return {
        journal: get('journal_mode'),
        synchronous: get('synchronous'),
        busy: get('busy_timeout'),
        fk: get('foreign_keys'),
        readonly: c.readonly,
      };
    } finally {
      c.close();
    }
  };
  try {
    assert.deepEqual(pragmas('main'), { journal: 'wal', synchronous: 2, busy: 10000, fk: 1, readonly: false });
    assert.deepEqual(pragmas('api'), { journal: 'wal', synchronous: 1, busy: 10000, fk: 1, readonly: false });
    const reader = pragmas('reader'); // it writes nothing: only its wait and its mode matter
    assert.deepEqual({ busy: reader.busy, readonly: reader.readonly }, { busy: 5000, readonly: true });
    assert.equal(app.sqlite.pragma('synchronous', { simple: true }), 2, 'openAppDb is the main role');
  } finally {
    await app.close();
  }
});
