// Web app (server-rendered pages). Mounted on the same polka app as the API by src/server/app.ts.
//
// Routes:
//   GET  /                         → /api-de-cnpj when logged in, else /login
//   GET  /login, POST /login       login form (CSRF double-submit, throttled)
//   POST /logout
//   GET  /api-de-cnpj              the "API de CNPJ" area: plan, usage, chart, curl example
//   GET  /api-de-cnpj/tokens       token list, creation form, one-time display of a new token
//   POST /api-de-cnpj/tokens       create (billing administrators of active accounts only)
//   POST /api-de-cnpj/tokens/:id/ativar | /desativar
//   GET  /static/…                 the stylesheet, the copy-button script, the favicon (content-hashed)
//   GET  /favicon.ico              the favicon, for browsers that ask before reading the page
// and notFound(): the 404 page for browsers, called by the API's no-match handler.
import type { Middleware, Polka } from 'polka';
import { COPY_SCRIPT_JS, COPY_SCRIPT_PATH } from './assets/copy-script.ts';
import { FAVICON_PATH, FAVICON_SVG } from './assets/favicon.ts';
import { STYLE_CSS, STYLE_PATH } from './assets/style.ts';
import type { WebContext } from './context.ts';
import { guarded } from './guard.ts';
import { redirect, sendHtml, setSecurityHeaders, type Req, type Res } from './http.ts';
import { errorPage } from './pages/error.ts';
import { apiAreaRoutes } from './routes/api-area.ts';
import { loginRoutes } from './routes/login.ts';
import { currentViewer, headerUser } from './viewer.ts';

export type { WebContext } from './context.ts';

// A content-hashed path can be cached for good; a fixed one (/favicon.ico) for a day.
const IMMUTABLE = 'public, max-age=31536000, immutable';

function asset(body: string, type: string, cacheControl = IMMUTABLE) {
  const bytes = Buffer.from(body);
  return (_req: Req, res: Res) => {
    setSecurityHeaders(res);
    res.setHeader('Content-Type', type);
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
  };
}

export interface MountedWeb {
  /**
   * For a request no route matched: a browser asking for a page (Accept: text/html, a path outside
   * /api/) gets the Portuguese 404 page and true; anything else false, and keeps the JSON error.
   */
  notFound(req: Req, res: Res): boolean;
}

const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

export function mountWeb(app: Polka, ctx: WebContext): MountedWeb {
  // polka's types come from express; our handlers take plain node request/response objects.
  const on = (method: 'get' | 'post', path: string, handler: (req: Req, res: Res) => void) =>
    app[method](path, handler as unknown as Middleware);

  const login = loginRoutes(ctx);
  const area = apiAreaRoutes(ctx);

  on('get', STYLE_PATH, asset(STYLE_CSS, 'text/css; charset=utf-8'));
  on('get', COPY_SCRIPT_PATH, asset(COPY_SCRIPT_JS, 'text/javascript; charset=utf-8'));
  on('get', FAVICON_PATH, asset(FAVICON_SVG, 'image/svg+xml'));
  on('get', '/favicon.ico', asset(FAVICON_SVG, 'image/svg+xml', 'public, max-age=86400'));

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

  const notFoundPage = guarded(ctx, async (req, res) => {
    const viewer = await currentViewer(ctx, req);
    const message = 'O endereço que você abriu não existe nesta aplicação. Confira o link ou volte para o início.';
    sendHtml(res, errorPage('Página não encontrada', message, viewer ? headerUser(viewer) : undefined), { status: 404 });
  });
  return {
    notFound(req, res) {
      const path = (req.url ?? '/').split('?')[0]!;
      if (isApiPath(path) || !/\btext\/html\b/i.test(String(req.headers.accept ?? ''))) return false;
      notFoundPage(req, res);
      return true;
    },
  };
}
