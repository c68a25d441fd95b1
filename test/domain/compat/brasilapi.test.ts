// BrasilAPI's shape: Minha Receita's object re-serialized compact, its errors in BrasilAPI's
// envelope (tests/cnpj-v1.test.js of BrasilAPI/BrasilAPI @ 0104c49c checks the first two bodies
// below), its headers (middlewares/cache.js, Next.js res.json).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { brasilApi } from '../../../src/domain/compat/brasilapi.ts';
import { BrasilApiErrorSchema } from '../../../src/domain/compat/brasilapi-schema.ts';
import { minhaReceita } from '../../../src/domain/compat/minha-receita.ts';

test("BrasilAPI's own e2e bodies: 404 for fourteen zeros, 400 for 123", () => {
  const zeros = brasilApi.parse('00000000000000');
  assert.deepEqual(zeros, { cnpj: '00000000000000' });
  assert.deepEqual(brasilApi.notFound('00000000000000'), {
    status: 404,
    body: '{"message":"CNPJ 00.000.000/0000-00 não encontrado.","type":"not_found","name":"NotFoundError"}',
  });
  assert.deepEqual(brasilApi.parse('123'), {
    invalid: { status: 400, body: '{"message":"CNPJ 123 inválido.","type":"bad_request","name":"BadRequestError"}' },
  });
});

test('parse follows Minha Receita (BrasilAPI passes the path on)', () => {
  for (const raw of ['33.683.111/0002-80', '33683111000280x', '19131243000198', 'a"b'])
    assert.deepEqual('cnpj' in brasilApi.parse(raw), 'cnpj' in minhaReceita.parse(raw), raw);
  const bad = brasilApi.parse('a"b');
  assert.ok('invalid' in bad);
  assert.deepEqual(JSON.parse(bad.invalid.body), {
    message: 'CNPJ a"b inválido.',
    type: 'bad_request',
    name: 'BadRequestError',
  });
});

test("refused: this project's code as type, an Error name in BrasilAPI's style per status", () => {
  const names: [number, string][] = [
    [401, 'UnauthorizedError'],
    [403, 'ForbiddenError'],
    [404, 'NotFoundError'],
    [405, 'MethodNotAllowedError'],
    [429, 'TooManyRequestsError'],
    [503, 'ServiceUnavailableError'],
    [500, 'InternalError'],
  ];
  for (const [status, name] of names) {
    const a = brasilApi.refused(status, 'quota_exceeded', 'Cota esgotada.');
    assert.equal(a.status, status);
    assert.equal(a.body, `{"message":"Cota esgotada.","type":"quota_exceeded","name":"${name}"}`);
    assert.ok(Value.Check(BrasilApiErrorSchema, JSON.parse(a.body)));
  }
});

test('headers: the upstream cache header on its own answers; no-store on our refusals', () => {
  const upstream = {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'private, max-age=0',
  };
  for (const s of [200, 400, 404]) assert.deepEqual(brasilApi.headers(s), upstream);
  for (const s of [401, 403, 429, 503])
    assert.deepEqual(brasilApi.headers(s), {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    });
});
