// The one-time messages a page shows after a redirect (session.ts Flash): a notice or an error
// line, and a secret shown once after its creation (an API token, a webhook's signing secret)
// with its copy button (the page script's data-copy).
import { html, type Html } from './html.ts';
import type { Flash } from './session.ts';

/** A notice or an error line (`id` to point at it); null for the kinds a page shows its own way. */
export function messageFlash(flash: Flash | null, id?: string): Html | null {
  const idAttr = id ? html` id="${id}"` : '';
  if (flash?.kind === 'notice')
    return html`<div class="alert alert-success" role="status"${idAttr}><p>${flash.text}</p></div>`;
  if (flash?.kind === 'error')
    return html`<div class="alert alert-error" role="alert"${idAttr}><p>${flash.text}</p></div>`;
  return null;
}

/** A secret shown once: `id` names the block's elements, `intro` says what it is and that it will not be shown again. */
export function secretOnce(o: { id: string; title: Html; intro: Html; value: string; copyLabel: string }): Html {
  return html`<section class="alert alert-success" role="status" aria-labelledby="${o.id}-titulo">
  <h2 id="${o.id}-titulo">${o.title}</h2>
  ${o.intro}
  <div class="secret">
    <code id="${o.id}">${o.value}</code>
    <button type="button" class="btn btn-primary" data-copy="${o.id}" data-copy-status="${o.id}-status" hidden>${o.copyLabel}</button>
  </div>
  <p class="copy-status" id="${o.id}-status" role="status" aria-live="polite"></p>
</section>`;
}
