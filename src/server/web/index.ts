// Web app (server-rendered pages): its entries of the server's route table (src/server/app.ts).
//
// Routes:
//   GET  /                         → /api-de-cnpj when logged in, else /login
//   GET  /login, POST /login       login form (CSRF double-submit, throttled)
//   POST /logout
//   GET  /api-de-cnpj              the "API de CNPJ" area: plan, usage, chart, curl example
//   GET  /api-de-cnpj/consulta     company search form and a page of results (counted like the API)
//   GET  /api-de-cnpj/consulta.csv the results page as CSV; …/consulta/:cnpj the full record
//   GET  /api-de-cnpj/tokens       token list, creation form, one-time display of a new token
//   POST /api-de-cnpj/tokens       create (billing administrators of active accounts only)
//   POST /api-de-cnpj/tokens/:id/ativar | /desativar
//   GET  /api-de-cnpj/webhooks     webhooks and their recent deliveries (docs/webhooks.md); POST to
//        register, …/:id/teste | /ativar | /desativar | /excluir, …/entregas/:id/reenviar
//   GET  /api-de-cnpj/monitoramento  the watchlist, its use of the plan's limit, the newest month's changes
//   POST /api-de-cnpj/monitoramento  add a CNPJ; …/monitoramento/remover remove one (any user of an active account)
//   GET  /static/…                 the stylesheet, the copy-button script, the favicon (content-hashed)
//   GET  /favicon.ico              the favicon, for browsers that ask before reading the page
// and wantsPage()/notFound(): a browser asking for a path no route has gets the 404 page.
import type { Route, RouteHandler } from '../http/router.ts';
import { COPY_SCRIPT_JS, COPY_SCRIPT_PATH } from './assets/copy-script.ts';
import { FAVICON_PATH, FAVICON_SVG } from './assets/favicon.ts';
import { STYLE_CSS, STYLE_PATH } from './assets/style.ts';
import type { WebContext } from './context.ts';
import { redirect, sendHtml, setSecurityHeaders, type Req, type Res } from './http.ts';
import { errorPage } from './pages/error.ts';
import { apiAreaRoutes } from './routes/api-area.ts';
import { consultaRoutes } from './routes/consulta.ts';
import { SUGGEST_PATH, SUGGEST_SCRIPT } from './pages/consulta.ts';
import { loginRoutes } from './routes/login.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { monitoramentoRoutes } from './routes/monitoramento.ts';
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

export interface WebApp {
  routes: Route[];
  /**
   * A browser asking for a page (Accept: text/html, a path outside /api/): a request no route
   * matched gets the Portuguese 404 page rather than the JSON error, and a failure the 500 page.
   */
  wantsPage(req: Req): boolean;
  notFound(req: Req, res: Res): Promise<void>;
}

const isApiPath = (path: string): boolean => path === '/api' || path.startsWith('/api/');

export function webApp(ctx: WebContext): WebApp {
  const get = (path: string, handler: RouteHandler): Route => ({ method: 'GET', path, handler, html: true });
  const post = (path: string, handler: RouteHandler): Route => ({ method: 'POST', path, handler, html: true });
  const login = loginRoutes(ctx);
  const area = apiAreaRoutes(ctx);
  const consulta = consultaRoutes(ctx);
  const hooks = webhookRoutes(ctx);
  const monitoramento = monitoramentoRoutes(ctx);
  const start = async (req: Req, res: Res) =>
    redirect(res, (await currentViewer(ctx, req)) ? '/api-de-cnpj' : '/login');

  return {
    routes: [
      get(STYLE_PATH, asset(STYLE_CSS, 'text/css; charset=utf-8')),
      get(COPY_SCRIPT_PATH, asset(COPY_SCRIPT_JS, 'text/javascript; charset=utf-8')),
      get(SUGGEST_SCRIPT.path, asset(SUGGEST_SCRIPT.js, 'text/javascript; charset=utf-8')),
      get(FAVICON_PATH, asset(FAVICON_SVG, 'image/svg+xml')),
      get('/favicon.ico', asset(FAVICON_SVG, 'image/svg+xml', 'public, max-age=86400')),
      get('/', start),
      get('/app', start),
      get('/login', login.showLogin),
      post('/login', login.doLogin),
      post('/logout', login.doLogout),
      get('/api-de-cnpj', area.home),
      get('/api-de-cnpj/consulta', consulta.show),
      get('/api-de-cnpj/consulta.csv', consulta.csv),
      get(SUGGEST_PATH, consulta.suggest),
      get('/api-de-cnpj/consulta/:cnpj', consulta.record),
      get('/api-de-cnpj/tokens', area.tokens),
      post('/api-de-cnpj/tokens', area.create),
      post('/api-de-cnpj/tokens/:id/ativar', area.activate),
      post('/api-de-cnpj/tokens/:id/desativar', area.deactivate),
      get('/api-de-cnpj/webhooks', hooks.show),
      post('/api-de-cnpj/webhooks', hooks.create),
      post('/api-de-cnpj/webhooks/:id/teste', hooks.test),
      post('/api-de-cnpj/webhooks/:id/ativar', hooks.enable),
      post('/api-de-cnpj/webhooks/:id/desativar', hooks.disable),
      post('/api-de-cnpj/webhooks/:id/excluir', hooks.remove),
      post('/api-de-cnpj/webhooks/entregas/:id/reenviar', hooks.redeliver),
      get('/api-de-cnpj/monitoramento', monitoramento.show),
      post('/api-de-cnpj/monitoramento', monitoramento.add),
      post('/api-de-cnpj/monitoramento/remover', monitoramento.remove),
    ],
    wantsPage(req) {
      const path = (req.url ?? '/').split('?')[0]!;
      return !isApiPath(path) && /\btext\/html\b/i.test(String(req.headers.accept ?? ''));
    },
    async notFound(req, res) {
      const viewer = await currentViewer(ctx, req);
      const message = 'O endereço que você abriu não existe nesta aplicação. Confira o link ou volte para o início.';
      sendHtml(res, errorPage('Página não encontrada', message, viewer ? headerUser(viewer) : undefined), {
        status: 404,
      });
    },
  };
}
