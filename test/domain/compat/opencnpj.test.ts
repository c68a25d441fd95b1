// OpenCNPJ's shape, rule by rule (docs/compat.md §4): how the path's CNPJ is read (Hitmasu/OpenCNPJ
// src/Worker/src/cnpj.ts), the error bodies and headers (http.ts, constants.ts), and the value
// rules of JsonProjection.cs / QsaProjection.cs on rows written to a real snapshot and read back
// through the registry, the way the compat route reads them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { ibgeOfSiafi } from '../../../src/domain/compat/ibge.ts';
import { opencnpj } from '../../../src/domain/compat/opencnpj.ts';
import type { OpenCnpjBody } from '../../../src/domain/compat/opencnpj-schema.ts';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import type { CompanyRow, EstablishmentRow, PartnerRow, SimplesRow } from '../../../src/storage/snapshots/tables.ts';
import { publish, tempDataDir, writeSnapshot, type SnapshotData } from '../../server/helpers.ts';
import { compatRowsOf } from '../../../src/domain/compat/rows.ts';

const INVALID = { status: 400, body: '{"error":"invalid cnpj"}' };

test('parse reads the path as the Worker does: trimmed, outer slashes dropped, one inner slash at most, upper case, . / - removed, no check digits', () => {
  const cases: [string, string | null][] = [
    ['33683111000280', '33683111000280'],
    ['33.683.111/0002-80', '33683111000280'],
    ['/33683111000280', '33683111000280'],
    ['//33.683.111/0002-80//', '33683111000280'],
    ['  33683111000280\t', '33683111000280'],
    // trim, then the outer slashes, then trim again (normalizeCnpj).
    [' / 33683111000280 / ', '33683111000280'],
    ['33683111/000280', '33683111000280'],
    ['12abc34501de35', '12ABC34501DE35'],
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
    // No check-digit test: looked up, then not found.
    ['33683111000281', '33683111000281'],
    ['00000000000000', '00000000000000'],
    ['33.683.111/0002/80', null],
    ['33683111000280/x', null],
    ['', null],
    ['/', null],
    ['///', null],
    ['3368311100028', null],
    ['336831110002800', null],
    ['12ABC34501DE3X', null],
    ['33 683 111 0002 80', null],
    ['33_683_111000280', null],
    ['33683111000280.json', null],
  ];
  for (const [raw, cnpj] of cases) {
    assert.deepEqual(opencnpj.parse(raw), cnpj === null ? { invalid: INVALID } : { cnpj }, JSON.stringify(raw));
  }
});

test('notFound and refused in the {"error": …} envelope', () => {
  assert.deepEqual(opencnpj.notFound('33683111000281'), { status: 404, body: '{"error":"not found"}' });
  // Upstream's envelope has one string: our error code goes there, no message key it never sends.
  assert.deepEqual(opencnpj.refused(401, 'missing_token', 'Token ausente.'), {
    status: 401,
    body: '{"error":"missing_token"}',
  });
  assert.deepEqual(opencnpj.refused(429, 'quota_exceeded', 'Cota excedida.'), {
    status: 429,
    body: '{"error":"quota_exceeded"}',
  });
  assert.deepEqual(opencnpj.refused(503, 'registry_unavailable', 'Indisponível.'), {
    status: 503,
    body: '{"error":"registry_unavailable"}',
  });
  // 405 is upstream's own answer (index.ts: jsonError(405, "method not allowed")).
  assert.deepEqual(opencnpj.refused(405, 'method_not_allowed', 'Método não permitido.'), {
    status: 405,
    body: '{"error":"method not allowed"}',
  });
});

test('headers: JSON in UTF-8; a day of private caching on 200 (never a shared cache), no-store on errors', () => {
  assert.deepEqual(opencnpj.headers(200), {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'private, max-age=86400',
  });
  for (const status of [400, 401, 404, 405, 429, 503]) {
    assert.deepEqual(opencnpj.headers(status), {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
    });
  }
});

// Rows for the value rules, one establishment per case, written to a snapshot.
const blank: EstablishmentRow = {
  cnpj: null,
  matriz_filial: null,
  nome_fantasia: null,
  situacao_cadastral: null,
  data_situacao_cadastral: null,
  motivo_situacao_cadastral: null,
  nome_cidade_exterior: null,
  pais: null,
  data_inicio_atividade: null,
  cnae_fiscal: null,
  cnaes_secundarios: null,
  tipo_logradouro: null,
  logradouro: null,
  numero: null,
  complemento: null,
  bairro: null,
  cep: null,
  uf: null,
  municipio: null,
  ddd_1: null,
  telefone_1: null,
  ddd_2: null,
  telefone_2: null,
  ddd_fax: null,
  fax: null,
  email: null,
  situacao_especial: null,
  data_situacao_especial: null,
};
const company = (basico: string, over: Partial<CompanyRow> = {}): CompanyRow => ({
  basico,
  razao_social: 'EMPRESA TESTE LTDA',
  natureza_juridica: 2062,
  qualificacao_responsavel: 49,
  capital_social_cents: 0,
  porte: 1,
  ente_federativo: null,
  ...over,
});
const partner = (basico: string, over: Partial<PartnerRow>): PartnerRow => ({
  basico,
  identificador: 2,
  nome: 'FULANO DE TAL',
  cnpj_cpf: '***123456**',
  qualificacao: 49,
  data_entrada: 20200101,
  pais: null,
  representante_cpf: '***000000**',
  representante_nome: null,
  representante_qualificacao: 0,
  faixa_etaria: 4,
  ...over,
});

