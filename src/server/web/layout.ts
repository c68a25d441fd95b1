// The page shell shared by every web page: head, top bar with navigation and logout, main area.
import { CSRF_FIELD } from './csrf.ts';
import { html, type Html } from './html.ts';
import { STYLE_PATH } from './assets/style.ts';
import { COPY_SCRIPT_PATH } from './assets/copy-script.ts';
import { FAVICON_PATH } from './assets/favicon.ts';

export interface HeaderUser {
  email: string;
  roleLabel: string;
  accountName: string;
  csrfToken: string;
}

export interface PageOptions {
  title: string;
  body: Html;
  viewer?: HeaderUser;
  /** Which nav entry is the current page. */
  current?: 'home' | 'tokens' | 'consulta' | 'monitoramento' | 'webhooks';
  /** Only pages with a copy button load the script. */
  withCopyScript?: boolean;
  /** Other scripts the page loads (their content-hashed paths). */
  scripts?: string[];
  /** A wider page (the API docs, with its tables beside a table of contents). */
  wide?: boolean;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

function nav(viewer: HeaderUser, current: PageOptions['current']): Html {
  const link = (href: string, label: string, key: PageOptions['current']) =>
    html`<a href="${href}"${current === key ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="nav" aria-label="Principal">
      ${link('/api-de-cnpj', 'API de CNPJ', 'home')}
      ${link('/api-de-cnpj/consulta', 'Consulta', 'consulta')}
      ${link('/api-de-cnpj/monitoramento', 'Monitoramento', 'monitoramento')}
      ${link('/api-de-cnpj/tokens', 'Tokens', 'tokens')}
      ${link('/api-de-cnpj/webhooks', 'Webhooks', 'webhooks')}
    </nav>
    <div class="who">
      <span class="who-text"><span class="who-email">${viewer.email}</span>
        <span class="who-meta">${viewer.accountName} · ${viewer.roleLabel}</span></span>
      <form method="post" action="/logout" class="inline">
        ${csrfField(viewer.csrfToken)}
        <button type="submit" class="btn btn-ghost">Sair</button>
      </form>
    </div>`;
}

export function layout(opts: PageOptions): string {
  const doc = html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${opts.title} · cnpj-api</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${STYLE_PATH}">
${opts.withCopyScript ? html`<script src="${COPY_SCRIPT_PATH}" defer></script>` : ''}${(opts.scripts ?? []).map((src) => html`\n<script src="${src}" defer></script>`)}
</head>
<body${opts.wide ? html` class="wide"` : ''}>
<a class="skip" href="#conteudo">Pular para o conteúdo</a>
<header class="topbar">
  <div class="topbar-inner">
    <a class="brand" href="${opts.viewer ? '/api-de-cnpj' : '/login'}"><span class="brand-mark" aria-hidden="true">C</span> cnpj-api</a>
    ${opts.viewer ? nav(opts.viewer, opts.current) : ''}
  </div>
</header>
<main id="conteudo" class="container" tabindex="-1">
${opts.body}
</main>
<footer class="footer container">cnpj-api · dados abertos do CNPJ (Receita Federal)</footer>
</body>
</html>
`;
  return doc.value;
}
