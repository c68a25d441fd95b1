// The path of every web request: errors become a page (never a stack trace), GET pages need a
// session, state-changing POSTs need a session and its CSRF token; each refusal is a 403 page.
import { redactTokens, redactUrl } from '../http/log.ts';
import type { WebContext } from './context.ts';
import { csrfMatches, CSRF_FIELD } from './csrf.ts';
import { BodyTooLargeError, readForm, redirect, sendHtml, type Req, type Res } from './http.ts';
import { errorPage } from './pages/error.ts';
import { currentViewer, headerUser, type Viewer } from './viewer.ts';

export type Handler = (req: Req, res: Res) => Promise<void>;

/** Catches what a handler throws: a 500 page for the person, the details for the log. */
export function guarded(ctx: WebContext, handler: Handler): (req: Req, res: Res) => void {
  const log = ctx.log ?? ((line: string) => console.error(line));
  return (req, res) => {
    handler(req, res).catch((err: unknown) => {
      if (err instanceof BodyTooLargeError) {
        // The rest of the body is still on its way: closing after the answer spares reading it
        // (node would, until its requestTimeout) and frees the connection at once.
        if (res.headersSent) return void res.destroy();
        res.setHeader('Connection', 'close');
        sendHtml(res, errorPage('Envio grande demais', 'O formulário enviado é maior do que o permitido.'), { status: 413 });
        return;
      }
      log(redactTokens(`web: ${req.method} ${redactUrl(req.url ?? '')}: ${(err as Error)?.stack ?? String(err)}`));
      if (!res.headersSent) {
        sendHtml(res, errorPage('Erro interno', 'Algo deu errado do nosso lado. Tente novamente em instantes.'), { status: 500 });
      } else {
        res.destroy();
      }
    });
  };
}

export function forbidden(res: Res, message: string, viewer?: Viewer): void {
  sendHtml(res, errorPage('Acesso negado', message, viewer && headerUser(viewer)), { status: 403 });
}

/** A page for a logged-in user; without a session the browser goes to the login page. */
export function page(ctx: WebContext, handler: (req: Req, res: Res, viewer: Viewer) => Promise<void> | void) {
  return guarded(ctx, async (req, res) => {
    const viewer = await currentViewer(ctx, req);
    if (!viewer) return redirect(res, '/login');
    await handler(req, res, viewer);
  });
}

/** A state-changing form post: session and CSRF token first, then the handler with the parsed form. */
export function action(ctx: WebContext, handler: (req: Req, res: Res, viewer: Viewer, form: URLSearchParams) => Promise<void> | void) {
  return guarded(ctx, async (req, res) => {
    const viewer = await currentViewer(ctx, req);
    const form = await readForm(req);
    if (!viewer) return forbidden(res, 'Sua sessão expirou ou não existe. Entre novamente.');
    if (!csrfMatches(viewer.session.csrfSecret, form.get(CSRF_FIELD))) {
      return forbidden(res, 'O formulário não pôde ser validado (token de segurança ausente ou inválido). Recarregue a página e tente de novo.', viewer);
    }
    await handler(req, res, viewer, form);
  });
}
