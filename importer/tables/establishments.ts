// Estabelecimentos (`*.ESTABELE`, 30 fields) → establishments.
import { checkDigits } from '../../src/domain/cnpj.ts';
import { establishments } from '../../src/storage/snapshots/tables.ts';
import { cep, code, codeList, date, keyPart, phone, text } from './fields.ts';
import { defineSource } from './source-table.ts';

/** The Receita's layout of Estabelecimentos. */
export const ESTABELECIMENTOS_LAYOUT = [
  'cnpj_basico',
  'cnpj_ordem',
  'cnpj_dv',
  'identificador_matriz_filial',
  'nome_fantasia',
  'situacao_cadastral',
  'data_situacao_cadastral',
  'motivo_situacao_cadastral',
  'nome_cidade_exterior',
  'pais',
  'data_inicio_atividade',
  'cnae_fiscal_principal',
  'cnae_fiscal_secundaria',
  'tipo_logradouro',
  'logradouro',
  'numero',
  'complemento',
  'bairro',
  'cep',
  'uf',
  'municipio',
  'ddd_1',
  'telefone_1',
  'ddd_2',
  'telefone_2',
  'ddd_fax',
  'fax',
  'correio_eletronico',
  'situacao_especial',
  'data_situacao_especial',
] as const;

export const establishmentsSource = defineSource({
  table: establishments,
  layout: ESTABELECIMENTOS_LAYOUT,
  from: {
    cnpj: ['cnpj_basico', 'cnpj_ordem', 'cnpj_dv'],
    matriz_filial: 'identificador_matriz_filial',
    nome_fantasia: 'nome_fantasia',
    situacao_cadastral: 'situacao_cadastral',
    data_situacao_cadastral: 'data_situacao_cadastral',
    motivo_situacao_cadastral: 'motivo_situacao_cadastral',
    nome_cidade_exterior: 'nome_cidade_exterior',
    pais: 'pais',
    data_inicio_atividade: 'data_inicio_atividade',
    cnae_fiscal: 'cnae_fiscal_principal',
    cnaes_secundarios: 'cnae_fiscal_secundaria',
    tipo_logradouro: 'tipo_logradouro',
    logradouro: 'logradouro',
    numero: 'numero',
    complemento: 'complemento',
    bairro: 'bairro',
    cep: 'cep',
    uf: 'uf',
    municipio: 'municipio',
    ddd_1: 'ddd_1',
    telefone_1: 'telefone_1',
    ddd_2: 'ddd_2',
    telefone_2: 'telefone_2',
    ddd_fax: 'ddd_fax',
    fax: 'fax',
    email: 'correio_eletronico',
    situacao_especial: 'situacao_especial',
    data_situacao_especial: 'data_situacao_especial',
  },
  toRow(f) {
    const base = keyPart(f[0], 8);
    const order = keyPart(f[1], 4);
    const dv = f[2].trim().padStart(2, '0');
    if (!base || !order || !/^\d\d$/.test(dv)) return 'malformed CNPJ';
    const body = base + order;
    if (checkDigits(body) !== dv) return 'wrong CNPJ check digits';
    return [
      body + dv,
      code(f[3]),
      text(f[4]),
      code(f[5]),
      date(f[6]),
      code(f[7]),
      text(f[8]),
      code(f[9]),
      date(f[10]),
      code(f[11]),
      codeList(f[12]),
      text(f[13]),
      text(f[14]),
      text(f[15]),
      text(f[16]),
      text(f[17]),
      cep(f[18]),
      text(f[19]),
      code(f[20]),
      phone(f[21]),
      phone(f[22]),
      phone(f[23]),
      phone(f[24]),
      phone(f[25]),
      phone(f[26]),
      text(f[27]),
      text(f[28]),
      date(f[29]),
    ];
  },
});
