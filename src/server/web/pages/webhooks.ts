// The Webhooks page: registration (the secret shown once), each webhook with its actions and its
// recent deliveries (docs/webhooks.md). Members see the list and the deliveries, no actions.
import type { DeliveryInfo } from '../../../domain/webhooks/queue.ts';
import type { Webhook } from '../../../domain/webhooks/webhooks.ts';
import { formatDateTime } from '../format.ts';
import { messageFlash, secretOnce } from '../flash.ts';
import { html, type Html } from '../html.ts';
import { csrfField, layout, type HeaderUser } from '../layout.ts';
import type { Flash } from '../session.ts';

export interface WebhooksPageData {
  viewer: HeaderUser;
  webhooks: { webhook: Webhook; deliveries: DeliveryInfo[] }[];
  canManage: boolean;
  isMember: boolean;
  max: number;
  flash: Flash | null;
  /** Re-shown after a refused registration. */
  formUrl?: string;
  formError?: string;
  httpAllowed: boolean;
}

const STATUS: Record<DeliveryInfo['status'], [label: string, badge: string]> = {
  pending: ['pendente', 'expirado'],
  delivered: ['entregue', 'ativo'],
  failed: ['falhou', 'invalidado'],
};

function flashBlock(flash: Flash | null): Html {
  const message = messageFlash(flash);
  if (message) return message;
  if (flash?.kind !== 'webhook') return html``;
  return secretOnce({
    id: 'novo-segredo',
    title: html`Webhook cadastrado`,
    intro: html`<p>Entregas para <code>${flash.url}</code> serão assinadas com o segredo abaixo. <strong>Copie agora: ele não será mostrado novamente.</strong></p>`,
    value: flash.secret,
    copyLabel: 'Copiar segredo',
  });
}

function createForm(d: WebhooksPageData): Html {
  return html`<section class="card" aria-labelledby="cadastrar-titulo">
  <h2 id="cadastrar-titulo">Novo webhook</h2>
  ${d.formError ? html`<div class="alert alert-error" role="alert" id="cadastrar-erro"><p>${d.formError}</p></div>` : ''}
  <form method="post" action="/api-de-cnpj/webhooks">
    ${csrfField(d.viewer.csrfToken)}
    <div class="field">
      <label for="webhook-url">URL</label>
      <input type="url" id="webhook-url" name="url" required maxlength="2000" placeholder="https://exemplo.com.br/webhooks/cnpj" value="${d.formUrl ?? ''}" aria-describedby="webhook-url-dica${d.formError ? ' cadastrar-erro' : ''}">
      <span class="hint" id="webhook-url-dica">${d.httpAllowed ? 'https:// ou http://' : 'Somente https://'}. Até ${d.max} webhooks por conta; cada um recebe as mudanças mensais dos CNPJs monitorados.</span>
    </div>
    <div class="actions"><button type="submit" class="btn btn-primary">Cadastrar webhook</button></div>
  </form>
</section>`;
}

