import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMonth, parseMonth } from '../../src/lib/month.ts';

test('YYYY-MM with a month 01–12 is a month; anything else is not', () => {
  for (const s of ['2026-09', '1999-01', '2030-12']) assert.ok(isMonth(s), s);
  for (const s of ['2026-13', '2026-00', '2026-9', '26-09', '2026-09-01', ' 2026-09', '2026/09', 'latest', ''])
    assert.ok(!isMonth(s), s);
});

test('parseMonth gives the year and the month number, or null', () => {
  assert.deepEqual(parseMonth('2026-09'), { year: 2026, month: 9 });
  assert.equal(parseMonth('2026-13'), null);
});
