// The watchlist's month of changes in one statement gives exactly what watchedChanges gives (own
// rows then the company's under each watched CNPJ, by campo; other months and CNPJs left out), cut
// at the limit with the true total.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { watchedChanges } from '../../../src/domain/history/watched.ts';
import { watchlistChanges } from '../../../src/domain/watchlist/changes.ts';
import { openHistoryDb, openHistoryReader, writeMonth } from '../../../src/storage/history/db.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'watchlist-changes-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('same items as watchedChanges, limit and total', () => {
  const db = openHistoryDb(dataDir);
  const est = (base: number, order: string) => makeCnpj(String(base), order);
  writeMonth(db, '2026-03', '2026-02', (insert) => {
    for (let b = 0; b < 200; b++) {
      const base = 10_000_000 + b;
      if (b % 3 === 0) insert(est(base, '0001'), 'alteracao', 'uf', '"SP"', '"RJ"');
      if (b % 3 === 0) insert(est(base, '0001'), 'alteracao', 'cep', '"01001000"', '"20000000"');
      if (b % 5 === 0) insert(String(base), 'alteracao', 'razao_social', '"A LTDA"', '"A SA"');
      if (b % 7 === 0) insert(est(base, '0002'), 'abertura', '', null, null);
      if (b % 11 === 0) insert(est(base, '0003'), 'encerramento', '', null, null);
    }
    return {};
  });
  writeMonth(db, '2026-04', '2026-03', (insert) => {
    insert(est(10_000_000, '0001'), 'alteracao', 'uf', '"RJ"', '"MG"');
    insert('10000000', 'alteracao', 'porte', '"ME"', '"EPP"');
    return {};
  });
  db.close();
  const reader = openHistoryReader(dataDir)!;
  try {
    // Every establishment order of every base, some with nothing, in CNPJ order.
    const list = Array.from({ length: 200 }, (_, b) => ['0001', '0002', '0003'].map((o) => est(10_000_000 + b, o)))
      .flat()
      .sort();
    const expected = watchedChanges(reader, '2026-03', list);
    assert.ok(expected.length > 300, `a real fixture: ${expected.length}`);
    assert.deepEqual(watchlistChanges(reader, '2026-03', list, 100_000), { items: expected, total: expected.length });
    assert.deepEqual(watchlistChanges(reader, '2026-03', list, 50), {
      items: expected.slice(0, 50),
      total: expected.length,
    });
    // April: one establishment's own change, and its company's shown under each of its 3 listed establishments.
    assert.deepEqual(watchlistChanges(reader, '2026-04', list, 50), {
      items: watchedChanges(reader, '2026-04', list),
      total: 4,
    });
    assert.deepEqual(watchlistChanges(reader, '2026-03', [], 50), { items: [], total: 0 });
    assert.deepEqual(watchlistChanges(reader, '2026-05', list, 50), { items: [], total: 0 });
  } finally {
    reader.close();
  }
});
