// The login page.
import { CSRF_FIELD } from '../csrf.ts';
import { html } from '../html.ts';
import { layout } from '../layout.ts';

export interface LoginPageOptions {
  csrfToken: string;
  email?: string;
  error?: string;
  notice?: string;
}

export function loginPage(o: LoginPageOptions): string {
  const body = html`<section class="card login-card" aria-labelledby="login-titulo">
  <h1 id="login-titulo">Entrar</h1>
  <p class="lead">Acesse a área <strong>API de CNPJ</strong> para ver o uso do seu plano e gerenciar os tokens.</p>
  ${o.notice ? html`<div class="alert alert-info" role="status"><p>${o.notice}</p></div>` : ''}
  ${o.error ? html`<div class="alert alert-error" role="alert" id="login-erro"><p>${o.error}</p></div>` : ''}
  <form method="post" action="/login" novalidate>
    <input type="hidden" name="${CSRF_FIELD}" value="${o.csrfToken}">
    <div class="field">
      <label for="email">E-mail</label>
      <input type="email" id="email" name="email" autocomplete="username" required maxlength="254" value="${o.email ?? ''}"${o.error ? html` aria-describedby="login-erro"` : ''}${o.email ? '' : html` autofocus`}>
    </div>
    <div class="field">
      <label for="senha">Senha</label>
      <input type="password" id="senha" name="senha" autocomplete="current-password" required maxlength="1024"${o.email ? html` autofocus` : ''}>
    </div>
    <button type="submit" class="btn btn-primary btn-large">Entrar</button>
  </form>
</section>`;
  return layout({ title: 'Entrar', body });
}
