// The documented examples of the change feed and a company's history, shared by /openapi.json
// and /docs: curl commands, and answers whose cursor is made by the real scope (feed-schema.ts).
import { encodeCursor } from '../../domain/cursor.ts';
import { feedScope, type ChangesPage, type CompanyHistory } from '../../domain/history/feed-schema.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';

const root = (baseUrl: string) => baseUrl.replace(/\/+$/, '');
const AUTH = 'curl -H "Authorization: Bearer $CNPJ_API_TOKEN"';

/** The example feed: new companies and status changes of Brasília (DF) in a month. */
export const CHANGES_EXAMPLE_QUERY = 'month=2026-10&uf=DF&tipo=abertura,alteracao&campo=situacao_cadastral&limit=2';
const MONTH = '2026-10';
const VALUES = { tipo: ['abertura' as const, 'alteracao' as const], campo: ['situacao_cadastral'], uf: ['DF'] };

export const changesCurl = (baseUrl: string, cursor?: string) =>
  `${AUTH} "${root(baseUrl)}/api/v1/changes?${CHANGES_EXAMPLE_QUERY}${cursor ? `&cursor=${cursor}` : ''}"`;
export const historyCurl = (baseUrl: string) =>
  `${AUTH} "${root(baseUrl)}/api/v1/brazilian_companies/${EXAMPLE_CNPJ}/history"`;

export function changesExample(): ChangesPage {
  return {
    month: MONTH,
    data: [
      { cnpj: EXAMPLE_CNPJ, tipo: 'alteracao', campo: 'situacao_cadastral', antes: 'ATIVA', depois: 'BAIXADA' },
      { cnpj: '41239874000183', tipo: 'abertura' },
    ],
    next_cursor: encodeCursor(feedScope(MONTH, VALUES), `${MONTH} 41239874000183 `),
  };
}

export function historyExample(): CompanyHistory {
  return {
    cnpj: EXAMPLE_CNPJ,
    data: [
      {
        month: '2026-11',
        cnpj: EXAMPLE_CNPJ,
        tipo: 'alteracao',
        campo: 'razao_social',
        antes: 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS',
        depois: 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)',
      },
      { month: '2026-10', cnpj: EXAMPLE_CNPJ, tipo: 'alteracao', campo: 'cep', antes: '70836900', depois: '70836901' },
      {
        month: '2026-10',
        cnpj: EXAMPLE_CNPJ,
        tipo: 'alteracao',
        campo: 'logradouro',
        antes: 'SGAN 601',
        depois: 'SGAN 601 MODULO V',
      },
    ],
  };
}