interface Case {
  name: string;
  establishment?: Partial<EstablishmentRow>;
  company?: Partial<CompanyRow> | null;
  simples?: Omit<SimplesRow, 'basico'>;
  partners?: Partial<PartnerRow>[];
  expect: Partial<OpenCnpjBody>;
}

const CASES: Case[] = [
  {
    name: 'no company, Simples or partner rows: their fields "" and QSA []; situacao and matriz null when empty',
    company: null,
    expect: {
      razao_social: '',
      situacao_cadastral: null,
      matriz_filial: null,
      natureza_juridica: '',
      capital_social: '',
      porte_empresa: '',
      opcao_simples: '',
      data_opcao_simples: '',
      opcao_mei: '',
      data_opcao_mei: '',
      telefones: [],
      cnaes_secundarios: [],
      QSA: [],
      data_situacao_cadastral: '',
      data_inicio_atividade: '',
      cnae_principal: '',
      cep: '',
      municipio: '',
      email: '',
    },
  },
  {
    name: 'fixed domains in OpenCNPJ’s wording',
    establishment: { situacao_cadastral: 8, matriz_filial: 2 },
    company: { porte: 3 },
    expect: { situacao_cadastral: 'Baixada', matriz_filial: 'Filial', porte_empresa: 'Empresa de Pequeno Porte (EPP)' },
  },
  {
    name: 'unknown codes: padded as published; text codes as given',
    establishment: { situacao_cadastral: 5, matriz_filial: 3 },
    company: { porte: 2 },
    expect: { situacao_cadastral: '05', matriz_filial: '3', porte_empresa: '02' },
  },
  {
    name: 'a code the importer kept as text',
    establishment: { situacao_cadastral: 'X', matriz_filial: 'M' },
    company: { porte: 'ZZ', natureza_juridica: 'ABCD' },
    expect: { situacao_cadastral: 'X', matriz_filial: 'M', porte_empresa: 'ZZ', natureza_juridica: '' },
  },
  {
    name: 'situação 01 Nula, porte 00 Não informado',
    establishment: { situacao_cadastral: 1 },
    company: { porte: 0 },
    expect: { situacao_cadastral: 'Nula', porte_empresa: 'Não informado' },
  },
  {
    name: 'capital social: exact cents with a decimal comma',
    company: { capital_social_cents: 106100482923 },
    expect: { capital_social: '1061004829,23' },
  },
  { name: 'capital zero', company: { capital_social_cents: 0 }, expect: { capital_social: '0,00' } },
  { name: 'capital of five cents', company: { capital_social_cents: 5 }, expect: { capital_social: '0,05' } },
  {
    name: 'capital past 2^53 cents, stored as the text of its digits',
    company: { capital_social_cents: '9999999999999999999' },
    expect: { capital_social: '99999999999999999,99' },
  },
  {
    name: 'capital the importer could not read (NULL): ""',
    company: { capital_social_cents: null },
    expect: { capital_social: '' },
  },
  {
    name: 'Simples row with dates the dump writes as 00000000: 0000-00-00',
    simples: {
      opcao_simples: 'S',
      data_opcao_simples: 20140101,
      data_exclusao_simples: null,
      opcao_mei: 'N',
      data_opcao_mei: null,
      data_exclusao_mei: null,
    },
    expect: { opcao_simples: 'S', data_opcao_simples: '2014-01-01', opcao_mei: 'N', data_opcao_mei: '0000-00-00' },
  },
  {
    name: 'Simples row without a flag: ""',
    simples: {
      opcao_simples: null,
      data_opcao_simples: null,
      data_exclusao_simples: null,
      opcao_mei: null,
      data_opcao_mei: null,
      data_exclusao_mei: null,
    },
    expect: { opcao_simples: '', data_opcao_simples: '0000-00-00', opcao_mei: '', data_opcao_mei: '0000-00-00' },
  },
  {
    name: 'telefones: an item when either half is present, the fax last; leading zeros kept',
    establishment: { ddd_1: 61, telefone_1: null, ddd_2: null, telefone_2: '08007282323', ddd_fax: 61, fax: 33334444 },
    expect: {
      telefones: [
        { ddd: '61', numero: '', is_fax: false },
        { ddd: '', numero: '08007282323', is_fax: false },
        { ddd: '61', numero: '33334444', is_fax: true },
      ],
    },
  },
  {
    name: 'codes padded as published; secondary CNAEs as listed; CEP to 8 digits',
    establishment: { cnae_fiscal: 111301, cnaes_secundarios: '6201501,0111301', cep: 1310100, uf: 'SP' },
    expect: { cnae_principal: '0111301', cnaes_secundarios: ['6201501', '0111301'], cep: '01310100', uf: 'SP' },
  },
  {
    name: 'a CEP that is not digits (foreign postal code) as given',
    establishment: { cep: 'SW1A 1AA', uf: 'EX', municipio: 9707 },
    expect: { cep: 'SW1A 1AA', uf: 'EX', municipio: 'EXTERIOR' },
  },
  {
    name: 'descriptions from the month’s tables; "" for a code the table lacks',
    establishment: { municipio: 1 },
    company: { natureza_juridica: 9999 },
    expect: { municipio: '', natureza_juridica: '' },
  },
  {
    name: 'dates as YYYY-MM-DD',
    establishment: { data_situacao_cadastral: 20040522, data_inicio_atividade: 19670630 },
    expect: { data_situacao_cadastral: '2004-05-22', data_inicio_atividade: '1967-06-30' },
  },
  {
    name: 'QSA in import order: kinds, age bands (OpenCNPJ’s "Mais de 80 anos"), missing values ""',
    partners: [
      { identificador: 3, nome: 'JOHN DOE', cnpj_cpf: null, qualificacao: 37, faixa_etaria: 0, pais: 249 },
      { identificador: 1, nome: 'HOLDING SA', cnpj_cpf: '34209307000119', qualificacao: 22, faixa_etaria: 0 },
      { identificador: 2, faixa_etaria: 9, qualificacao: 36, data_entrada: null },
      { identificador: null, nome: null, faixa_etaria: null, qualificacao: null },
      { identificador: 7, faixa_etaria: 12 },
    ],
    expect: {
      QSA: [
        {
          nome_socio: 'JOHN DOE',
          cnpj_cpf_socio: '',
          qualificacao_socio: 'Sócio Pessoa Jurídica Domiciliado no Exterior',
          data_entrada_sociedade: '2020-01-01',
          identificador_socio: 'Estrangeiro',
          faixa_etaria: 'Não se aplica',
        },
        {
          nome_socio: 'HOLDING SA',
          cnpj_cpf_socio: '34209307000119',
          qualificacao_socio: 'Sócio',
          data_entrada_sociedade: '2020-01-01',
          identificador_socio: 'Pessoa Jurídica',
          faixa_etaria: 'Não se aplica',
        },
        {
          nome_socio: 'FULANO DE TAL',
          cnpj_cpf_socio: '***123456**',
          qualificacao_socio: '',
          data_entrada_sociedade: '',
          identificador_socio: 'Pessoa Física',
          faixa_etaria: 'Mais de 80 anos',
        },
        {
          nome_socio: '',
          cnpj_cpf_socio: '***123456**',
          qualificacao_socio: '',
          data_entrada_sociedade: '2020-01-01',
          identificador_socio: '',
          faixa_etaria: '',
        },
        {
          nome_socio: 'FULANO DE TAL',
          cnpj_cpf_socio: '***123456**',
          qualificacao_socio: 'Sócio-Administrador',
          data_entrada_sociedade: '2020-01-01',
          identificador_socio: '7',
          faixa_etaria: '12',
        },
      ],
    },
  },
];

