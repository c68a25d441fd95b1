// The /openapi.json operations of the change feed and a company's history, their parameters from
// the very schemas the routes read them with (domain/history/feed-schema.ts); and their /docs
// section (docs-page.ts).
import { ChangesPageSchema, ChangesQuerySchema, CompanyHistorySchema } from '../../domain/history/feed-schema.ts';
import { changesCurl, changesExample, historyCurl, historyExample } from './examples-changes.ts';
import { COMMON_ERRORS, curlSample, errorResponses, okJson, plain, queryParameters } from './openapi-parts.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';
import { html } from '../web/html.ts';
import type { PageSection } from './docs-page.ts';

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

export const CHANGES_SECTION: PageSection = {
  id: 'mudancas',
  title: 'Mudanças do mês e histórico',
  text: ({ op }) => {
    const feed = op('listChanges');
    const history = op('companyHistory');
    return html`<p><code>${feed.route()}</code>: o que mudou de um mês importado para o seguinte.
Cada item tem <code>cnpj</code> (14 caracteres) e <code>tipo</code>: <code>abertura</code> (CNPJ novo na base), <code>encerramento</code>
(CNPJ que saiu da base) ou <code>alteracao</code>, esta com <code>campo</code> (o nome do campo na consulta por CNPJ) e os valores
<code>antes</code> e <code>depois</code> como a consulta os mostrava. Em <code>socios</code>, <code>antes</code> lista os sócios que saíram e
<code>depois</code> os que entraram (uma mudança de qualificação aparece nas duas listas). Uma mudança da empresa (razão social, natureza
jurídica, capital social, porte, Simples/MEI, sócios) aparece uma vez, sob o CNPJ da <strong>matriz</strong>.</p>
${feed.curl()}
${feed.parameters()}
<p>Os filtros de atributo valem para o CNPJ mostrado, com seus dados no mês novo (no mês anterior para <code>encerramento</code>);
<code>municipio</code> aceita o código da Receita ou o nome. Sem <code>month</code>, o mês mais recente registrado; um mês sem mudanças
registradas responde 404 <code>month_not_recorded</code>. A resposta traz <code>month</code>, <code>data</code> (em ordem de CNPJ e campo) e
<code>next_cursor</code>: para a página seguinte, repita a chamada com os mesmos filtros e <code>cursor</code>; <code>null</code> indica a última.
Uma página pode vir com menos itens que <code>limit</code> e ainda ter <code>next_cursor</code> (filtros muito raros): continue até
<code>null</code>.</p>
${feed.example()}
<p><code>${history.route()}</code>: todas as mudanças registradas do estabelecimento e
da sua empresa, o mês mais recente primeiro, cada uma com seu <code>month</code>. Um CNPJ que não está na base nem no histórico responde 404.</p>
${history.curl()}
${history.example()}
<p><strong>Cota:</strong> cada página de mudanças e cada histórico contam uma consulta (também o 404 do histórico); parâmetros inválidos
(400) e mês não registrado (404 <code>month_not_recorded</code>) não contam.</p>`;
  },
};
