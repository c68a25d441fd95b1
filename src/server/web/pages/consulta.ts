// The "Consulta" page of the "API de CNPJ" area: a search form over the main filters, a page of
// results (each row links to the full record), the next page by cursor, the page as CSV; and the
// record page. Plain GET forms and links; one script file (the name field's typeahead,
// assets/suggest-script.ts), which the page works without. With a name, one row per company.
import type { CompanyResponse } from '../../../domain/company/schema.ts';
import type { FoundCompany } from '../../../domain/search/counted.ts';
import { suggestScript } from '../assets/suggest-script.ts';
import { html, type Html } from '../html.ts';
import { layout, type HeaderUser } from '../layout.ts';

export const CONSULTA_PATH = '/api-de-cnpj/consulta';
export const CONSULTA_CSV_PATH = '/api-de-cnpj/consulta.csv';
/** The name field's suggestions (JSON), beside the Consulta (its records take every path below it). */
export const SUGGEST_PATH = '/api-de-cnpj/sugestoes';
export const SUGGEST_SCRIPT = suggestScript(CONSULTA_PATH, SUGGEST_PATH);

/** The form's fields, as typed (the query string's names are the API's). */
export interface ConsultaForm {
  q: string;
  uf: string;
  municipio: string;
  cnae: string;
  situacao_cadastral: string;
}

export const UFS = 'AC AL AM AP BA CE DF ES GO MA MG MS MT PA PB PE PI PR RJ RN RO RR RS SC SE SP TO'.split(' ');
const SITUACOES: [string, string][] = [
  ['ativa', 'Ativa'],
  ['inapta', 'Inapta'],
  ['suspensa', 'Suspensa'],
  ['baixada', 'Baixada'],
  ['nula', 'Nula'],
];

export interface ConsultaPageData {
  viewer: HeaderUser;
  form: ConsultaForm;
  /** A refusal in Portuguese (bad value, missing filter, quota, plan, search unavailable). */
  error?: string;
  results?: FoundCompany[];
  /** The query string of the next page (with its cursor), or null on the last page. */
  nextQuery?: string | null;
  /** The query string of this page (for the CSV link). */
  thisQuery?: string;
}

function select(id: string, name: string, label: string, value: string, options: [string, string][]): Html {
  return html`<div class="field">
        <label for="${id}">${label}</label>
        <select id="${id}" name="${name}">
          <option value="">Todas</option>
          ${options.map(([v, l]) => html`<option value="${v}"${v === value ? html` selected` : ''}>${l}</option>`)}
        </select>
      </div>`;
}

function searchForm(f: ConsultaForm): Html {
  return html`<form method="get" action="${CONSULTA_PATH}" class="card" aria-labelledby="filtros-titulo">
  <h2 id="filtros-titulo">Filtros</h2>
  <div class="form-row">
    <div class="field">
      <label for="c-q">Nome ou razão social</label>
      <input type="text" id="c-q" name="q" maxlength="200" value="${f.q}" aria-describedby="c-q-dica">
      <ul id="c-q-sugestoes" class="suggestions" role="listbox" aria-label="Sugestões de empresas" hidden></ul>
      <span class="hint" id="c-q-dica">Sem distinção de acentos, com tolerância a uma letra trocada; a última palavra vale como início. Sugestões aparecem enquanto você digita (cada uma conta uma chamada).</span>
    </div>
    ${select(
      'c-uf',
      'uf',
      'UF',
      f.uf,
      UFS.map((u) => [u, u]),
    )}
    <div class="field">
      <label for="c-municipio">Município</label>
      <input type="text" id="c-municipio" name="municipio" maxlength="80" value="${f.municipio}" aria-describedby="c-municipio-dica">
      <span class="hint" id="c-municipio-dica">O nome, com a UF escolhida ao lado.</span>
    </div>
    <div class="field">
      <label for="c-cnae">CNAE</label>
      <input type="text" id="c-cnae" name="cnae" inputmode="numeric" maxlength="7" pattern="[0-9]{2,7}" title="De 2 a 7 dígitos do CNAE principal." value="${f.cnae}" aria-describedby="c-cnae-dica">
      <span class="hint" id="c-cnae-dica">De 2 a 7 dígitos (divisão, grupo, classe ou subclasse).</span>
    </div>
    ${select('c-situacao', 'situacao_cadastral', 'Situação cadastral', f.situacao_cadastral, SITUACOES)}
  </div>
  <div class="actions"><button type="submit" class="btn btn-primary">Consultar</button></div>
  <p class="muted">Cada página de resultados, cada ficha aberta e cada CSV baixado conta uma chamada da cota mensal da conta, como na API.</p>
</form>`;
}