let registry: CompanyRegistry;
const cnpjOf = (i: number) => makeCnpj(String(10000000 + i), '0001');

before(async () => {
  const data: SnapshotData = {
    establishments: [],
    companies: [],
    simples: [],
    partners: [],
    regimes: [],
    codeTables: {
      municipios: [
        [9701, 'BRASILIA'],
        [9707, 'EXTERIOR'],
      ],
      naturezas: [[2062, 'Sociedade Empresária Limitada']],
      qualificacoes: [
        [22, 'Sócio'],
        [37, 'Sócio Pessoa Jurídica Domiciliado no Exterior'],
        [49, 'Sócio-Administrador'],
      ],
    },
  };
  CASES.forEach((c, i) => {
    const cnpj = cnpjOf(i);
    const basico = cnpj.slice(0, 8);
    data.establishments.push({ ...blank, cnpj, ...c.establishment });
    if (c.company !== null) data.companies.push(company(basico, c.company));
    if (c.simples) data.simples.push({ basico, ...c.simples });
    for (const p of c.partners ?? []) data.partners.push(partner(basico, p));
  });
  const dataDir = tempDataDir();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  registry = new CompanyRegistry({ dataDir, contacts: () => [], pollMs: 0 });
});

after(() => registry.close());

for (const [i, c] of CASES.entries()) {
  test(`found: ${c.name}`, () => {
    const found = compatRowsOf(registry, cnpjOf(i));
    assert.ok(found !== null);
    const ctx = { codeTables: found.snapshot.codeTables, info: found.snapshot.info, ibge: ibgeOfSiafi };
    const answer = opencnpj.found(found.rows, ctx);
    assert.equal(answer.status, 200);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    assert.equal(body.cnpj, cnpjOf(i));
    for (const [k, v] of Object.entries(c.expect)) assert.deepEqual(body[k], v, k);
  });
}
