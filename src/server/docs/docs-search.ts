// The /docs sections of the search routes: the company search (JSON and CSV), its count and the
// partner search. Parameters, fields and examples come from the same schemas and code as the
// routes (query-schema.ts, examples-search.ts).
import {
  CompanyCountQuerySchema,
  CompanySearchQuerySchema,
  PartnerCompanySchema,
  PartnerSearchQuerySchema,
} from '../../domain/search/query-schema.ts';
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { fieldTable, parameterTable } from './docs-parts.ts';
import {
  countCurl,
  countExample,
  partnersCurl,
  partnersExample,
  searchCsvCurl,
  searchCurl,
  searchExample,
} from './examples-search.ts';

const json = (v: unknown) => JSON.stringify(v, null, 2);
const QUOTA = html`<p><strong>Cota:</strong> cada requisição respondida conta uma consulta, qualquer que seja o tamanho da página; parâmetros
inválidos, falta de filtro (400) e busca indisponível (503) não contam.</p>`;

export function searchSection(baseUrl: string): Html {
  const example = searchExample();
  const c = example.data[0]!;
  // The company object is documented above: a few fields show the shape.
  const short = {
    data: [
      {
        cnpj: c.cnpj,
        razao_social: c.razao_social,
        situacao_cadastral: c.situacao_cadastral,
        uf: c.uf,
        municipio: c.municipio,
        '…': '…',
      },
    ],
    next_cursor: example.next_cursor,
  };
  return html`<p><code>${breakAfterSlashes('GET /api/v1/brazilian_companies?<filtros>')}</code>: estabelecimentos que atendem a <strong>todos</strong>
os filtros, em ordem de CNPJ. Uma vírgula dá <strong>OU</strong> dentro de um parâmetro (<code>uf=SP,RJ</code>). Informe ao menos um filtro
(sem nenhum: 400 <code>missing_filter</code>); um parâmetro desconhecido, repetido ou com valor inválido responde 400
<code>invalid_parameter</code>, nomeando-o. Se a base carregada foi importada sem o índice de busca, a resposta é 503
<code>search_unavailable</code> (a consulta por CNPJ continua funcionando).</p>
<pre class="code">${breakAfterSlashes(searchCurl(baseUrl))}</pre>
${parameterTable(CompanySearchQuerySchema)}
<p>A resposta traz <code>data</code> (objetos <code>company</code>, os mesmos da consulta por CNPJ) e <code>next_cursor</code>. Para a página
seguinte, repita a chamada com os <strong>mesmos filtros</strong> e <code>cursor</code> igual ao <code>next_cursor</code> recebido;
<code>null</code> indica a última página. Uma página pode vir com menos itens que <code>limit</code> e ainda ter <code>next_cursor</code>:
continue até ele ser <code>null</code>.</p>
<pre class="code json" tabindex="0">${json(short)}</pre>
<p><strong>CSV:</strong> com <code>format=csv</code>, a mesma página vem em CSV para planilhas: UTF-8 com BOM, separador <code>;</code>,
uma linha de cabeçalho com os campos do objeto <code>company</code>, <code>Content-Type: text/csv; charset=utf-8</code>. O cursor da
próxima página vem no cabeçalho <code>X-Next-Cursor</code> (ausente na última) e vale também para o JSON.</p>
<pre class="code">${breakAfterSlashes(searchCsvCurl(baseUrl))}</pre>
${QUOTA}`;
}

export function countSection(baseUrl: string): Html {
  return html`<p><code>${breakAfterSlashes('GET /api/v1/brazilian_companies/count?<filtros>')}</code>: quantos estabelecimentos atendem aos
mesmos filtros da busca (sem <code>limit</code>, <code>cursor</code> e <code>format</code>). A contagem é exata para qualquer combinação sem
<code>q</code>; com <code>q</code> ela pode parar num limite e responder <code>"exact": false</code> (o número é então um mínimo).</p>
<pre class="code">${breakAfterSlashes(countCurl(baseUrl))}</pre>
${parameterTable(CompanyCountQuerySchema)}
<pre class="code json" tabindex="0">${json(countExample())}</pre>
${QUOTA}`;
}

export function partnersSection(baseUrl: string): Html {
  return html`<p><code>${breakAfterSlashes('GET /api/v1/partners?nome=…&cnpj_cpf=…')}</code>: sócios por palavras do nome (as regras de
<code>q</code>) e/ou pelo CPF ou CNPJ, com as empresas de cada um: uma linha por sócio em cada empresa. Informe <code>nome</code>,
<code>cnpj_cpf</code> ou os dois (sem nenhum: 400 <code>missing_filter</code>). Paginação como a da busca de empresas.</p>
<pre class="code">${breakAfterSlashes(partnersCurl(baseUrl))}</pre>
${parameterTable(PartnerSearchQuerySchema)}
<p>Cada linha traz os campos de <code>socios[]</code> da consulta por CNPJ e <code>company</code>:</p>
${fieldTable(PartnerCompanySchema)}
<pre class="code json" tabindex="0">${json(partnersExample())}</pre>
${QUOTA}`;
}
