// The "Monitoramento" page of the "API de CNPJ" area: the account's watchlist (add a CNPJ, remove
// one, paged), how much of the plan's limit it uses, and the newest month's changes for it.
import { formatCnpj } from '../../../domain/cnpj.ts';
import type { Watched } from '../../../domain/watchlist/add.ts';
import type { WatchlistUsage } from '../../../domain/watchlist/limit.ts';
import { formatDate, formatInt } from '../format.ts';
import { messageFlash } from '../flash.ts';
import { html, type Html } from '../html.ts';
import { csrfField, layout, type HeaderUser } from '../layout.ts';
import { meter } from '../meter.ts';
import type { Flash } from '../session.ts';
import { changesCard, type WatchChanges } from './watch-changes.ts';
import { EXAMPLE_CNPJ_PRETTY } from '../../../domain/cnpj.ts';

export const MONITORAMENTO_PATH = '/api-de-cnpj/monitoramento';

export interface MonitoramentoData {
  viewer: HeaderUser;
  /** Active account: the list may be changed. */
  canChange: boolean;
  usage: WatchlistUsage;
  page: Watched[];
  /** This page's cursor (null: the first page) and the next one's. */
  cursor: string | null;
  nextCursor: string | null;
  changes: WatchChanges;
  flash: Flash | null;
  /** Re-shown after a refused addition. */
  form?: { cnpj: string; error: string };
}

function addForm(d: MonitoramentoData): Html {
  const full = d.usage.used >= d.usage.limit;
  return html`<section class="card" aria-labelledby="adicionar-titulo">
  <h2 id="adicionar-titulo">Adicionar CNPJ</h2>
  ${d.form ? html`<div class="alert alert-error" role="alert" id="adicionar-erro"><p>${d.form.error}</p></div>` : ''}
  <form method="post" action="${MONITORAMENTO_PATH}">
    ${csrfField(d.viewer.csrfToken)}
    <div class="form-row">
      <div class="field">
        <label for="m-cnpj">CNPJ</label>
        <input type="text" id="m-cnpj" name="cnpj" required maxlength="32" autocomplete="off" value="${d.form?.cnpj ?? ''}" aria-describedby="m-cnpj-dica${d.form ? ' adicionar-erro' : ''}">
        <span class="hint" id="m-cnpj-dica">Com ou sem pontuação, por exemplo ${EXAMPLE_CNPJ_PRETTY}. Não precisa estar na base atual.</span>
      </div>
    </div>
    <div class="actions"><button type="submit" class="btn btn-primary"${full ? html` aria-describedby="limite-atingido"` : ''}>Monitorar</button></div>
    ${full ? html`<p class="muted" id="limite-atingido">A lista atingiu o limite do plano: remova um CNPJ antes de adicionar outro.</p>` : ''}
  </form>
</section>`;
}

function listCard(d: MonitoramentoData): Html {
  const here = d.cursor ? `?cursor=${encodeURIComponent(d.cursor)}` : '';
  const rows = d.page.map(
    (w) => html`<tr data-cnpj="${w.cnpj}">
    <th scope="row" data-label="CNPJ" class="cnpj">${formatCnpj(w.cnpj)}</th>
    <td data-label="Desde">${formatDate(w.added_at)}</td>
    ${d.canChange ? html`<td data-label="Ações"><form method="post" action="${MONITORAMENTO_PATH}/remover${here}" class="inline">${csrfField(d.viewer.csrfToken)}<input type="hidden" name="cnpj" value="${w.cnpj}"><button type="submit" class="btn btn-danger btn-small" aria-label="Remover ${formatCnpj(w.cnpj)} da lista">Remover</button></form></td>` : ''}
  </tr>`,
  );
  return html`<section class="card" aria-labelledby="lista-titulo">
  <h2 id="lista-titulo">CNPJs monitorados</h2>
  ${
    d.page.length === 0
      ? html`<p class="muted" id="lista-vazia">${d.cursor ? 'Não há mais CNPJs depois desta página.' : 'Nenhum CNPJ na lista ainda.'}</p>`
      : html`<div class="table-wrap"><table class="stack" id="lista">
    <thead><tr><th scope="col">CNPJ</th><th scope="col">Desde</th>${d.canChange ? html`<th scope="col">Ações</th>` : ''}</tr></thead>
    <tbody>${rows}</tbody>
  </table></div>`
  }
  <div class="actions">
    ${d.cursor ? html`<a class="btn btn-secondary" id="primeira" href="${MONITORAMENTO_PATH}">Primeira página</a>` : ''}
    ${d.nextCursor ? html`<a class="btn btn-secondary" id="proxima" href="${MONITORAMENTO_PATH}?cursor=${encodeURIComponent(d.nextCursor)}">Próxima página</a>` : ''}
  </div>
</section>`;
}

export function monitoramentoPage(d: MonitoramentoData): string {
  const { used, limit, plan } = d.usage;
  const body = html`<h1>Monitoramento</h1>
<p class="lead">Acompanhe CNPJs de clientes, fornecedores e parceiros: a cada mês importado da Receita Federal, as mudanças deles (abertura, encerramento, situação cadastral, endereço, atividade, sócios…) aparecem aqui. A lista também pode ser mantida pela API (<a href="/docs#monitoramento">documentação</a>).</p>
${messageFlash(d.flash, 'aviso') ?? ''}
${d.canChange ? '' : html`<div class="alert alert-error" role="alert"><p><strong>Conta suspensa.</strong> A lista pode ser vista, mas não alterada.</p></div>`}
<section class="card" aria-labelledby="uso-lista-titulo">
  <h2 id="uso-lista-titulo">Limite do plano</h2>
  <p class="stat" id="uso-lista">${formatInt(used)} <small>de ${formatInt(limit)} CNPJs</small></p>
  ${meter(used, limit)}
  <p class="muted">O plano ${plan} permite monitorar até ${formatInt(limit)} CNPJs · restam ${formatInt(Math.max(0, limit - used))}.</p>
</section>
${changesCard(d.changes)}
${d.canChange ? addForm(d) : ''}
${listCard(d)}
<p><a href="/api-de-cnpj">← Voltar para a API de CNPJ</a></p>`;
  return layout({ title: 'Monitoramento', body, viewer: d.viewer, current: 'monitoramento' });
}
