// Token management: the account's tokens, the creation form, the one-time display of a new token.
import type { ApiTokenInfo, TokenState } from '../../../domain/accounts/tokens.ts';
import { formatDate, formatDateTime, formatDay } from '../format.ts';
import { messageFlash, secretOnce } from '../flash.ts';
import { html, type Html } from '../html.ts';
import { csrfField, layout, type HeaderUser } from '../layout.ts';
import type { Flash } from '../session.ts';

export const STATE_LABELS: Record<TokenState, string> = {
  active: 'ativo',
  deactivated: 'desativado',
  expired: 'expirado',
  invalidated: 'invalidado',
};

/** The choices of the "Expiração" field; values are what the accounts module's parseExpiry takes. */
export const EXPIRY_CHOICES: readonly { value: string; label: string }[] = [
  { value: '7d', label: '7 dias' },
  { value: '30d', label: '30 dias' },
  { value: '60d', label: '60 dias' },
  { value: '90d', label: '90 dias' },
  { value: 'data', label: 'Data específica' },
  { value: 'never', label: 'Permanente' },
];
export const DEFAULT_EXPIRY = '90d';

export interface TokenForm {
  name: string;
  expiry: string;
  date: string;
}

export interface TokensPageData {
  viewer: HeaderUser;
  tokens: ApiTokenInfo[];
  /** Billing administrator of an active account. */
  canManage: boolean;
  isMember: boolean;
  accountSuspended: boolean;
  flash: Flash | null;
  /** Re-shown after a refused creation. */
  form?: TokenForm;
  formError?: string;
}

function flashBlock(flash: Flash | null): Html {
  const message = messageFlash(flash);
  if (message) return message;
  if (flash?.kind !== 'token') return html``;
  return secretOnce({
    id: 'novo-token',
    title: html`Token “${flash.name}” criado`,
    intro: html`<p><strong>Copie agora: este token não será mostrado novamente.</strong> Guarde-o em um cofre de segredos ou variável de ambiente, nunca em código-fonte público.</p>`,
    value: flash.token,
    copyLabel: 'Copiar token',
  });
}

// The expiry date is a text field with a pattern, not type=date: Chromium shows a date field in
// the browser's language (mm/dd/yyyy in an English one) whatever the page's lang; the server
// reads dd/mm/aaaa (parseBrDate).
function createForm(d: TokensPageData): Html {
  const f = d.form ?? { name: '', expiry: DEFAULT_EXPIRY, date: '' };
  return html`<section class="card" aria-labelledby="criar-titulo">
  <h2 id="criar-titulo">Novo token</h2>
  ${d.formError ? html`<div class="alert alert-error" role="alert" id="criar-erro"><p>${d.formError}</p></div>` : ''}
  <form method="post" action="/api-de-cnpj/tokens">
    ${csrfField(d.viewer.csrfToken)}
    <div class="form-row">
      <div class="field">
        <label for="token-nome">Nome</label>
        <input type="text" id="token-nome" name="nome" required maxlength="100" value="${f.name}" aria-describedby="token-nome-dica${d.formError ? ' criar-erro' : ''}">
        <span class="hint" id="token-nome-dica">Por exemplo: produção, homologação.</span>
      </div>
      <div class="field">
        <label for="token-expiracao">Expiração</label>
        <select id="token-expiracao" name="expiracao">
          ${EXPIRY_CHOICES.map((c) => html`<option value="${c.value}"${c.value === f.expiry ? html` selected` : ''}>${c.label}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="token-data">Data de expiração</label>
        <input type="text" id="token-data" name="data_expiracao" inputmode="numeric" autocomplete="off" maxlength="10" placeholder="dd/mm/aaaa" pattern="\\d{1,2}/\\d{1,2}/\\d{4}" title="Uma data no formato dd/mm/aaaa, por exemplo 31/01/2027." value="${f.date}" aria-describedby="token-data-dica">
        <span class="hint" id="token-data-dica">Só com “Data específica”, no formato dd/mm/aaaa; vale até o fim do dia.</span>
      </div>
    </div>
    <div class="actions"><button type="submit" class="btn btn-primary">Criar token</button></div>
  </form>
</section>`;
}

function row(t: ApiTokenInfo, d: TokensPageData): Html {
  const action =
    t.state === 'invalidated'
      ? html`<span class="muted">—</span>`
      : t.enabled
        ? html`<form method="post" action="/api-de-cnpj/tokens/${t.id}/desativar" class="inline">${csrfField(d.viewer.csrfToken)}<button type="submit" class="btn btn-danger btn-small" aria-label="Desativar o token ${t.name}">Desativar</button></form>`
        : html`<form method="post" action="/api-de-cnpj/tokens/${t.id}/ativar" class="inline">${csrfField(d.viewer.csrfToken)}<button type="submit" class="btn btn-secondary btn-small" aria-label="Ativar o token ${t.name}">Ativar</button></form>`;
  // data-label: the column's name, shown before each value when a narrow screen stacks the rows.
  return html`<tr data-token-id="${t.id}">
    <th scope="row">${t.name}</th>
    <td data-label="Prefixo"><code class="prefix">${t.displayPrefix}…</code></td>
    <td data-label="Criado em">${formatDate(t.createdAt)}</td>
    <td data-label="Expira em">${t.expiresAt ? formatDay(t.expiresAt) : 'Permanente'}</td>
    <td data-label="Último uso">${t.lastUsedAt ? formatDateTime(t.lastUsedAt) : html`<span class="muted">Nunca</span>`}</td>
    <td data-label="Estado"><span class="badge badge-${STATE_LABELS[t.state]}">${STATE_LABELS[t.state]}</span></td>
    ${d.canManage ? html`<td data-label="Ações">${action}</td>` : ''}
  </tr>`;
}

export function tokensPage(d: TokensPageData): string {
  const body = html`<h1>Tokens da API</h1>
<p class="lead">Cada token autentica as chamadas à API de CNPJ. Use um token por ambiente e desative na hora um token que tenha vazado.</p>
${flashBlock(d.flash)}
${d.accountSuspended ? html`<div class="alert alert-error" role="alert"><p><strong>Conta suspensa.</strong> Todos os tokens foram invalidados e não podem ser reativados. Depois que a conta for reativada, crie novos tokens.</p></div>` : ''}
${d.isMember ? html`<div class="alert alert-info" role="status"><p>Somente administradores de cobrança podem criar, ativar ou desativar tokens. Você pode ver a lista e o uso.</p></div>` : ''}
${d.canManage ? createForm(d) : ''}
<section class="card" aria-labelledby="lista-titulo">
  <h2 id="lista-titulo">Tokens da conta</h2>
  ${
    d.tokens.length === 0
      ? html`<p class="muted">Nenhum token ainda.${d.canManage ? ' Crie o primeiro com o formulário acima.' : ''}</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr>
      <th scope="col">Nome</th><th scope="col">Prefixo</th><th scope="col">Criado em</th><th scope="col">Expira em</th>
      <th scope="col">Último uso</th><th scope="col">Estado</th>${d.canManage ? html`<th scope="col">Ações</th>` : ''}
    </tr></thead>
    <tbody>${d.tokens.map((t) => row(t, d))}</tbody>
  </table></div>`
  }
</section>
<p><a href="/api-de-cnpj">← Voltar para a API de CNPJ</a></p>`;
  return layout({
    title: 'Tokens da API',
    body,
    viewer: d.viewer,
    current: 'tokens',
    withCopyScript: d.flash?.kind === 'token',
  });
}
