// The ReceitaWS shape's parts a client sees without a lookup: how the path's CNPJ is refused, the
// not-found and refusal bodies, the headers, the JSONP wrapper, and the formatters whose rules come
// from the captured answers (docs/compat.md §5). Whole bodies: receitaws-golden.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { Value } from '@sinclair/typebox/value';
import { JSONP_HEADERS, JSONP_NAME_MAX, jsonpBody, jsonpCallback } from '../../../src/domain/compat/jsonp.ts';
import { ReceitawsErrorSchema } from '../../../src/domain/compat/receitaws-schema.ts';
import {
  brDate,
  cepMasked,
  cnaeCode,
  motivoText,
  naturezaText,
  phoneText,
  qualText,
  receitaWsShape,
  stamps,
  telefone,
  titleCase,
} from '../../../src/domain/compat/receitaws.ts';
import type { CompatRows } from '../../../src/domain/compat/rows.ts';
import type { RegistryInfo } from '../../../src/domain/registry/reader.ts';

const INVALID = '{"status":"ERROR","message":"CNPJ inválido"}';

test('parse: a valid CNPJ, bare, masked or lower case, gives its 14 characters', () => {
  for (const [raw, cnpj] of [
    ['33683111000280', '33683111000280'],
    ['33.683.111/0002-80', '33683111000280'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['12ABC34501DE35', '12ABC34501DE35'],
  ] as const) {
    assert.deepEqual(receitaWsShape.parse(raw), { cnpj }, raw);
  }
});

test('parse: anything else is HTTP 200 {"status":"ERROR","message":"CNPJ inválido"} (gem README)', () => {
  for (const raw of [
    '',
    '123',
    '3368311100028',
    '336831110002800',
    '33683111000281', // wrong check digit
    '00000000000000', // passes mod 11, never issued
    '12ABC34501DE3A', // letters in the check digits
    '33683111|000280',
    '<script>',
    'x'.repeat(40),
  ]) {
    const p = receitaWsShape.parse(raw);
    assert.ok('invalid' in p, raw);
    assert.equal(p.invalid.status, 200);
    assert.equal(p.invalid.body, INVALID);
  }
});

test('notFound and refused: status "ERROR" bodies; our refusals keep our HTTP status', () => {
  assert.deepEqual(receitaWsShape.notFound('33683111000280'), {
    status: 200,
    body: '{"status":"ERROR","message":"CNPJ rejeitado pela Receita Federal"}',
  });
  for (const [status, code, message] of [
    [401, 'token_missing', 'Informe o token de acesso.'],
    [429, 'quota_exceeded', 'Cota mensal esgotada.'],
    [503, 'registry_unavailable', 'Base indisponível; tente de novo em instantes.'],
  ] as const) {
    const a = receitaWsShape.refused(status, code, message);
    assert.equal(a.status, status);
    assert.equal(a.body, JSON.stringify({ status: 'ERROR', message }));
    assert.ok(Value.Check(ReceitawsErrorSchema, JSON.parse(a.body)));
  }
  assert.ok(Value.Check(ReceitawsErrorSchema, JSON.parse(INVALID)));
});

test('headers: JSON in UTF-8 on every answer', () => {
  for (const s of [200, 401, 429, 503]) {
    assert.deepEqual(receitaWsShape.headers(s), { 'Content-Type': 'application/json; charset=utf-8' });
  }
});

test('dates: dd/mm/aaaa; "" for none and for impossible dates', () => {
  for (const [v, out] of [
    [20130617, '17/06/2013'],
    [19670630, '30/06/1967'],
    ['20240229', '29/02/2024'],
    [null, ''],
    [0, ''],
    [20230231, ''],
    [2021221, ''],
  ] as const) {
    assert.equal(brDate(v), out, String(v));
  }
});

test('CEP NN.NNN-NNN (gem README); a 7-digit integer gets its leading zero; other text as stored', () => {
  for (const [v, out] of [
    [70836900, '70.836-900'],
    [1304001, '01.304-001'],
    ['01304001', '01.304-001'],
    [null, ''],
    ['SW1A 1AA', 'SW1A 1AA'],
  ] as const) {
    assert.equal(cepMasked(v), out, String(v));
  }
});

test('CNAE code NN.NN-N-NN (captures)', () => {
  assert.equal(cnaeCode('6204000'), '62.04-0-00');
  assert.equal(cnaeCode('0111301'), '01.11-3-01');
  assert.equal(cnaeCode('123'), '123');
});

test('phones: "(DD) NNNN-NNNN", joined " / " with the fax, absent ones skipped', () => {
  for (const [ddd, n, out] of [
    [61, 20218000, '(61) 2021-8000'],
    ['13', '97987487', '(13) 9798-7487'],
    [11, 987654321, '(11) 98765-4321'],
    [null, 33334444, '3333-4444'],
    [61, null, ''],
    [61, 1234, '(61) 1234'],
  ] as const) {
    assert.equal(phoneText(ddd, n), out, `${ddd} ${n}`);
  }
  const e = (p: Partial<CompatRows['establishment']>) =>
    ({
      ddd_1: null,
      telefone_1: null,
      ddd_2: null,
      telefone_2: null,
      ddd_fax: null,
      fax: null,
      ...p,
    }) as CompatRows['establishment'];
  assert.equal(telefone(e({})), '');
  assert.equal(telefone(e({ ddd_2: 21, telefone_2: 81858335 })), '(21) 8185-8335');
  assert.equal(
    telefone(e({ ddd_1: 21, telefone_1: 33955238, ddd_2: 21, telefone_2: 81858335, ddd_fax: 21, fax: 78298233 })),
    '(21) 3395-5238 / (21) 8185-8335 / (21) 7829-8233',
  );
  assert.equal(
    telefone(e({ ddd_1: 21, telefone_1: 33955238, ddd_fax: 21, fax: 78298233 })),
    '(21) 3395-5238 / (21) 7829-8233',
  );
});

test('natureza jurídica "NNN-N - Descrição" and qualifications "NN-Descrição" (captures)', () => {
  const naturezas = new Map([
    [2062, 'Sociedade Empresária Limitada'],
    [2135, 'Empresário (Individual)'],
  ]);
  assert.equal(naturezaText(2062, naturezas), '206-2 - Sociedade Empresária Limitada');
  assert.equal(naturezaText(2135, naturezas), '213-5 - Empresário (Individual)');
  assert.equal(naturezaText(3999, naturezas), '399-9');
  assert.equal(naturezaText(null, naturezas), '');
  const quals = new Map([
    [49, 'Sócio-Administrador'],
    [5, 'Administrador'],
  ]);
  assert.equal(qualText(49, quals), '49-Sócio-Administrador');
  assert.equal(qualText(5, quals), '05-Administrador');
  assert.equal(qualText(36, quals), '36');
  assert.equal(qualText(null, quals), '');
});

test('motivo: "" for code 0 and none; otherwise the description title-cased', () => {
  const motivos = new Map([
    [0, 'SEM MOTIVO'],
    [1, 'EXTINCAO POR ENCERRAMENTO LIQUIDACAO VOLUNTARIA'],
    [63, 'OMISSAO DE DECLARACOES'],
  ]);
  assert.equal(motivoText(0, motivos), '');
  assert.equal(motivoText(null, motivos), '');
  assert.equal(motivoText(1, motivos), 'Extincao Por Encerramento Liquidacao Voluntaria');
  assert.equal(motivoText(63, motivos), 'Omissao De Declaracoes');
  assert.equal(motivoText(1, motivos), 'Extincao Por Encerramento Liquidacao Voluntaria', 'cached');
  assert.equal(motivoText(32, motivos), '32', 'unknown code as itself');
  assert.equal(titleCase('ÓBITO DO MEI - TITULAR  FALECIDO'), 'Óbito Do Mei - Titular  Falecido');
});

test('ultima_atualizacao: the import time; simples/simei: the extraction date at 23:59:59.000Z', () => {
  const info = (importedAt: string, extracted: string | null) => ({ importedAt, extracted }) as RegistryInfo;
  assert.deepEqual(stamps(info('2026-09-20T04:05:06.789Z', '2026-09-13')), {
    imported: '2026-09-20T04:05:06.789Z',
    data: '2026-09-13T23:59:59.000Z',
  });
  // No extraction date in the member names: the import's own (UTC) day.
  assert.deepEqual(stamps(info('2026-09-20T23:30:00Z', null)), {
    imported: '2026-09-20T23:30:00.000Z',
    data: '2026-09-20T23:59:59.000Z',
  });
});

test("jsonpCallback: Express's characters (letters, digits, _ $ . [ ]); absent or any other name → null (plain JSON)", () => {
  for (const name of [
    'callback',
    'handleResponse',
    'callback_cnpj',
    'jQuery36009871234567890123_1712345678901',
    'angular.callbacks._0',
    'window.cbs[0]',
    '$',
    '_',
    'a'.repeat(JSONP_NAME_MAX),
  ]) {
    assert.equal(jsonpCallback(name), name, name);
  }
  for (const hostile of [
    'alert(1)//',
    'foo;alert(1)',
    '</script><script>alert(1)</script>',
    'a b',
    'a\nb',
    'a\u2028b',
    'função',
    'x-y',
    "a'b",
    'a"b',
    'a=1',
    '/**/',
    'a'.repeat(JSONP_NAME_MAX + 1),
  ]) {
    assert.equal(jsonpCallback(hostile), null, hostile);
  }
  assert.equal(jsonpCallback(undefined), null);
  assert.equal(jsonpCallback(null), null);
  assert.equal(jsonpCallback(''), null);
  assert.equal(jsonpCallback(['first', 'second']), 'first');
  assert.equal(jsonpCallback(['alert()', 'ok']), null);
  assert.equal(jsonpCallback([]), null);
});

test("jsonpBody: Express's wrapper; U+2028/U+2029 escaped; runs as a script calling the function", () => {
  const json = '{"status":"OK","nome":"A\u2028B\u2029C"}';
  const body = jsonpBody('cb', json);
  assert.equal(body, `/**/ typeof cb === 'function' && cb({"status":"OK","nome":"A\\u2028B\\u2029C"});`);
  assert.equal(jsonpBody('x', '{}'), "/**/ typeof x === 'function' && x({});");

  // The script's objects belong to another realm: compare them as JSON.
  const seen: string[] = [];
  vm.runInNewContext(body, { cb: (v: unknown) => seen.push(JSON.stringify(v)) });
  assert.deepEqual(seen, [json]);
  // A page without the function: no error, nothing called.
  assert.equal(vm.runInNewContext(body, {}), false);
  const nested = { callbacks: [] as string[], push: (v: unknown) => nested.callbacks.push(JSON.stringify(v)) };
  vm.runInNewContext(jsonpBody('app.push', '{"a":1}'), { app: nested });
  assert.deepEqual(nested.callbacks, ['{"a":1}']);
  assert.deepEqual(JSONP_HEADERS, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
  });
});
