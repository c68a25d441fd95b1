import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  displayPrefix,
  generateToken,
  hashToken,
  isWellFormedToken,
  TOKEN_LENGTH,
  TOKEN_PREFIX,
} from '../../../src/domain/metering/token-format.ts';

test('generated tokens are prefixed, fixed-length base62, unique and well formed', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const t = generateToken();
    assert.match(t, /^cnpj_[0-9A-Za-z]{39}$/);
    assert.equal(t.length, TOKEN_LENGTH);
    assert.ok(isWellFormedToken(t), t);
    seen.add(t);
  }
  assert.equal(seen.size, 500);
});

test('a single changed, dropped or added character fails the checksum', () => {
  const t = generateToken();
  const body = t.slice(TOKEN_PREFIX.length);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    const other = c === 'a' ? 'b' : 'a';
    assert.equal(
      isWellFormedToken(TOKEN_PREFIX + body.slice(0, i) + other + body.slice(i + 1)),
      false,
      `position ${i}`,
    );
  }
  assert.equal(isWellFormedToken(t.slice(0, -1)), false);
  assert.equal(isWellFormedToken(t + 'a'), false);
  // Swapping two different adjacent characters is caught too (CRC32).
  const i = [...body].findIndex((c, k) => k > 0 && c !== body[k - 1]);
  const swapped = body.slice(0, i - 1) + body[i] + body[i - 1] + body.slice(i + 1);
  assert.equal(isWellFormedToken(TOKEN_PREFIX + swapped), false);
});

test('garbage is rejected', () => {
  const t = generateToken();
  for (const bad of [
    undefined,
    null,
    42,
    '',
    'cnpj_',
    'Bearer ' + t,
    t.replace('cnpj_', 'CNPJ_'),
    t.replace('cnpj_', 'cnpx_'),
    t.slice(0, 20) + '-' + t.slice(21),
    ' ' + t,
    'x'.repeat(10_000),
  ]) {
    assert.equal(isWellFormedToken(bad), false, String(bad).slice(0, 30));
  }
});

test('hash is SHA-256 hex; display prefix is short and non-secret', () => {
  const t = generateToken();
  assert.match(hashToken(t), /^[0-9a-f]{64}$/);
  assert.notEqual(hashToken(t), hashToken(generateToken()));
  assert.equal(displayPrefix(t), t.slice(0, 9));
});
