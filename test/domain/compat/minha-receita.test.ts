// Minha Receita's shape, piece by piece: how it reads the path (go-cnpj v0.1.2) and its error
// bodies (api/api.go), the headers, the float32 capital, the jsonb text, and the field rules on
// hand-made rows (the golden test covers the fixture months).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { capitalFloat32, float32OfCents, plainDecimal, shortestFloat32 } from '../../../src/domain/compat/float32.ts';
import { jsonbText, jsonbWriter } from '../../../src/domain/compat/jsonb-text.ts';
import { minhaReceita, minhaReceitaCompany } from '../../../src/domain/compat/minha-receita.ts';
import type { CompatContext, CompatRows } from '../../../src/domain/compat/rows.ts';
import type { RegistryInfo } from '../../../src/domain/registry/reader.ts';

describe('parse: go-cnpj IsValid and Mask', () => {
  const ok: [string, string][] = [
    ['33683111000280', '33683111000280'],
    ['33.683.111/0002-80', '33683111000280'],
    // Unmask drops every character outside [0-9A-Z]: lower-case letters and spaces too.
    ['33683111000280abc', '33683111000280'],
    [' 33 683 111 0002 80 ', '33683111000280'],
    // Fourteen zeros pass the mod-11 check: a 404, not a 400.
    ['00000000000000', '00000000000000'],
    // Letters in the body count ASCII − 48 (an alphanumeric CNPJ).
    ['12ABC34501DE35', '12ABC34501DE35'],
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
  ];
  for (const [raw, cnpj] of ok)
    test(`accepts ${JSON.stringify(raw)}`, () => assert.deepEqual(minhaReceita.parse(raw), { cnpj }));

  const refused: [string, string][] = [
    ['123', '{"message":"CNPJ 123 inválido."}'],
    ['foobar', '{"message":"CNPJ foobar inválido."}'],
    // 14 characters once unmasked: the message shows them masked.
    ['19131243000198', '{"message":"CNPJ 19.131.243/0001-98 inválido."}'],
    ['19.131.243/0001-98', '{"message":"CNPJ 19.131.243/0001-98 inválido."}'],
    // Lower-case letters are dropped, not upper-cased: 11 characters left, shown as typed.
    ['12abc34501de35', '{"message":"CNPJ 12abc34501de35 inválido."}'],
    // The upstream writes the path into its JSON unescaped; we escape it.
    ['a"b\\c', '{"message":"CNPJ a\\"b\\\\c inválido."}'],
    ['', '{"message":"CNPJ  inválido."}'],
  ];
  for (const [raw, body] of refused)
    test(`refuses ${JSON.stringify(raw)}`, () => {
      assert.deepEqual(minhaReceita.parse(raw), { invalid: { status: 400, body } });
      JSON.parse(body);
    });
});

test('notFound and refused bodies', () => {
  assert.deepEqual(minhaReceita.notFound('00000000000000'), {
    status: 404,
    body: '{"message":"CNPJ 00.000.000/0000-00 não encontrado."}',
  });
  assert.deepEqual(minhaReceita.notFound('12ABC34501DE35'), {
    status: 404,
    body: '{"message":"CNPJ 12.ABC.345/01DE-35 não encontrado."}',
  });
  assert.deepEqual(minhaReceita.refused(429, 'quota_exceeded', 'Cota "mensal" esgotada.'), {
    status: 429,
    body: '{"message":"Cota \\"mensal\\" esgotada."}',
  });
});

