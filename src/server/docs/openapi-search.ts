// The /openapi.json operations of the search routes: the company search (JSON or CSV), its count
// and the partner search, their parameters from the very schemas the routes read them with; and
// their /docs sections (docs-page.ts).
import {
  CompanyCountQuerySchema,
  CompanySearchQuerySchema,
  PartnerSearchQuerySchema,
  SuggestQuerySchema,
  type CompanySearchPage,
} from '../../domain/search/query-schema.ts';
import {
  countCurl,
  countExample,
  partnersCurl,
  partnersExample,
  searchCsvCurl,
  searchCurl,
  searchExample,
  suggestCurl,
  suggestExample,
} from './examples-search.ts';
import { COMMON_ERRORS, RATE_HEADERS, curlSample, errorResponses, okJson, queryParameters } from './openapi-parts.ts';
import { EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY } from '../../domain/cnpj.ts';
import { html } from '../web/html.ts';
import type { PageSection } from './docs-page.ts';

const SEARCH_ERRORS = [...COMMON_ERRORS, 'invalid_parameter', 'missing_filter', 'search_unavailable'] as const;
const COUNTS =
  'Conta uma consulta na cota por requisição, qualquer que seja o tamanho da página; erros (400, 503) e falhas de autenticação não contam.';
export function searchPaths(baseUrl: string): Record<string, unknown> {
  return {
    '/api/v1/brazilian_companies': {
      get: {
        operationId: 'searchCompanies',
        summary: 'Busca empresas por nome, atividade, local, situação, porte e regime',
        description:
          'Estabelecimentos que atendem a todos os filtros (E entre parâmetros; vírgula dá OU dentro de um parâmetro), em páginas de até 100. ' +
          'Com q, na ordem de relevância: primeiro o nome igual ao buscado (razão social ou nome fantasia, sem contar forma jurídica e conectivos), depois os que têm todas as palavras, por fim os encontrados com correção (uma letra trocada, palavras juntas ou separadas); order=cnpj mantém a ordem de CNPJ; group=company dá um item por empresa. Sem q, em ordem de CNPJ. ' +
          'Informe ao menos um filtro (senão 400 missing_filter). Para a próxima página, repita a chamada com os mesmos filtros e cursor=next_cursor; ' +
          'next_cursor null indica a última página. Com format=csv, a mesma página vem em CSV (UTF-8 com BOM, separador ";") e o cursor da próxima no cabeçalho X-Next-Cursor. ' +
          COUNTS,
        parameters: queryParameters(CompanySearchQuerySchema),
        'x-codeSamples': curlSample(searchCurl(baseUrl), searchCsvCurl(baseUrl)),
        responses: {
          '200': {
            description: 'Uma página de empresas (JSON), ou a mesma página em CSV com format=csv.',
            headers: {
              ...RATE_HEADERS,
              'X-Next-Cursor': {
                description: 'Só com format=csv: o cursor da próxima página; ausente na última.',
                schema: { type: 'string' },
              },
            },
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/CompanySearchPage' },
                example: searchExample(),
              },
              'text/csv': {
                schema: { type: 'string' },
                example: `cnpj;cnpj_pretty;razao_social;…\r\n${EXAMPLE_CNPJ};${EXAMPLE_CNPJ_PRETTY};SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO);…\r\n`,
              },
            },
          },
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
    '/api/v1/brazilian_companies/suggest': {
      get: {
        operationId: 'suggestCompanies',
        summary: 'Sugere empresas para um nome sendo digitado',
        description:
          'Até limit (1 a 20, padrão 10) empresas, uma por raiz do CNPJ, a melhor primeiro, para o nome que o usuário está digitando: a última palavra vale como prefixo, as outras com as tolerâncias da busca. ' +
          'Os filtros da busca (uf, municipio, situacao_cadastral…) podem restringi-la. ' +
          COUNTS,
        parameters: queryParameters(SuggestQuerySchema),
        'x-codeSamples': curlSample(suggestCurl(baseUrl)),
        responses: {
          ...okJson('As sugestões.', 'SuggestResponse', suggestExample()),
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
    '/api/v1/brazilian_companies/count': {
      get: {
        operationId: 'countCompanies',
        summary: 'Conta as empresas de uma busca',
        description:
          'Quantos estabelecimentos atendem aos filtros (os mesmos da busca, sem limit, cursor e format). Exata para qualquer combinação sem q; ' +
          'com q a contagem pode parar num limite e responder exact: false. ' +
          COUNTS,
        parameters: queryParameters(CompanyCountQuerySchema),
        'x-codeSamples': curlSample(countCurl(baseUrl)),
        responses: {
          ...okJson('A contagem.', 'CountResponse', countExample()),
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
    '/api/v1/partners': {
      get: {
        operationId: 'searchPartners',
        summary: 'Busca sócios por nome ou CPF/CNPJ, com as empresas de cada um',
        description:
          'Uma linha por sócio em cada empresa: os dados do sócio (como em socios da consulta por CNPJ) e um resumo da empresa (CNPJ da matriz, razão social, situação, UF, município). ' +
          'Informe nome, cnpj_cpf ou os dois (senão 400 missing_filter). Com nome, os sócios cujo nome é exatamente o buscado vêm primeiro (order=table mantém a ordem da tabela). Paginação como a da busca de empresas. ' +
          COUNTS,
        parameters: queryParameters(PartnerSearchQuerySchema),
        'x-codeSamples': curlSample(partnersCurl(baseUrl)),
        responses: {
          ...okJson('Uma página de sócios.', 'PartnersPage', partnersExample()),
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
  };
}

const QUOTA = html`<p><strong>Cota:</strong> cada requisição respondida conta uma consulta, qualquer que seja o tamanho da página; parâmetros
inválidos, falta de filtro (400) e busca indisponível (503) não contam.</p>`;

/** The company object is documented in the lookup's section: a few fields show the shape. */
function shortPage({ data: [c], next_cursor }: CompanySearchPage) {
  const { cnpj, razao_social, situacao_cadastral, uf, municipio } = c!;
  return { data: [{ cnpj, razao_social, situacao_cadastral, uf, municipio, '…': '…' }], next_cursor };
}

export const SEARCH_SECTION: PageSection = {
  id: 'buscar',
  title: 'Buscar empresas',
  text: ({ op }) => {
    const search = op('searchCompanies');
    return html`<p><code>${search.route('?<filtros>')}</code>: estabelecimentos que atendem a <strong>todos</strong>
os filtros. Com <code>q</code>, na ordem de <strong>relevância</strong>: primeiro o nome igual ao buscado (razão social ou nome
fantasia; forma jurídica e conectivos como LTDA, S/A, ME, DE não contam), empresas ativas e maiores antes; depois os nomes com
todas as palavras; por fim os encontrados com correção (uma letra trocada, duas palavras juntas ou uma separada).
<code>order=cnpj</code> mantém a ordem de CNPJ, sem correções (para percorrer tudo); <code>group=company</code> dá um item por
empresa (a matriz quando encontrada), com <code>estabelecimentos_encontrados</code>. Sem <code>q</code>, em ordem de CNPJ. Uma vírgula dá <strong>OU</strong> dentro de um parâmetro (<code>uf=SP,RJ</code>). Informe ao menos um filtro
(sem nenhum: 400 <code>missing_filter</code>); um parâmetro desconhecido, repetido ou com valor inválido responde 400
<code>invalid_parameter</code>, nomeando-o. Se a base carregada foi importada sem o índice de busca, a resposta é 503
<code>search_unavailable</code> (a consulta por CNPJ continua funcionando).</p>
${search.curl(0)}
${search.parameters()}
<p>A resposta traz <code>data</code> (objetos <code>company</code>, os mesmos da consulta por CNPJ) e <code>next_cursor</code>. Para a página
seguinte, repita a chamada com os <strong>mesmos filtros</strong> e <code>cursor</code> igual ao <code>next_cursor</code> recebido;
<code>null</code> indica a última página. Uma página pode vir com menos itens que <code>limit</code> e ainda ter <code>next_cursor</code>:
continue até ele ser <code>null</code>.</p>
${search.example(shortPage)}
<p><strong>CSV:</strong> com <code>format=csv</code>, a mesma página vem em CSV para planilhas: UTF-8 com BOM, separador <code>;</code>,
uma linha de cabeçalho com os campos do objeto <code>company</code>, <code>Content-Type: text/csv; charset=utf-8</code>. O cursor da
próxima página vem no cabeçalho <code>X-Next-Cursor</code> (ausente na última) e vale também para o JSON.</p>
${search.curl(1)}
${QUOTA}`;
  },
};

export const SUGGEST_SECTION: PageSection = {
  id: 'sugerir',
  title: 'Sugerir empresas (autocompletar)',
  text: ({ op }) => {
    const suggest = op('suggestCompanies');
    return html`<p><code>${suggest.route('?q=…&limit=10')}</code>: para um campo de nome que sugere enquanto o usuário digita. Até
<code>limit</code> empresas (1 a 20), uma por raiz do CNPJ, a melhor primeiro; a última palavra vale como prefixo. Os filtros da
busca podem restringir as sugestões (<code>uf=SP</code>).</p>
${suggest.curl()}
${suggest.parameters()}
${suggest.example()}
${QUOTA}`;
  },
};

export const COUNT_SECTION: PageSection = {
  id: 'contar',
  title: 'Contar empresas',
  text: ({ op }) => {
    const count = op('countCompanies');
    return html`<p><code>${count.route('?<filtros>')}</code>: quantos estabelecimentos atendem aos
mesmos filtros da busca (sem <code>limit</code>, <code>cursor</code> e <code>format</code>). A contagem é exata para qualquer combinação sem
<code>q</code>; com <code>q</code> ela pode parar num limite e responder <code>"exact": false</code> (o número é então um mínimo).</p>
${count.curl()}
${count.parameters()}
${count.example()}
${QUOTA}`;
  },
};

export const PARTNERS_SECTION: PageSection = {
  id: 'socios',
  title: 'Buscar sócios',
  text: ({ op }) => {
    const partners = op('searchPartners');
    return html`<p><code>${partners.route('?nome=…&cnpj_cpf=…')}</code>: sócios por palavras do nome (as regras de
<code>q</code>) e/ou pelo CPF ou CNPJ, com as empresas de cada um: uma linha por sócio em cada empresa. Informe <code>nome</code>,
<code>cnpj_cpf</code> ou os dois (sem nenhum: 400 <code>missing_filter</code>). Com <code>nome</code>, os sócios cujo nome é
exatamente o buscado vêm primeiro, depois os demais que têm todas as palavras (<code>order=table</code> mantém a ordem da
tabela de sócios da Receita). Paginação como a da busca de empresas.</p>
${partners.curl()}
${partners.parameters()}
<p>Cada linha traz os campos de <code>socios[]</code> da consulta por CNPJ e <code>company</code>:</p>
${partners.fields('data', 'company')}
${partners.example()}
${QUOTA}`;
  },
};
