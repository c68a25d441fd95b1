// The row digest (importer/row-digest.ts): equal values give equal digests; every difference SQLite's
// IS sees (a character, a type, NULL vs '', values shifted between columns) gives another; the
// key column is left out; values stay in [0, 2^47) (SQLite's 6-byte integer).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowDigest } from '../../importer/row-digest.ts';
import type { SqlParam } from '../../importer/tables/source-table.ts';

const d = (...values: SqlParam[]) => rowDigest(['KEY', ...values], 1, values.length + 1);

test('equal rows, equal digests; the key is not part of it', () => {
  assert.equal(d('ACME', 2, null), d('ACME', 2, null));
  assert.equal(rowDigest(['11222333000181', 'X'], 1, 2), rowDigest(['99888777000100', 'X'], 1, 2));
});

test('every difference IS sees gives another digest', () => {
  const variants: SqlParam[][] = [
    ['ab', 'c'],
    ['a', 'bc'],
    ['abc', ''],
    ['abc', null],
    [null, 'abc'],
    ['', 'abc'],
    [12, 'x'],
    ['12', 'x'],
    [12.5, 'x'],
    [13, 'x'],
    [2 ** 40, 'x'],
    [2 ** 40 + 1, 'x'],
    [-1, 'x'],
    [4294967295, 'x'],
    ['SÃO PAULO', 'x'],
    ['SAO PAULO', 'x'],
    ['x', 'SÃO PAULO'],
  ];
  const digests = variants.map((v) => d(...v));
  assert.equal(new Set(digests).size, variants.length, JSON.stringify(variants.map((v, i) => [v, digests[i]])));
});

test('range and spread: 200,000 rows differing in one character or one code, no collision', () => {
  const seen = new Set<number>();
  for (let i = 0; i < 100_000; i++) {
    for (const row of [
      [`RUA ${i}`, 1, 'SP', null],
      ['RUA 1', i, 'SP', null],
    ] as SqlParam[][]) {
      const x = d(...row);
      assert.ok(Number.isSafeInteger(x) && x >= 0 && x < 2 ** 47);
      seen.add(x);
    }
  }
  assert.equal(seen.size, 200_000 - 1, 'one pair is the same row (RUA 1, 1)');
});
