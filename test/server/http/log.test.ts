import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateToken } from '../../../src/domain/metering/token-format.ts';
import { redactTokens } from '../../../src/server/http/log.ts';

test('redactTokens: every token-shaped piece goes, whatever surrounds or encodes it; other text stays', () => {
  const t = generateToken();
  const body = t.slice(5);
  const cases: [string, string][] = [
    [`/a?api+token=${t}`, '/a?api+token=[REDACTED]'],
    [`/a;api_token=${t};x=1`, '/a;api_token=[REDACTED];x=1'],
    [`/v1/${t}/company`, '/v1/[REDACTED]/company'],
    [`/v1/abc${t}xyz`, '/v1/abc[REDACTED]'], // glued to more text: the run goes with it
    [`/v1/${t}-x`, '/v1/[REDACTED]-x'],
    [`?t=cnpj%5f${body}`, '?t=[REDACTED]'],
    [`?t=%63%6E%70%6A%5F${body.slice(0, 3)}%41%7a%30${body.slice(6)}`, '?t=[REDACTED]'],
    [`?t=%2563nPJ_${body}`, '?t=[REDACTED]'],
    [`?t=${t.slice(0, -6)}`, '?t=[REDACTED]'], // cut short of its checksum: still the secret
    [`a ${t} b ${generateToken()} c`, 'a [REDACTED] b [REDACTED] c'],
    [
      '/api/v1/brazilian_companies/33683111000280/company?x=cnpj_short',
      '/api/v1/brazilian_companies/33683111000280/company?x=cnpj_short',
    ],
    [`/cnpj_${'%zz'.repeat(40)}`, `/cnpj_${'%zz'.repeat(40)}`],
  ];
  for (const [input, expected] of cases) assert.equal(redactTokens(input), expected, input);
});

test('redactTokens is cheap: well under 2 µs for a typical line', () => {
  const line = `2026-05-01T12:00:00.000Z GET /api/v1/brazilian_companies/33683111000280/company?api_token=[REDACTED] 200 0.4ms account=12`;
  const n = 100_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) redactTokens(line);
  const us = ((performance.now() - t0) * 1000) / n;
  assert.ok(us < 2, `${us.toFixed(3)} µs per line`);
});
