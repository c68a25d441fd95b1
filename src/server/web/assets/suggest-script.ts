// The Consulta page's typeahead (issue #46): as the user types a name, up to 8 companies from
// /api-de-cnpj/sugestoes (the API's suggest, counted like it) in a listbox under the field; arrow
// keys move, Enter opens the record, Escape closes. Served as a file (the CSP allows no inline
// script); without JavaScript the field is a plain search field. Waits SUGGEST_DELAY_MS after the
// last key, and drops an answer that arrives after a newer request (no stale list).
import crypto from 'node:crypto';

export const SUGGEST_DELAY_MS = 150;

export const SUGGEST_SCRIPT_JS = `'use strict';
(function () {
  var input = document.getElementById('c-q');
  var list = document.getElementById('c-q-sugestoes');
  if (!input || !list) return;
  var uf = document.getElementById('c-uf');
  var timer = null;
  var seq = 0;
  var active = -1;
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', list.id);
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('autocomplete', 'off');
  function close() {
    list.hidden = true;
    list.textContent = '';
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }
  function mark(i) {
    var items = list.querySelectorAll('[role=option]');
    if (!items.length) return;
    active = (i + items.length) % items.length;
    items.forEach(function (el, k) { el.setAttribute('aria-selected', k === active ? 'true' : 'false'); });
    input.setAttribute('aria-activedescendant', items[active].id);
  }
  function show(data) {
    list.textContent = '';
    active = -1;
    if (!data.length) return close();
    data.forEach(function (s, i) {
      var li = document.createElement('li');
      li.id = 'c-q-sugestao-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      var a = document.createElement('a');
      a.href = '__CONSULTA__/' + encodeURIComponent(s.cnpj);
      a.textContent = s.razao_social + (s.nome_fantasia ? ' (' + s.nome_fantasia + ')' : '');
      var meta = document.createElement('span');
      meta.className = 'muted';
      meta.textContent = ' ' + s.municipio + '/' + s.uf + ' · ' + s.situacao_cadastral;
      li.appendChild(a);
      li.appendChild(meta);
      list.appendChild(li);
    });
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }
  function ask() {
    var q = input.value.trim();
    if (q.length < 2) return close();
    var mine = ++seq;
    var params = new URLSearchParams({ q: q, limit: '8' });
    if (uf && uf.value) params.set('uf', uf.value);
    fetch('__SUGGEST__?' + params.toString(), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : { data: [] }; })
      .then(function (body) { if (mine === seq) show(body.data || []); })
      .catch(function () { if (mine === seq) close(); });
  }
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(ask, ${SUGGEST_DELAY_MS});
  });
  input.addEventListener('keydown', function (e) {
    if (list.hidden) return;
    if (e.key === 'ArrowDown') { e.preventDefault(); mark(active + 1); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); mark(active - 1); }
    else if (e.key === 'Escape') close();
    else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      list.querySelectorAll('[role=option] a')[active].click();
    }
  });
  input.addEventListener('blur', function () { setTimeout(close, 200); });
})();
`;

/** The script with the record pages' and the suggestions' paths filled in, and its content-hashed path. */
export function suggestScript(consultaPath: string, suggestPath: string): { js: string; path: string } {
  const js = SUGGEST_SCRIPT_JS.split('__CONSULTA__').join(consultaPath).split('__SUGGEST__').join(suggestPath);
  return { js, path: `/static/suggest-${crypto.createHash('sha256').update(js).digest('hex').slice(0, 10)}.js` };
}