function resultRow(c: FoundCompany): Html {
  const more = c.estabelecimentos_encontrados;
  return html`<tr>
      <th scope="row" data-label="CNPJ"><a href="${CONSULTA_PATH}/${c.cnpj}">${c.cnpj_pretty}</a></th>
      <td data-label="Razão social">${c.razao_social}${
        more !== undefined && more > 1
          ? html` <span class="muted">(${String(more)} estabelecimentos encontrados)</span>`
          : ''
      }</td>
      <td data-label="Nome fantasia">${c.nome_fantasia || '—'}</td>
      <td data-label="Município/UF">${c.municipio}/${c.uf}</td>
      <td data-label="Situação">${c.situacao_cadastral}</td>
    </tr>`;
}

function resultsBlock(d: ConsultaPageData): Html {
  const rows = d.results ?? [];
  return html`<section class="card" aria-labelledby="resultados-titulo">
  <h2 id="resultados-titulo">Resultados</h2>
  ${
    rows.length === 0
      ? html`<p class="muted" id="sem-resultados">Nenhuma empresa nesta página atende aos filtros.</p>`
      : html`<div class="table-wrap"><table class="stack" id="resultados">
    <thead><tr><th scope="col">CNPJ</th><th scope="col">Razão social</th><th scope="col">Nome fantasia</th><th scope="col">Município/UF</th><th scope="col">Situação</th></tr></thead>
    <tbody>${rows.map(resultRow)}</tbody>
  </table></div>`
  }
  <div class="actions">
    ${d.nextQuery ? html`<a class="btn btn-secondary" id="proxima" href="${CONSULTA_PATH}?${d.nextQuery}">Próxima página</a>` : ''}
    ${rows.length > 0 ? html`<a class="btn btn-secondary" id="baixar-csv" href="${CONSULTA_CSV_PATH}?${d.thisQuery ?? ''}" download>Baixar CSV</a>` : ''}
  </div>
</section>`;
}

export function consultaPage(d: ConsultaPageData): string {
  const body = html`<h1>Consulta de empresas</h1>
<p class="lead">Encontre empresas por nome, UF, município, atividade (CNAE) e situação cadastral.</p>
${d.error ? html`<div class="alert alert-error" role="alert" id="consulta-erro"><p>${d.error}</p></div>` : ''}
${searchForm(d.form)}
${d.results ? resultsBlock(d) : ''}
<p><a href="/api-de-cnpj">← Voltar para a API de CNPJ</a></p>`;
  return layout({ title: 'Consulta', body, viewer: d.viewer, current: 'consulta', scripts: [SUGGEST_SCRIPT.path] });
}

const text = (v: unknown): string =>
  v === undefined || v === null || v === '' ? '—' : Array.isArray(v) ? v.join(', ') || '—' : String(v);

export interface RecordPageData {
  viewer: HeaderUser;
  record?: CompanyResponse;
  error?: string;
}

/** The full record of one CNPJ: the company object's fields, its sócios and extra contacts. */
export function recordPage(d: RecordPageData): string {
  const r = d.record;
  const body = r
    ? html`<h1>${r.company.razao_social}</h1>
<p class="lead">CNPJ ${r.company.cnpj_pretty}</p>
<section class="card" aria-labelledby="empresa-titulo">
  <h2 id="empresa-titulo">Dados cadastrais</h2>
  <dl class="kv record" id="ficha">${Object.entries(r.company).map(([k, v]) => html`<dt>${k}</dt><dd>${text(v)}</dd>`)}</dl>
</section>
<section class="card" aria-labelledby="socios-titulo">
  <h2 id="socios-titulo">Sócios</h2>
  ${
    r.socios.length === 0
      ? html`<p class="muted">Nenhum sócio na base.</p>`
      : html`<div class="table-wrap"><table class="stack" id="socios">
    <thead><tr><th scope="col">Nome</th><th scope="col">CNPJ/CPF</th><th scope="col">Qualificação</th><th scope="col">Entrada</th><th scope="col">Faixa etária</th></tr></thead>
    <tbody>${r.socios.map(
      (s) =>
        html`<tr><th scope="row" data-label="Nome">${s.nome_socio}</th><td data-label="CNPJ/CPF">${text(s.cnpj_cpf_socio)}</td><td data-label="Qualificação">${text(s.qualificacao_socio)}</td><td data-label="Entrada">${text(s.data_entrada)}</td><td data-label="Faixa etária">${text(s.faixa_etaria)}</td></tr>`,
    )}</tbody>
  </table></div>`
  }
</section>
${r.contatos_extras.length ? html`<section class="card"><h2>Contatos extras</h2><ul>${r.contatos_extras.map((c) => html`<li>${c.tipo_contato}: ${c.contato}</li>`)}</ul></section>` : ''}`
    : html`<h1>Consulta de empresas</h1>
<div class="alert alert-error" role="alert" id="consulta-erro"><p>${d.error ?? ''}</p></div>`;
  return layout({
    title: r ? `CNPJ ${r.company.cnpj_pretty}` : 'Consulta',
    body: html`${body}
<p><a href="${CONSULTA_PATH}">← Nova consulta</a></p>`,
    viewer: d.viewer,
    current: 'consulta',
  });
}
