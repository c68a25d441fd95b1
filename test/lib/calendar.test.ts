import assert from 'node:assert/strict';
import { test } from 'node:test';
import { daysInMonth, isCalendarDate, isLeapYear } from '../../src/lib/calendar.ts';

test('daysInMonth and isCalendarDate agree with Date over four centuries', () => {
  for (let y = 1800; y <= 2200; y++) {
    assert.equal(isLeapYear(y), new Date(Date.UTC(y, 1, 29)).getUTCMonth() === 1, String(y));
    for (let m = 1; m <= 12; m++)
      assert.equal(daysInMonth(y, m), new Date(Date.UTC(y, m, 0)).getUTCDate(), `${y}-${m}`);
  }
  for (const s of ['2024-02-29', '2000-02-29', '2026-12-31', '1967-06-30']) assert.equal(isCalendarDate(s), true, s);
  for (const s of [
    '2023-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-04-31',
    '2026-00-10',
    '2026-1-01',
    '20260101',
    '2026-01-01T00:00',
  ])
    assert.equal(isCalendarDate(s), false, s);
});
