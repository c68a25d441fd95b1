// A watchlist's changes of one month: each CNPJ's own rows and its company's (stored under the
// base) shown under the watched CNPJ, values parsed as the API shows them; other months and other
// CNPJs left out.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { openHistoryDb, openHistoryReader, writeMonth } from '../../../src/storage/history/db.ts';
import { watchedChanges } from '../../../src/domain/history/watched.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-watched-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('watchedChanges: own and company rows of the month, under the watched CNPJ', () => {
  assert.equal(openHistoryReader(dataDir), null, 'no history.db yet');
  const db = openHistoryDb(dataDir);
  writeMonth(db, '2026-02', '2026-01', (insert) => {
    insert('11222333000181', 'alteracao', 'uf', '"SP"', '"RJ"');
    return { alteracao: 1 };
  });
  writeMonth(db, '2026-03', '2026-02', (insert) => {
    insert('11222333000181', 'alteracao', 'situacao_cadastral', '"ATIVA"', '"INAPTA"');
    insert('11222333', 'alteracao', 'razao_social', '"ACME LTDA"', '"ACME SA"');
    insert('11222333000262', 'abertura', '', null, null);
    insert('99888777000100', 'encerramento', '', null, null);
    return { alteracao: 2, abertura: 1, encerramento: 1 };
  });
  db.close();
  const reader = openHistoryReader(dataDir)!;
  try {
    assert.deepEqual(watchedChanges(reader, '2026-03', ['11222333000181', '11222333000262']), [
      { cnpj: '11222333000181', tipo: 'alteracao', campo: 'situacao_cadastral', antes: 'ATIVA', depois: 'INAPTA' },
      { cnpj: '11222333000181', tipo: 'alteracao', campo: 'razao_social', antes: 'ACME LTDA', depois: 'ACME SA' },
      { cnpj: '11222333000262', tipo: 'abertura' },
      { cnpj: '11222333000262', tipo: 'alteracao', campo: 'razao_social', antes: 'ACME LTDA', depois: 'ACME SA' },
    ]);
    assert.deepEqual(watchedChanges(reader, '2026-04', ['11222333000181']), []);
  } finally {
    reader.close();
  }
});

test('HistoryReader: nothing before history.db exists, then its months newest first', async () => {
  const { HistoryReader } = await import('../../../src/domain/history/reader.ts');
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'history-reader-'));
  const reader = new HistoryReader(empty);
  try {
    assert.equal(reader.connection(), null);
    assert.equal(reader.latestMonth(), null);
    const db = openHistoryDb(empty);
    writeMonth(db, '2026-03', '2026-02', () => ({}));
    writeMonth(db, '2026-04', '2026-03', () => ({}));
    db.close();
    assert.deepEqual(
      reader.months().map((m) => m.month),
      ['2026-04', '2026-03'],
    );
    assert.equal(reader.latestMonth(), '2026-04');
  } finally {
    reader.close();
    fs.rmSync(empty, { recursive: true, force: true });
  }
});
