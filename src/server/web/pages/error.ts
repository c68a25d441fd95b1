// Error pages (403, 404, 413, 429, 500): a sentence for a person and a way back.
import { html } from '../html.ts';
import { layout, type HeaderUser } from '../layout.ts';

export function errorPage(title: string, message: string, viewer?: HeaderUser): string {
  const body = html`<section class="card error-page" aria-labelledby="erro-titulo">
  <h1 id="erro-titulo">${title}</h1>
  <p>${message}</p>
  <p class="actions"><a class="btn btn-secondary" href="${viewer ? '/api-de-cnpj' : '/login'}">${viewer ? 'Voltar para a API de CNPJ' : 'Ir para a página de entrada'}</a></p>
</section>`;
  return layout({ title, body, viewer });
}
