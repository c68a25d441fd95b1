// writeMonth stages a month's changes as they come and moves them into `changes` sorted: what a
// reader sees is the same whatever the order they came in; a write that fails leaves the history
// as it was and the connection able to write the next month; the `then` step reads the changes
// in place, in the same transaction.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { changesPage, historyMonths, openHistoryDb, writeMonth } from '../../../src/storage/history/db.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-write-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const CHANGES: [string, 'abertura' | 'encerramento' | 'alteracao', string, string | null, string | null][] = [
  ['99888777000100', 'encerramento', '', null, null],
  ['11222333000181', 'alteracao', 'uf', '"SP"', '"RJ"'],
  ['11222333', 'alteracao', 'razao_social', '"ACME LTDA"', '"ACME SA"'],
  ['11222333000181', 'alteracao', 'cep', '"01001000"', '"20040002"'],
  ['11222333000262', 'abertura', '', null, null],
];

test('writeMonth: changes in any order come out in key order; a failed write changes nothing; then reads them in place', () => {
  const db = openHistoryDb(dataDir);
  try {
    const cacheSize = db.pragma('cache_size', { simple: true });
    let seenByThen = -1;
    writeMonth(
      db,
      '2026-03',
      '2026-02',
      (insert) => {
        for (const c of CHANGES) insert(...c);
        return { n: CHANGES.length };
      },
      () => {
        seenByThen = db.prepare("SELECT count(*) FROM changes WHERE month = '2026-03'").pluck().get() as number;
      },
    );
    assert.equal(seenByThen, CHANGES.length, 'the then step sees every change in place');
    const keys = changesPage(db, '2026-03', ['', ''], 100).map((r) => `${r.cnpj}/${r.campo}`);
    assert.deepEqual(keys, [
      '11222333/razao_social',
      '11222333000181/cep',
      '11222333000181/uf',
      '11222333000262/',
      '99888777000100/',
    ]);

    assert.throws(
      () =>
        writeMonth(db, '2026-03', '2026-02', (insert) => {
          insert('55444333000122', 'abertura', '', null, null);
          throw new Error('comparison failed');
        }),
      /comparison failed/,
    );
    assert.equal(changesPage(db, '2026-03', ['', ''], 100).length, CHANGES.length, 'the month as it was');
    assert.throws(
      () =>
        writeMonth(db, '2026-04', '2026-03', (insert) => {
          insert('11222333000181', 'alteracao', 'uf', '"RJ"', '"MG"');
          insert('11222333000181', 'alteracao', 'uf', '"RJ"', '"MG"');
          return {};
        }),
      /UNIQUE/,
      'a change twice is refused when moved in',
    );
    writeMonth(db, '2026-04', '2026-03', (insert) => {
      insert('11222333000181', 'alteracao', 'uf', '"RJ"', '"MG"');
      return { uf: 1 };
    });
    assert.deepEqual(
      historyMonths(db).map((m) => m.month),
      ['2026-04', '2026-03'],
    );
    assert.equal(changesPage(db, '2026-04', ['', ''], 100).length, 1);
    assert.equal(
      db.prepare("SELECT count(*) FROM temp.sqlite_master WHERE name = 'staged_changes'").pluck().get(),
      0,
      'no staging table left',
    );
    assert.equal(db.pragma('cache_size', { simple: true }), cacheSize, "the connection's cache size put back");
  } finally {
    db.close();
  }
});