test('headers per status (api/api.go companyHandler, messageResponse)', () => {
  const json = { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=86400' };
  for (const s of [200, 400, 404]) assert.deepEqual(minhaReceita.headers(s), json);
  assert.deepEqual(minhaReceita.headers(405), {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'max-age=86400',
  });
  for (const s of [401, 403, 429, 503])
    assert.deepEqual(minhaReceita.headers(s), { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
});

describe('capital_social: float32 of the exact decimal, shortest digits, plain notation', () => {
  // Expected values: the float32 nearest to the exact decimal (Python's fractions, ties to even)
  // printed by numpy's Dragon4 shortest digits (format_float_positional(unique=True)), which is
  // what Go's ParseFloat(s, 32) and FormatFloat(f, 'f', -1, 32) give; the first four are the
  // issue's, 1061004829.23 is SERPRO's (docs/como-usar.md shows 1061004800).
  const table: [number | string, string][] = [
    [106100482923, '1061004800'],
    [0, '0'],
    [2950000, '29500'],
    [99999999999900, '1000000000000'],
    [1, '0.01'],
    [10, '0.1'],
    [2725, '27.25'],
    [223095914, '2230959.2'],
    [79700179518, '797001800'],
    [1353159423999, '13531594000'],
    [92944587161602, '929445900000'],
    [2128112988979202, '21281130000000'],
    [5750751703859202, '57507520000000'],
    // Two 8-digit decimals equally near the float32 168865.625: the even last digit.
    [16886562, '168865.62'],
    [24490063, '244900.62'],
    // Cents past 2^53, stored as TEXT: BigInt all the way.
    ['9999999999999999999', '100000000000000000'],
    ['123456789012345678901234', '1234567800000000000000'],
    ['100000000000000000000000', '1000000000000000000000'],
  ];
  for (const [cents, text] of table)
    test(`${cents} cents → ${text}`, () => {
      assert.equal(shortestFloat32(float32OfCents(cents)), text);
      assert.equal(capitalFloat32(cents), Number(text));
      assert.equal(jsonbText(capitalFloat32(cents)), text);
    });

  test('an exact tie between two float32s goes to the even one, a cent more goes up', () => {
    // 2^60 + 2^36 reais is halfway between 2^60 and 2^60 + 2^37 (float32 spacing 2^37 there).
    const mid = (2n ** 60n + 2n ** 36n) * 100n;
    assert.equal(float32OfCents(mid.toString()), 2 ** 60);
    assert.equal(float32OfCents((mid + 1n).toString()), 2 ** 60 + 2 ** 37);
    const odd = (2n ** 60n + 3n * 2n ** 36n) * 100n; // between 2^60 + 2^37 (odd) and 2^60 + 2^38 (even)
    assert.equal(float32OfCents(odd.toString()), 2 ** 60 + 2 ** 38);
  });

  test('past float32 range: null (Go ParseFloat fails and the upstream transform stops)', () => {
    assert.equal(capitalFloat32(`4${'0'.repeat(40)}`), null);
  });

  test('plainDecimal', () => {
    assert.equal(plainDecimal('1e+21'), '1000000000000000000000');
    assert.equal(plainDecimal('1.2345678e+21'), '1234567800000000000000');
    assert.equal(plainDecimal('1.5e-7'), '0.00000015');
    assert.equal(plainDecimal('27.25'), '27.25');
  });
});

test("jsonbText: PostgreSQL jsonb's spacing, escaping and numbers", () => {
  assert.equal(
    jsonbText({ a: 'x"y\\z\n\t\u0001é€', b: [1, null, true, false], c: {}, d: [], e: 1e21, f: -2.5 }),
    '{"a": "x\\"y\\\\z\\n\\t\\u0001é€", "b": [1, null, true, false], "c": {}, "d": [], "e": 1000000000000000000000, "f": -2.5}',
  );
});

test("jsonbWriter: the compiled writer gives jsonbText's text, nested lists of objects included", () => {
  const item = jsonbWriter<{ k: string; n: number | null }>(['k', 'n']);
  const write = jsonbWriter<object>(['a', 'b', 'list', 'none', 'e'], { list: item, none: item });
  const o = {
    a: 'x"y\n',
    b: [1, null, true],
    list: [
      { k: 'é', n: null },
      { k: '', n: 2.5 },
    ],
    none: [],
    e: 1e21,
  };
  assert.equal(write(o), jsonbText(o));
  const compact = jsonbWriter<object>(
    ['a', 'b', 'list', 'none', 'e'],
    { list: jsonbWriter(['k', 'n'], {}, 'compact') },
    'compact',
  );
  assert.equal(compact(o), JSON.stringify(o));
  assert.throws(() => jsonbWriter(['a-b']), /unexpected key/);
});

// --- field rules on hand-made rows ---------------------------------------------------------
const tables = {
  cnaes: new Map([
    [6204000, 'Consultoria em tecnologia da informação'],
    [6201501, 'Desenvolvimento de programas de computador sob encomenda'],
  ]),
  motivos: new Map([[0, 'SEM MOTIVO']]),
  municipios: new Map([
    [9701, 'BRASILIA'],
    [9999, 'SEM IBGE'],
  ]),
  naturezas: new Map([[2062, 'Sociedade Empresária Limitada']]),
  paises: new Map([[105, 'BRASIL']]),
  qualificacoes: new Map([
    [0, 'Não informada'],
    [49, 'Sócio-Administrador'],
  ]),
};
const ctx: CompatContext = {
  codeTables: tables,
  info: {} as RegistryInfo,
  ibge: (siafi) => (siafi === 9701 ? 5300108 : null),
};
type Est = CompatRows['establishment'];
const establishment: Est = {
  cnpj: '33683111000280',
  matriz_filial: 2,
  nome_fantasia: null,
  situacao_cadastral: 2,
  data_situacao_cadastral: 20040522,
  motivo_situacao_cadastral: 0,
  nome_cidade_exterior: null,
  pais: null,
  data_inicio_atividade: 19670630,
  cnae_fiscal: 6204000,
  cnaes_secundarios: null,
  tipo_logradouro: 'AVENIDA',
  logradouro: 'L2 SGAN',
  numero: '601',
  complemento: null,
  bairro: 'ASA NORTE',
  cep: 1001000,
  uf: 'DF',
  municipio: 9701,
  ddd_1: 61,
  telefone_1: '0800123',
  ddd_2: null,
  telefone_2: null,
  ddd_fax: null,
  fax: null,
  email: null,
  situacao_especial: null,
  data_situacao_especial: null,
};
const rows = (e: Partial<Est>, more: Partial<Omit<CompatRows, 'establishment'>> = {}): CompatRows => ({
  establishment: { ...establishment, ...e },
  company: null,
  simples: null,
  partners: [],
  regimes: [],
  ...more,
});
type Partner = CompatRows['partners'][number];
const partner = (p: Partial<Partner>): Partner => ({
  identificador: 2,
  nome: 'A',
  cnpj_cpf: '***000000**',
  qualificacao: 49,
  data_entrada: 20200101,
  pais: null,
  representante_cpf: '***000000**',
  representante_nome: null,
  representante_qualificacao: 0,
  faixa_etaria: 5,
  ...p,
});

describe('field rules', () => {
  test('no company, no Simples, no lists: the upstream zero values', () => {
    const c = minhaReceitaCompany(rows({}), ctx);
    assert.equal(c.razao_social, '');
    assert.equal(c.capital_social, null);
    assert.equal(c.porte, null);
    assert.equal(c.opcao_pelo_simples, null);
    assert.equal(c.data_opcao_pelo_simples, null);
    assert.deepEqual(c.qsa, []);
    assert.deepEqual(c.regime_tributario, []);
    assert.deepEqual(c.cnaes_secundarios, [{ codigo: 0, descricao: '' }]);
    assert.equal(c.email, '');
    assert.equal(c.cep, '01001000');
    assert.equal(c.ddd_telefone_1, '610800123');
    assert.equal(c.ddd_telefone_2, '');
    assert.equal(c.codigo_municipio_ibge, 5300108);
  });

  test('cnae_fiscal 0 when empty, its description null; unknown secondary CNAEs get ""', () => {
    const c = minhaReceitaCompany(rows({ cnae_fiscal: null, cnaes_secundarios: '6201501,1111111' }), ctx);
    assert.equal(c.cnae_fiscal, 0);
    assert.equal(c.cnae_fiscal_descricao, null);
    assert.deepEqual(c.cnaes_secundarios, [
      { codigo: 6201501, descricao: 'Desenvolvimento de programas de computador sob encomenda' },
      { codigo: 1111111, descricao: '' },
    ]);
  });

  test('abroad: no município, no IBGE code; countries: the table, the 16 added by hand, null when unknown', () => {
    const ex = minhaReceitaCompany(rows({ uf: 'EX', municipio: 9707, pais: 367 }), ctx);
    assert.deepEqual([ex.codigo_municipio, ex.municipio, ex.codigo_municipio_ibge], [null, null, null]);
    assert.deepEqual([ex.codigo_pais, ex.pais], [367, 'Inglaterra']);
    const unknown = minhaReceitaCompany(rows({ pais: 999 }), ctx);
    assert.deepEqual([unknown.codigo_pais, unknown.pais], [null, null]);
    // A município missing from the month's table: the code stays, no name, no IBGE code.
    const missing = minhaReceitaCompany(rows({ municipio: 1234 }), ctx);
    assert.deepEqual([missing.codigo_municipio, missing.municipio, missing.codigo_municipio_ibge], [1234, null, null]);
    const noIbge = minhaReceitaCompany(rows({ municipio: 9999 }), ctx);
    assert.deepEqual([noIbge.municipio, noIbge.codigo_municipio_ibge], ['SEM IBGE', null]);
  });

  test('qsa: bytewise order of the joined raw row (PJ before PF), identical rows once', () => {
    const c = minhaReceitaCompany(
      rows(
        {},
        {
          partners: [
            partner({ nome: 'ZULU' }),
            partner({ nome: 'ALFA', data_entrada: 20210101 }),
            partner({ identificador: 1, nome: 'ZETA PARTICIPACOES LTDA', cnpj_cpf: '12345678000195', faixa_etaria: 0 }),
            partner({ nome: 'ALFA' }),
            partner({ nome: 'ZULU' }),
            partner({ identificador: 3, nome: 'JOHN', cnpj_cpf: null, pais: 367, qualificacao: 37, faixa_etaria: 0 }),
          ],
        },
      ),
      ctx,
    );
    assert.deepEqual(
      c.qsa.map((p) => [p.identificador_de_socio, p.nome_socio, p.data_entrada_sociedade]),
      [
        [1, 'ZETA PARTICIPACOES LTDA', '2020-01-01'],
        [2, 'ALFA', '2020-01-01'],
        [2, 'ALFA', '2021-01-01'],
        [2, 'ZULU', '2020-01-01'],
        [3, 'JOHN', '2020-01-01'],
      ],
    );
    const john = c.qsa[4]!;
    assert.deepEqual([john.codigo_pais, john.pais, john.qualificacao_socio], [367, 'Inglaterra', null]);
    assert.deepEqual([c.qsa[1]!.faixa_etaria, c.qsa[0]!.faixa_etaria], ['Entre 41 a 50 anos', 'Não se aplica']);
    assert.equal(c.qsa[1]!.qualificacao_representante_legal, 'Não informada');
  });

  test("qsa: a row whose joined text is a prefix of another's sorts after it (MD5('')'s first byte, 0xD4, against ASCII)", () => {
    // The same partner with and without an age band: "…00" + "" vs "…00" + "5".
    const c = minhaReceitaCompany(
      rows({}, { partners: [partner({ faixa_etaria: null }), partner({ faixa_etaria: 5 })] }),
      ctx,
    );
    assert.deepEqual(
      c.qsa.map((p) => p.codigo_faixa_etaria),
      [5, null],
    );
  });

  test("regime_tributario: this CNPJ's rows only, by year, identical rows once, the SCP masked", () => {
    const r = (ano: number, cnpj = '33683111000280', cnpj_scp: string | null = null, forma = 'LUCRO PRESUMIDO') => ({
      cnpj,
      ano,
      cnpj_scp,
      forma,
      escrituracoes: 1,
    });
    const c = minhaReceitaCompany(
      rows(
        {},
        {
          regimes: [
            r(2023),
            r(2021),
            r(2022, '33683111000199'),
            r(2021),
            r(2022, '33683111000280', '53326776000162'),
            r(2022, '33683111000280', null, 'LUCRO REAL'),
          ],
        },
      ),
      ctx,
    );
    assert.deepEqual(
      c.regime_tributario.map((x) => [x.ano, x.cnpj_da_scp, x.forma_de_tributacao]),
      [
        [2021, null, 'LUCRO PRESUMIDO'],
        [2022, null, 'LUCRO REAL'],
        [2022, '53.326.776/0001-62', 'LUCRO PRESUMIDO'],
        [2023, null, 'LUCRO PRESUMIDO'],
      ],
    );
  });

  test('Simples: flags in any case, dates; porte and situação from the fixed maps', () => {
    const c = minhaReceitaCompany(
      rows(
        { situacao_cadastral: 5, matriz_filial: 1 },
        {
          simples: {
            opcao_simples: 's',
            data_opcao_simples: 20140101,
            data_exclusao_simples: null,
            opcao_mei: 'N',
            data_opcao_mei: null,
            data_exclusao_mei: null,
          },
          company: {
            razao_social: 'X',
            natureza_juridica: 2062,
            qualificacao_responsavel: 49,
            capital_social_cents: 106100482923,
            porte: 2,
            ente_federativo: null,
          },
        },
      ),
      ctx,
    );
    assert.deepEqual([c.opcao_pelo_simples, c.opcao_pelo_mei, c.data_opcao_pelo_simples], [true, false, '2014-01-01']);
    assert.deepEqual([c.codigo_porte, c.porte], [2, null]);
    assert.deepEqual([c.situacao_cadastral, c.descricao_situacao_cadastral], [5, null]);
    assert.equal(c.descricao_identificador_matriz_filial, 'MATRIZ');
    assert.equal(c.capital_social, 1061004800);
    assert.equal(c.natureza_juridica, 'Sociedade Empresária Limitada');
  });
});
