// The /openapi.json operations of the change feed and a company's history, their parameters from
// the very schemas the routes read them with (domain/history/feed-schema.ts).
import { ChangesPageSchema, ChangesQuerySchema, CompanyHistorySchema } from '../../domain/history/feed-schema.ts';
import { changesCurl, changesExample, historyCurl, historyExample } from './examples-changes.ts';
import { COMMON_ERRORS, curlSample, errorResponses, okJson, plain, queryParameters } from './openapi-parts.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';

export const CHANGES_SCHEMAS = { ChangesPage: plain(ChangesPageSchema), CompanyHistory: plain(CompanyHistorySchema) };

export function changesPaths(baseUrl: string): Record<string, unknown> {
  return {
    '/api/v1/changes': {
      get: {
        operationId: 'listChanges',
        summary: 'Mudanças do mês: aberturas, encerramentos e alterações de campos',
        description:
          'O que mudou de um mês importado para o seguinte, em ordem de CNPJ e campo, em páginas de até 100. Os filtros de atributo (uf, municipio, cnae, ...) ' +
          'valem para o CNPJ mostrado, com seus dados no mês novo (no mês anterior para encerramento). Uma mudança da empresa (razão social, natureza jurídica, ' +
          'capital social, porte, Simples/MEI, sócios) aparece uma vez, sob o CNPJ da matriz. Para a próxima página, repita a chamada com os mesmos filtros e ' +
          'cursor=next_cursor; next_cursor null indica a última página. Cada página conta uma consulta na cota; erros (400, 404 month_not_recorded) não contam.',
        parameters: queryParameters(ChangesQuerySchema),
        'x-codeSamples': curlSample(changesCurl(baseUrl)),
        responses: {
          ...okJson('Uma página de mudanças do mês.', 'ChangesPage', changesExample()),
          ...errorResponses([...COMMON_ERRORS, 'invalid_parameter', 'month_not_recorded']),
        },
      },
    },
    '/api/v1/brazilian_companies/{cnpj}/history': {
      get: {
        operationId: 'companyHistory',
        summary: 'Histórico de mudanças de um CNPJ',
        description:
          'Todas as mudanças registradas do estabelecimento e da sua empresa (razão social, sócios, ...), o mês mais recente primeiro. ' +
          'Lista vazia quando nada mudou desde o primeiro mês registrado. Conta uma consulta na cota (inclusive o 404 de um CNPJ desconhecido); ' +
          'CNPJ inválido (400) não conta.',
        parameters: [
          {
            name: 'cnpj',
            in: 'path',
            required: true,
            description:
              'CNPJ com 14 caracteres, com ou sem pontuação. Também um CNPJ que já saiu da base, se o histórico o conhece.',
            schema: { type: 'string', examples: [EXAMPLE_CNPJ] },
          },
        ],
        'x-codeSamples': curlSample(historyCurl(baseUrl)),
        responses: {
          ...okJson('As mudanças do CNPJ.', 'CompanyHistory', historyExample()),
          ...errorResponses([...COMMON_ERRORS, 'invalid_cnpj', 'invalid_parameter', 'not_found']),
        },
      },
    },
  };
}
