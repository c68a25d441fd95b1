// The API's error table: the rules it holds beyond the rows (the contract's rows themselves:
// test/server/api/errors.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERRORS, retryAfter, type ErrorDef } from '../../src/domain/api-errors.ts';

test('Retry-After: fixed for server_busy, not_ready and database_unavailable, until the quota resets for quota_exceeded (at least 1 s), none otherwise', () => {
  const at = new Date('2026-04-30T23:59:00-03:00');
  const reset = Date.parse('2026-05-01T00:00:00-03:00') / 1000;
  assert.equal(retryAfter('server_busy', at), 1);
  assert.equal(retryAfter('not_ready', at), 5);
  assert.equal(retryAfter('database_unavailable', at), 2);
  assert.equal(retryAfter('quota_exceeded', at, reset), 60);
  assert.equal(retryAfter('quota_exceeded', new Date(reset * 1000 - 1), reset), 1, 'a part of a second rounds up');
  assert.equal(retryAfter('quota_exceeded', new Date(reset * 1000 + 5000), reset), 1, 'never 0 or negative');
  for (const key of Object.keys(ERRORS) as (keyof typeof ERRORS)[]) {
    if (key !== 'server_busy' && key !== 'quota_exceeded' && key !== 'not_ready' && key !== 'database_unavailable')
      assert.equal(retryAfter(key, at), undefined, key);
  }
});

test('the specific sentences: expiry date, plan, quota and renewal day written the Brazilian way', () => {
  assert.equal(
    ERRORS.token_expired.specific({ expiresOn: '2026-04-10' }),
    'Este token da API expirou em 10/04/2026. Crie um novo em "Gerenciar Tokens da API".',
  );
  assert.equal(ERRORS.plan_without_api.specific({ plan: 'Bronze' }), 'O plano Bronze não inclui acesso à API de CNPJ.');
  assert.equal(
    ERRORS.quota_exceeded.specific({ limit: 50000, renewsOn: '2026-05-01' }),
    'A cota mensal de 50.000 consultas da API foi atingida; ela será renovada em 01/05/2026.',
  );
  assert.equal(
    ERRORS.watchlist_limit_exceeded.specific({ plan: 'Bronze', limit: 1000, needed: 12, remaining: 1 }),
    'Estes 12 CNPJs novos não cabem na lista de monitoramento: o plano Bronze permite 1.000 CNPJs e resta 1 vaga. Nada foi adicionado.',
  );
  // Only the access checks' denials and the watchlist's limit have one.
  const withSpecific = Object.entries(ERRORS)
    .filter(([, d]) => (d as ErrorDef).specific)
    .map(([k]) => k);
  assert.deepEqual(withSpecific, ['token_expired', 'plan_without_api', 'quota_exceeded', 'watchlist_limit_exceeded']);
});
