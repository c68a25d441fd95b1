// Sócios (`*.SOCIOCSV`, 11 fields) → partners. No natural key: every row is kept but the repeats of
// an identical one (storage/snapshots/tables.ts dropIdentical).
import { partners } from '../../src/storage/snapshots/tables.ts';
import { code, date, keyPart, text } from './fields.ts';
import { defineSource } from './source-table.ts';

/** The Receita's layout of Sócios. */
export const SOCIOS_LAYOUT = [
  'cnpj_basico',
  'identificador_socio',
  'nome_socio_razao_social',
  'cnpj_cpf_socio',
  'qualificacao_socio',
  'data_entrada_sociedade',
  'pais',
  'representante_legal',
  'nome_representante',
  'qualificacao_representante_legal',
  'faixa_etaria',
] as const;

export const partnersSource = defineSource({
  table: partners,
  layout: SOCIOS_LAYOUT,
  from: {
    basico: 'cnpj_basico',
    identificador: 'identificador_socio',
    nome: 'nome_socio_razao_social',
    cnpj_cpf: 'cnpj_cpf_socio',
    qualificacao: 'qualificacao_socio',
    data_entrada: 'data_entrada_sociedade',
    pais: 'pais',
    representante_cpf: 'representante_legal',
    representante_nome: 'nome_representante',
    representante_qualificacao: 'qualificacao_representante_legal',
    faixa_etaria: 'faixa_etaria',
  },
  toRow(f) {
    const base = keyPart(f[0], 8);
    if (!base) return 'malformed CNPJ base';
    return [
      base,
      code(f[1]),
      text(f[2]),
      text(f[3]),
      code(f[4]),
      date(f[5]),
      code(f[6]),
      text(f[7]),
      text(f[8]),
      code(f[9]),
      code(f[10]),
    ];
  },
});
