// The path of every web request: GET pages need a session, state-changing POSTs need a session
// and its CSRF token; each refusal is a 403 page. A handler's unexpected failure goes to the
// app's one error handler (src/server/app.ts), which shows internalErrorPage.
import type { WebContext } from './context.ts';
import { csrfMatches, CSRF_FIELD } from './csrf.ts';
import { BodyTooLargeError, readForm, redirect, sendHtml, type Req, type Res } from './http.ts';
import { errorPage } from './pages/error.ts';
import { currentViewer, headerUser, type Viewer } from './viewer.ts';

/** The 500 page: a sentence for the person (the details go to the log). */
export function internalErrorPage(res: Res): void {
  sendHtml(res, errorPage('Erro interno', 'Algo deu errado do nosso lado. Tente novamente em instantes.'), {
    status: 500,
  });
}

/** The posted form, or null once a body over the limit got its 413 page (the client's error, not logged). */
export async function formOf(req: Req, res: Res): Promise<URLSearchParams | null> {
  try {
    return await readForm(req);
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err;
    // The rest of the body is still on its way: closing after the answer spares reading it
    // (node would, until its requestTimeout) and frees the connection at once.
    if (res.headersSent) res.destroy();
    else {
      res.setHeader('Connection', 'close');
      sendHtml(res, errorPage('Envio grande demais', 'O formulário enviado é maior do que o permitido.'), {
        status: 413,
      });
    }
    return null;
  }
}

export function forbidden(res: Res, message: string, viewer?: Viewer): void {
  sendHtml(res, errorPage('Acesso negado', message, viewer && headerUser(viewer)), { status: 403 });
}

/** A page for a logged-in user; without a session the browser goes to the login page. */
export function page(ctx: WebContext, handler: (req: Req, res: Res, viewer: Viewer) => Promise<void> | void) {
  return async (req: Req, res: Res): Promise<void> => {
    const viewer = await currentViewer(ctx, req);
    if (!viewer) return redirect(res, '/login');
    await handler(req, res, viewer);
  };
}

/** A state-changing form post: session and CSRF token first, then the handler with the parsed form. */
export function action(
  ctx: WebContext,
  handler: (req: Req, res: Res, viewer: Viewer, form: URLSearchParams) => Promise<void> | void,
) {
  return async (req: Req, res: Res): Promise<void> => {
    const viewer = await currentViewer(ctx, req);
    const form = await formOf(req, res);
    if (form === null) return;
    if (!viewer) return forbidden(res, 'Sua sessão expirou ou não existe. Entre novamente.');
    if (!csrfMatches(viewer.session.csrfSecret, form.get(CSRF_FIELD))) {
      return forbidden(
        res,
        'O formulário não pôde ser validado (token de segurança ausente ou inválido). Recarregue a página e tente de novo.',
        viewer,
      );
    }
    await handler(req, res, viewer, form);
  };
}
