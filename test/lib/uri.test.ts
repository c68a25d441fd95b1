import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSafe } from '../../src/lib/uri.ts';

test('decodeSafe decodes percent-encoding and leaves invalid encoding as it was', () => {
  assert.equal(decodeSafe('33.683.111%2F0002-80'), '33.683.111/0002-80');
  assert.equal(decodeSafe('S%C3%A3o%20Paulo'), 'São Paulo');
  assert.equal(decodeSafe('100%'), '100%');
  assert.equal(decodeSafe('%E0%A4%A'), '%E0%A4%A');
  assert.equal(decodeSafe('a+b'), 'a+b', 'a plus is not a space outside form encoding');
});
