import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { journalOff, openSqlite } from '../../src/storage/sqlite.ts';
import { SNAPSHOT_MMAP_BYTES } from '../../src/storage/snapshots/tables.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('journalOff really turns the rollback journal off (a bare pragma is refused in defensive mode)', () => {
  const file = path.join(dir, 'bulk.db');
  const db = openSqlite(file);
  try {
    // What the bulk builds did before: SQLite keeps its mode and says so.
    assert.equal(db.pragma('journal_mode = OFF', { simple: true }), 'delete');
    journalOff(db);
    assert.equal(db.pragma('journal_mode', { simple: true }), 'off');
    db.exec('CREATE TABLE t (x)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    // Rewriting existing pages in a transaction is what a journal would have copied.
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run('x'.repeat(100));
    })();
    let sawJournal = false;
    db.transaction(() => {
      db.exec("UPDATE t SET x = 'y'");
      sawJournal = fs.existsSync(`${file}-journal`);
    })();
    assert.equal(sawJournal, false);
  } finally {
    db.close();
  }
});

test('the installed SQLite memory-maps whole snapshot files (npm install recompiles it: scripts/build-sqlite.ts)', () => {
  const db = openSqlite(path.join(dir, 'mmap.db'));
  try {
    const granted = Number(db.pragma(`mmap_size = ${SNAPSHOT_MMAP_BYTES}`, { simple: true }));
    // 2147418112 (2 GB) is SQLite's default ceiling: a full month's files are 10–12 GB.
    assert.ok(
      granted >= 2 ** 36,
      `SQLite maps at most ${granted} bytes of a file; run \`node --import tsx scripts/build-sqlite.ts\``,
    );
  } finally {
    db.close();
  }
});
