// GET/POST /login and POST /logout.
import { verifyLogin } from '../../../domain/accounts/users.ts';
import type { WebContext } from '../context.ts';
import { csrfMatches, CSRF_FIELD, LOGIN_CSRF_COOKIE } from '../csrf.ts';
import { action, forbidden, formOf } from '../guard.ts';
import { clientIp, isHttps, parseCookies, redirect, sendHtml, setCookie, type Req, type Res } from '../http.ts';
import { clearLoginFailures, reserveLoginAttempt, WINDOW_MS } from '../../../domain/accounts/login-throttle.ts';
import { loginPage } from '../pages/login.ts';
import { isRandomToken, randomToken } from '../random.ts';
import { createSession, destroySession, SESSION_COOKIE, SESSION_TTL_MS } from '../session.ts';
import { currentViewer } from '../viewer.ts';

const BAD_LOGIN = 'E-mail ou senha inválidos.';
const BLOCKED = `Muitas tentativas de entrada sem sucesso. Por segurança, aguarde ${WINDOW_MS / 60_000} minutos e tente novamente.`;

/** The login form's double-submit token: reuse the browser's cookie when it has one. */
function loginCsrf(ctx: WebContext, req: Req, res: Res): string {
  const existing = parseCookies(req).get(LOGIN_CSRF_COOKIE);
  if (isRandomToken(existing)) return existing;
  const token = randomToken();
  setCookie(res, LOGIN_CSRF_COOKIE, token, { maxAgeSeconds: 3600, secure: isHttps(req, ctx), sameSite: 'Strict' });
  return token;
}

export function loginRoutes(ctx: WebContext) {
  const showLogin = async (req: Req, res: Res): Promise<void> => {
    if (await currentViewer(ctx, req)) return redirect(res, '/api-de-cnpj');
    const notice = req.query?.saiu !== undefined ? 'Você saiu da sua conta.' : undefined;
    sendHtml(res, loginPage({ csrfToken: loginCsrf(ctx, req, res), notice }));
  };

  const doLogin = async (req: Req, res: Res): Promise<void> => {
    const form = await formOf(req, res);
    if (form === null) return;
    const cookieToken = parseCookies(req).get(LOGIN_CSRF_COOKIE);
    if (!cookieToken || !csrfMatches(cookieToken, form.get(CSRF_FIELD))) {
      return forbidden(
        res,
        'O formulário de entrada expirou ou não pôde ser validado. Abra a página de entrada de novo.',
      );
    }
    const email = (form.get('email') ?? '').trim().toLowerCase().slice(0, 254);
    const password = (form.get('senha') ?? '').slice(0, 1024);
    const ip = clientIp(req, ctx.trustProxy ?? false);
    const now = ctx.now();
    const again = (status: number, error: string) =>
      sendHtml(res, loginPage({ csrfToken: cookieToken, email, error }), { status });

    // The slot is taken before the (async) password check: concurrent guesses cannot all pass.
    const slot = await reserveLoginAttempt(ctx.store, email, ip, now);
    if (!slot.ok) {
      res.setHeader('Retry-After', String(slot.retryAfterSeconds));
      return again(429, BLOCKED);
    }
    const user = email && password ? await verifyLogin(ctx.store, email, password) : null;
    if (!user) return again(401, BAD_LOGIN);
    await clearLoginFailures(ctx.store, email, ip);
    // A fresh session id at every login: a cookie planted before login is worth nothing after it.
    const cookie = await createSession(ctx.store.db, user.id, now);
    const secure = isHttps(req, ctx);
    setCookie(res, SESSION_COOKIE, cookie, { maxAgeSeconds: SESSION_TTL_MS / 1000, secure });
    setCookie(res, LOGIN_CSRF_COOKIE, '', { maxAgeSeconds: 0, secure, sameSite: 'Strict' });
    redirect(res, '/api-de-cnpj');
  };

  const doLogout = action(ctx, async (req, res, viewer) => {
    await destroySession(ctx.store.db, viewer.session);
    setCookie(res, SESSION_COOKIE, '', { maxAgeSeconds: 0, secure: isHttps(req, ctx) });
    redirect(res, '/login?saiu');
  });

  return { showLogin, doLogin, doLogout };
}
