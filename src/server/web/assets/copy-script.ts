// The only script: copy buttons. Served as a file (CSP allows no inline script). Buttons are
// rendered hidden and shown here, so without JavaScript the page shows selectable text instead.
import crypto from 'node:crypto';

export const COPY_SCRIPT_JS = `'use strict';
(function () {
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  function announce(button, message) {
    var status = document.getElementById(button.getAttribute('data-copy-status') || '');
    if (status) status.textContent = message;
  }
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      var text = target.textContent.trim();
      var done = function () { announce(button, 'Copiado para a área de transferência.'); };
      var failed = function () {
        if (fallbackCopy(text)) done();
        else announce(button, 'Não foi possível copiar; selecione o texto e copie manualmente.');
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, failed);
      else failed();
    });
  });
})();
`;

export const COPY_SCRIPT_PATH = `/static/copy-${crypto.createHash('sha256').update(COPY_SCRIPT_JS).digest('hex').slice(0, 10)}.js`;
