// Query parameters through a TypeBox schema (src/server/http/query-params.ts): typed values and
// defaults; unknown, repeated and bad parameters refused with a sentence naming them.
import assert from 'node:assert/strict';
import { parse } from 'node:querystring';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { queryReader } from '../../../src/server/http/query-params.ts';

const schema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  capital_min: Type.Optional(Type.Number({ minimum: 0 })),
  has_email: Type.Optional(Type.Boolean()),
  matriz_filial: Type.Optional(Type.Union([Type.Literal('matriz'), Type.Literal('filial')])),
  uf: Type.Optional(
    Type.Array(Type.String({ pattern: '^[A-Z]{2}$', 'x-allowed': 'uma sigla de UF (SP)' }), { maxItems: 3 }),
  ),
  desde: Type.Optional(Type.String({ format: 'date' })),
  q: Type.String({ minLength: 2, 'x-allowed': 'um texto de 2 caracteres ou mais' }),
});
const read = queryReader(schema);
const r = (qs: string) => read(parse(qs));

test('values are typed; defaults fill absent and empty parameters; api_token is always accepted', () => {
  assert.deepEqual(r('q=ab'), { ok: true, value: { q: 'ab', limit: 20 } });
  assert.deepEqual(r('q=ab&limit=&cursor=&api_token=x'), { ok: true, value: { q: 'ab', limit: 20 } });
  assert.deepEqual(
    r(
      'q=sao%20joao&limit=100&cursor=abc&capital_min=1500.5&has_email=false&matriz_filial=filial&uf=SP,%20RJ&desde=2024-02-29',
    ),
    {
      ok: true,
      value: {
        q: 'sao joao',
        limit: 100,
        cursor: 'abc',
        capital_min: 1500.5,
        has_email: false,
        matriz_filial: 'filial',
        uf: ['SP', 'RJ'],
        desde: '2024-02-29',
      },
    },
  );
});

test('each refusal names the parameter and what it takes', () => {
  const cases: [string, string, RegExp][] = [
    [
      'q=ab&limite=5',
      'limite',
      /^O parâmetro limite não existe nesta rota; os aceitos são: limit, cursor, capital_min, has_email, matriz_filial, uf, desde, q\.$/,
    ],
    ['q=ab&limit=1&limit=2', 'limit', /limit foi informado mais de uma vez/],
    ['q=ab&limit=0', 'limit', /^O parâmetro limit deve ser um número inteiro de 1 a 100\.$/],
    ['q=ab&limit=101', 'limit', /de 1 a 100/],
    ['q=ab&limit=2.5', 'limit', /inteiro/],
    ['q=ab&limit=1e2', 'limit', /inteiro/],
    ['q=ab&limit=%2010', 'limit', /inteiro/],
    [
      'q=ab&capital_min=-1',
      'capital_min',
      /^O parâmetro capital_min deve ser um número, com ponto como separador decimal \(ex\.: 1500\.50\) maior ou igual a 0\.$/,
    ],
    ['q=ab&capital_min=1,5', 'capital_min', /número/],
    ['q=ab&has_email=1', 'has_email', /^O parâmetro has_email deve ser true ou false\.$/],
    [
      'q=ab&matriz_filial=MATRIZ',
      'matriz_filial',
      /^O parâmetro matriz_filial deve ser um destes valores: matriz, filial\.$/,
    ],
    [
      'q=ab&uf=SP,,RJ',
      'uf',
      /^O parâmetro uf deve ser uma lista separada por vírgulas \(até 3 itens\), cada item uma sigla de UF \(SP\)\.$/,
    ],
    ['q=ab&uf=SP,RJ,MG,BA', 'uf', /até 3 itens/],
    ['q=ab&desde=2023-02-29', 'desde', /^O parâmetro desde deve ser uma data no formato AAAA-MM-DD\.$/],
    ['q=a', 'q', /^O parâmetro q deve ser um texto de 2 caracteres ou mais\.$/],
    ['limit=5', 'q', /^Informe o parâmetro q: um texto de 2 caracteres ou mais\.$/],
    [`q=ab&cursor=${'x'.repeat(201)}`, 'cursor', /até 200 caracteres/],
  ];
  for (const [qs, parameter, message] of cases) {
    const out = r(qs);
    assert.equal(out.ok, false, qs);
    if (out.ok) continue;
    assert.equal(out.parameter, parameter, qs);
    assert.match(out.message, message, qs);
  }
});

test('an unknown name is shown without control characters and cut short', () => {
  const out = r(`q=ab&${encodeURIComponent('a\nb' + 'c'.repeat(100))}=1`);
  assert.equal(out.ok, false);
  if (!out.ok) assert.match(out.message, /^O parâmetro a\?bc{37} não existe/);
});

test('a schema the reader cannot explain is refused when the route is built, not per request', () => {
  assert.throws(() => queryReader(Type.Object({ x: Type.String({ pattern: '^a$' }) })), /x-allowed/);
  assert.throws(() => queryReader(Type.Object({ x: Type.Object({}) })), /unsupported/);
});
