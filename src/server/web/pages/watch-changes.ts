// The Monitoramento page's card of the newest recorded month's changes for the watchlist.
import type { ChangeItem } from '../../../domain/history/item.ts';
import { formatCnpj } from '../../../domain/cnpj.ts';
import { campoLabel, TIPO_LABELS, valueText } from '../change-labels.ts';
import { formatInt } from '../format.ts';
import { html, type Html } from '../html.ts';

export interface WatchChanges {
  /** The newest recorded month ('YYYY-MM'), null before the first. */
  month: string | null;
  monthLabel: string | null;
  /** The first of them (at most `shown`), and how many there are in all. */
  items: ChangeItem[];
  total: number;
  watched: number;
}

function row(c: ChangeItem): Html {
  const values =
    c.tipo === 'alteracao'
      ? html`<span><span class="antes">${valueText(c.antes, c.campo)}</span> <span aria-hidden="true">→</span><span class="sr-only">passou a</span> <span class="depois">${valueText(c.depois, c.campo)}</span></span>`
      : html`<span class="muted">—</span>`;
  return html`<tr>
    <th scope="row" data-label="CNPJ" class="cnpj">${formatCnpj(c.cnpj)}</th>
    <td data-label="Tipo">${TIPO_LABELS[c.tipo]}</td>
    <td data-label="Campo">${c.tipo === 'alteracao' ? campoLabel(c.campo) : '—'}</td>
    <td data-label="Antes → depois" class="mudanca">${values}</td>
  </tr>`;
}

export function changesCard(d: WatchChanges): Html {
  const title = d.monthLabel ? `Mudanças de ${d.monthLabel}` : 'Mudanças do mês';
  let content: Html;
  if (d.month === null)
    content = html`<p class="muted" id="sem-historico">Nenhum mês de mudanças foi registrado ainda neste servidor: elas aparecem aqui depois que o mês seguinte da base for importado.</p>`;
  else if (d.watched === 0)
    content = html`<p class="muted" id="sem-mudancas">Adicione CNPJs à lista para ver aqui as mudanças de cada mês.</p>`;
  else if (d.total === 0)
    content = html`<p class="muted" id="sem-mudancas">Nenhum dos ${formatInt(d.watched)} CNPJs monitorados mudou neste mês.</p>`;
  else
    content = html`<p>${formatInt(d.total)} ${d.total === 1 ? 'mudança' : 'mudanças'} nos CNPJs monitorados${d.items.length < d.total ? html`; aqui estão as ${formatInt(d.items.length)} primeiras, em ordem de CNPJ` : ''}.</p>
<div class="table-wrap"><table class="stack" id="mudancas">
  <thead><tr><th scope="col">CNPJ</th><th scope="col">Tipo</th><th scope="col">Campo</th><th scope="col">Antes → depois</th></tr></thead>
  <tbody>${d.items.map(row)}</tbody>
</table></div>`;
  return html`<section class="card" aria-labelledby="mudancas-titulo">
  <h2 id="mudancas-titulo">${title}</h2>
  ${content}
</section>`;
}
