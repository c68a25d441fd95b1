// Paging cursors (src/domain/cursor.ts): a round trip within one listing; anything else — another
// listing's cursor, an edited, truncated or padded one, garbage — decodes to null.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor.ts';

const SCOPE = 'establishments:33683111';

test('round trip: the key comes back for the same scope, in URL-safe characters', () => {
  for (const key of [
    '33683111000280',
    '33683111000280' + '33683111000191',
    '0',
    'x'.repeat(128),
    '12ABC34501DE35|~ ',
  ]) {
    const c = encodeCursor(SCOPE, key);
    assert.match(c, /^[A-Za-z0-9_-]+$/);
    assert.equal(decodeCursor(SCOPE, c), key);
  }
});

test('another scope (endpoint, company, filter set) refuses the cursor', () => {
  const c = encodeCursor(SCOPE, '33683111000280');
  for (const other of ['establishments:33683112', 'search:uf=SP', '', `${SCOPE} `])
    assert.equal(decodeCursor(other, c), null, other);
});

test('every single-character edit, truncation or extension is refused', () => {
  const c = encodeCursor(SCOPE, '33683111000280');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < c.length; i++) {
    for (const ch of [alphabet[(alphabet.indexOf(c[i]!) + 1) % 64]!, alphabet[(alphabet.indexOf(c[i]!) + 17) % 64]!]) {
      const edited = c.slice(0, i) + ch + c.slice(i + 1);
      assert.equal(decodeCursor(SCOPE, edited), null, `position ${i} → ${ch}`);
    }
  }
  for (let n = 0; n < c.length; n++) assert.equal(decodeCursor(SCOPE, c.slice(0, n)), null, `first ${n}`);
  for (const tail of ['A', 'AA', '=', '==']) assert.equal(decodeCursor(SCOPE, c + tail), null, `+${tail}`);
});

test('garbage is refused, not thrown', () => {
  const forged = Buffer.concat([Buffer.of(1), Buffer.from('33683111000280'), Buffer.alloc(8)]).toString('base64url');
  const otherVersion = Buffer.from(encodeCursor(SCOPE, 'k'), 'base64url');
  otherVersion[0] = 2;
  for (const g of [
    '',
    'abc',
    '!!!!',
    'null',
    '%00',
    'a b',
    'x'.repeat(10_000),
    forged,
    otherVersion.toString('base64url'),
    Buffer.from('\x01\x00\x00').toString('base64url'),
  ]) {
    assert.equal(decodeCursor(SCOPE, g), null, g.slice(0, 40));
  }
});

test('keys are short printable ASCII', () => {
  for (const bad of ['', 'x'.repeat(129), 'ção', 'a\nb']) assert.throws(() => encodeCursor(SCOPE, bad), RangeError);
});