function post(action: string, label: string, cls: string, aria: string, csrf: string): Html {
  return html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}<button type="submit" class="btn ${cls} btn-small" aria-label="${aria}">${label}</button></form>`;
}

function deliveryRow(x: DeliveryInfo, d: WebhooksPageData): Html {
  const [label, badge] = STATUS[x.status];
  const what =
    x.event === 'test'
      ? 'Teste'
      : `Mudanças de ${x.month}${x.batchCount && x.batchCount > 1 ? ` (lote ${x.batchIndex} de ${x.batchCount})` : ''}`;
  const when = x.lastAttemptAt ?? x.createdAt;
  return html`<tr data-delivery-id="${x.id}">
    <th scope="row">${what}</th>
    <td data-label="Estado"><span class="badge badge-${badge}">${label}</span></td>
    <td data-label="Tentativas">${x.attempts}</td>
    <td data-label="Resposta">${x.lastStatusCode ?? (x.lastError ? html`<span class="muted">${x.lastError.slice(0, 80)}</span>` : html`<span class="muted">—</span>`)}</td>
    <td data-label="Quando">${formatDateTime(when)}${x.status === 'pending' && x.attempts > 0 ? html`<br><span class="muted">próxima: ${formatDateTime(x.nextAttemptAt)}</span>` : ''}</td>
    ${d.canManage ? html`<td data-label="Ações">${post(`/api-de-cnpj/webhooks/entregas/${x.id}/reenviar`, 'Reenviar', 'btn-secondary', `Reenviar a entrega ${x.id}`, d.viewer.csrfToken)}</td>` : ''}
  </tr>`;
}

function webhookCard(w: Webhook, deliveries: DeliveryInfo[], d: WebhooksPageData): Html {
  const base = `/api-de-cnpj/webhooks/${w.id}`;
  const csrf = d.viewer.csrfToken;
  return html`<section class="card" data-webhook-id="${w.id}" aria-labelledby="webhook-${w.id}-titulo">
  <h2 id="webhook-${w.id}-titulo"><code>${w.url}</code></h2>
  <p><span class="badge badge-${w.enabled ? 'ativo' : 'desativado'}">${w.enabled ? 'ativo' : 'desativado'}</span>
    <span class="muted">Cadastrado em ${formatDateTime(w.createdAt)}${w.pending > 0 ? ` · ${w.pending} entrega(s) pendente(s)` : ''}</span></p>
  ${
    d.canManage
      ? html`<div class="actions">
    ${post(`${base}/teste`, 'Enviar evento de teste', 'btn-primary', `Enviar evento de teste para ${w.url}`, csrf)}
    ${w.enabled ? post(`${base}/desativar`, 'Desativar', 'btn-secondary', `Desativar o webhook ${w.url}`, csrf) : post(`${base}/ativar`, 'Ativar', 'btn-secondary', `Ativar o webhook ${w.url}`, csrf)}
    <details class="confirm"><summary class="btn btn-danger btn-small">Excluir…</summary>
      <p>Excluir este webhook e todas as suas entregas?</p>
      ${post(`${base}/excluir`, 'Confirmar exclusão', 'btn-danger', `Confirmar a exclusão do webhook ${w.url}`, csrf)}
    </details>
  </div>`
      : ''
  }
  <h3>Entregas recentes</h3>
  ${
    deliveries.length === 0
      ? html`<p class="muted">Nenhuma entrega ainda. As mudanças de um mês são enviadas depois que ele é importado.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Evento</th><th scope="col">Estado</th><th scope="col">Tentativas</th><th scope="col">Resposta</th><th scope="col">Quando</th>${d.canManage ? html`<th scope="col">Ações</th>` : ''}</tr></thead>
    <tbody>${deliveries.map((x) => deliveryRow(x, d))}</tbody>
  </table></div>`
  }
</section>`;
}

export function webhooksPage(d: WebhooksPageData): string {
  const body = html`<h1>Webhooks</h1>
<p class="lead">Receba por POST, a cada mês importado, as mudanças dos CNPJs monitorados pela conta. Cada entrega é assinada (cabeçalho <code>X-CNPJ-API-Signature</code>) e repetida por até 24 horas até o seu servidor responder 2xx.</p>
${flashBlock(d.flash)}
${d.isMember ? html`<div class="alert alert-info" role="status"><p>Somente administradores de cobrança podem cadastrar, testar, desativar ou excluir webhooks. Você pode ver a lista e as entregas.</p></div>` : ''}
${d.canManage ? createForm(d) : ''}
${d.webhooks.length === 0 ? html`<section class="card"><p class="muted">Nenhum webhook cadastrado.</p></section>` : d.webhooks.map((x) => webhookCard(x.webhook, x.deliveries, d))}
<p><a href="/api-de-cnpj">← Voltar para a API de CNPJ</a></p>`;
  return layout({
    title: 'Webhooks',
    body,
    viewer: d.viewer,
    current: 'webhooks',
    withCopyScript: d.flash?.kind === 'webhook',
  });
}
