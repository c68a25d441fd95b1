// GET /docs: a readable page (Portuguese) built from the same sources as /openapi.json: the
// TypeBox schemas (fields, types, descriptions), the error table and the real example response.
// It uses the web app's layout and stylesheet (escaping by construction, a phone layout), with a
// table of contents: on a phone it comes first, on a wide screen it stays beside the text.
import { CompanySchema, ContatoExtraSchema, SocioSchema } from '../../domain/company/schema.ts';
import { exampleResponse } from '../../domain/company/example.ts';
import { breakAfterSlashes, html, type Html } from '../web/html.ts';
import { layout } from '../web/layout.ts';
import { ERRORS } from '../../domain/api-errors.ts';
import { docsTable, fieldTable } from './docs-parts.ts';
import { batchSection, establishmentsSection } from './docs-lists.ts';
import { changesSection } from './docs-changes.ts';
import { countSection, partnersSection, searchSection } from './docs-search.ts';
import { watchlistSection } from './docs-watchlist.ts';
import { compatSection } from './docs-compat.ts';
import { lookupCurl } from './examples.ts';
import { API_DESCRIPTION } from './openapi.ts';

/** Section anchors and titles; the headings and the table of contents both come from here. */
const TITLES = {
  autenticacao: 'Autenticação',
  consultar: 'Consultar uma empresa',
  resposta: 'Resposta',
  'campos-company': 'company',
  'campos-socios': 'socios[]',
  'campos-contatos-extras': 'contatos_extras[]',
  exemplo: 'Exemplo',
  buscar: 'Buscar empresas',
  contar: 'Contar empresas',
  socios: 'Buscar sócios',
  estabelecimentos: 'Estabelecimentos de uma empresa',
  lote: 'Consulta em lote',
  mudancas: 'Mudanças do mês e histórico',
  monitoramento: 'Monitoramento de CNPJs',
  compatibilidade: 'Compatibilidade: BrasilAPI, Minha Receita, OpenCNPJ, ReceitaWS',
  erros: 'Erros',
  'outras-rotas': 'Outras rotas',
} as const;
type SectionId = keyof typeof TITLES;

const CONTENTS: readonly (readonly [SectionId, readonly SectionId[]])[] = [
  ['autenticacao', []],
  ['consultar', ['resposta', 'campos-company', 'campos-socios', 'campos-contatos-extras', 'exemplo']],
  ['buscar', []],
  ['contar', []],
  ['socios', []],
  ['estabelecimentos', []],
  ['lote', []],
  ['mudancas', []],
  ['monitoramento', []],
  ['compatibilidade', []],
  ['erros', []],
  ['outras-rotas', []],
];

function toc(): Html {
  const link = (id: SectionId) => html`<a href="#${id}">${TITLES[id]}</a>`;
  return html`<nav class="card toc" aria-label="Sumário">
  <h2>Sumário</h2>
  <ol>${CONTENTS.map(([id, children]) => html`<li>${link(id)}${children.length ? html`<ol>${children.map((c) => html`<li>${link(c)}</li>`)}</ol>` : ''}</li>`)}</ol>
</nav>`;
}

const h2 = (id: SectionId) => html`<h2 id="${id}">${TITLES[id]}</h2>`;
const h3 = (id: SectionId, code = false) =>
  html`<h3 id="${id}">${code ? html`<code>${TITLES[id]}</code>` : TITLES[id]}</h3>`;

export function buildDocsHtml(baseUrl: string): string {
  const errors = Object.values(ERRORS).map((e) => [e.status, html`<code>${e.error}</code>`, e.when, e.message]);
  const body = html`<h1>API de CNPJ: documentação</h1>
<p class="lead">${API_DESCRIPTION}</p>
<div class="docs">
${toc()}
<div class="docs-body">
<p>Especificação OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>.</p>

<section class="card">
${h2('autenticacao')}
<p>Crie um token na área <strong>API de CNPJ</strong>, botão <strong>Gerenciar Tokens da API</strong>. O token é mostrado uma única vez.</p>
<ul>
<li>Recomendado: cabeçalho <code>Authorization: Bearer &lt;token&gt;</code>.</li>
<li>Alternativa: parâmetro <code>?api_token=&lt;token&gt;</code> (menos seguro: a URL pode ficar em logs). Se os dois forem enviados, vale o cabeçalho.</li>
</ul>
</section>

<section class="card">
${h2('consultar')}
<p><code>${breakAfterSlashes('GET /api/v1/brazilian_companies/{cnpj}/company')}</code>: <code>cnpj</code> com 14 caracteres sem pontuação
(letras A–Z nas 12 primeiras posições são aceitas, para os CNPJs alfanuméricos; minúsculas viram maiúsculas; pontuação é aceita por conveniência).</p>
<pre class="code">${breakAfterSlashes(lookupCurl(baseUrl))}</pre>
<p>Respostas 200 e 404 contam uma consulta na cota mensal do plano; CNPJ inválido (400) e falhas de autenticação não contam.
Toda resposta autenticada traz <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> e <code>X-RateLimit-Reset</code>;
a resposta 429 traz também <code>Retry-After</code> (segundos). Toda resposta com dados do cadastro (consultas, buscas,
contagens, sócios, mudanças, históricos e os formatos compatíveis) traz <code>X-Registry-Month</code> (o mês dos dados, AAAA-MM)
e <code>X-Registry-Release</code> (a versão publicada desses dados): servidores que respondem com o mesmo valor respondem com os mesmos dados.</p>

${h3('resposta')}
<p>Objeto com <code>company</code>, <code>socios</code> e <code>contatos_extras</code>.</p>
${h3('campos-company', true)}
${fieldTable(CompanySchema)}
${h3('campos-socios', true)}
${fieldTable(SocioSchema)}
${h3('campos-contatos-extras', true)}
${fieldTable(ContatoExtraSchema)}

${h3('exemplo')}
<pre class="code json" tabindex="0">${JSON.stringify(exampleResponse(), null, 2)}</pre>
</section>

<section class="card">
${h2('buscar')}
${searchSection(baseUrl)}
</section>

<section class="card">
${h2('contar')}
${countSection(baseUrl)}
</section>

<section class="card">
${h2('socios')}
${partnersSection(baseUrl)}
</section>

<section class="card">
${h2('estabelecimentos')}
${establishmentsSection(baseUrl)}
</section>

<section class="card">
${h2('lote')}
${batchSection(baseUrl)}
</section>

<section class="card">
${h2('mudancas')}
${changesSection(baseUrl)}
${h2('monitoramento')}
${watchlistSection(baseUrl)}
</section>

<section class="card">
${h2('compatibilidade')}
${compatSection(baseUrl)}
</section>

<section class="card">
${h2('erros')}
<p>Toda resposta de erro é JSON: <code>{"error": "&lt;código&gt;", "message": "&lt;frase em português&gt;"}</code>.</p>
${docsTable(['Status', 'error', 'Quando', 'message'], errors)}
</section>

<section class="card">
${h2('outras-rotas')}
<ul>
<li><code>GET /healthz</code>: 200 quando o processo está no ar.</li>
<li><code>GET /readyz</code>: 200 quando este servidor pode atender (base carregada, banco de contas respondendo); senão 503 <code>not_ready</code> com <code>Retry-After</code>.</li>
<li><code>GET /api/v1/status</code>: mês da base carregada, data da importação e contagem de linhas (sem token).</li>
</ul>
</section>
</div>
</div>`;
  return layout({ title: 'Documentação da API', body, wide: true });
}
