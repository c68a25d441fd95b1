// Web app (server-rendered pages). Mounted on the same polka app as the API by src/server.ts.
//
// Routes:
//   GET  /                         → /api-de-cnpj when logged in, else /login
//   GET  /login, POST /login       login form (CSRF double-submit, throttled)
//   POST /logout
//   GET  /api-de-cnpj              the "API de CNPJ" area: plan, usage, chart, curl example
//   GET  /api-de-cnpj/tokens       token list, creation form, one-time display of a new token
//   POST /api-de-cnpj/tokens       create (billing administrators of active accounts only)
//   POST /api-de-cnpj/tokens/:id/ativar | /desativar
//   GET  /static/…                 the stylesheet and the copy-button script (content-hashed)
import type { Middleware, Polka } from 'polka';
import { COPY_SCRIPT_JS, COPY_SCRIPT_PATH } from './assets/copy-script.ts';
import { STYLE_CSS, STYLE_PATH } from './assets/style.ts';
import type { WebContext } from './context.ts';
import { guarded } from './guard.ts';
import { redirect, setSecurityHeaders, type Req, type Res } from './http.ts';
import { apiAreaRoutes } from './routes/api-area.ts';
import { loginRoutes } from './routes/login.ts';
import { currentViewer } from './viewer.ts';

export type { WebContext } from './context.ts';

function asset(body: string, type: string) {
  const bytes = Buffer.from(body);
  return (_req: Req, res: Res) => {
    setSecurityHeaders(res);
    res.setHeader('Content-Type', type);
    // The path carries a hash of the content, so it can be cached for good.
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
  };
}

export function mountWeb(app: Polka, ctx: WebContext): void {
  // polka's types come from express; our handlers take plain node request/response objects.
  const on = (method: 'get' | 'post', path: string, handler: (req: Req, res: Res) => void) =>
    app[method](path, handler as unknown as Middleware);

  const login = loginRoutes(ctx);
  const area = apiAreaRoutes(ctx);

  on('get', STYLE_PATH, asset(STYLE_CSS, 'text/css; charset=utf-8'));
  on('get', COPY_SCRIPT_PATH, asset(COPY_SCRIPT_JS, 'text/javascript; charset=utf-8'));

  const start = guarded(ctx, async (req, res) => redirect(res, (await currentViewer(ctx, req)) ? '/api-de-cnpj' : '/login'));
  on('get', '/', start);
  on('get', '/app', start);

  on('get', '/login', login.showLogin);
  on('post', '/login', login.doLogin);
  on('post', '/logout', login.doLogout);

  on('get', '/api-de-cnpj', area.home);
  on('get', '/api-de-cnpj/tokens', area.tokens);
  on('post', '/api-de-cnpj/tokens', area.create);
  on('post', '/api-de-cnpj/tokens/:id/ativar', area.activate);
  on('post', '/api-de-cnpj/tokens/:id/desativar', area.deactivate);
}
