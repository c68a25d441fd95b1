// The "API de CNPJ" area: the home page and the token page with its three actions.
import { NO_TOKEN } from '../../../domain/metering/access.ts';
import { AccountsError } from '../../../domain/accounts/errors.ts';
import { webMessage } from '../accounts-messages.ts';
import { spDay, spMonth } from '../../../domain/metering/time.ts';
import { activateToken, createToken, deactivateToken, listTokens } from '../../../domain/accounts/tokens.ts';
import { currentUsage, dailyUsage } from '../../../domain/accounts/usage.ts';
import type { DayCount } from '../chart.ts';
import type { WebContext } from '../context.ts';
import { daysInMonth, formatMonth, parseBrDate } from '../format.ts';
import { action, forbidden, page } from '../guard.ts';
import { redirect, sendHtml, type Res } from '../http.ts';
import { homePage } from '../pages/home.ts';
import { EXPIRY_CHOICES, tokensPage, type TokenForm } from '../pages/tokens.ts';
import { setFlash, takeFlash } from '../session.ts';
import { headerUser, type Viewer } from '../viewer.ts';

const TOKENS_PATH = '/api-de-cnpj/tokens';

/**
 * The days of the current São Paulo month up to today with the account's calls (all tokens and
 * the Consulta page summed), and the Consulta page's share of each.
 */
async function monthDays(ctx: WebContext, accountId: number, now: Date): Promise<DayCount[]> {
  const month = spMonth(now);
  const today = spDay(now);
  const perDay = new Map<string, number>();
  const webPerDay = new Map<string, number>();
  for (const r of await dailyUsage(ctx.store, accountId, { from: `${month}-01`, to: today, now: ctx.now })) {
    perDay.set(r.day, (perDay.get(r.day) ?? 0) + r.calls);
    if (r.tokenId === NO_TOKEN) webPerDay.set(r.day, r.calls);
  }
  // Days still to come have no calls yet, not zero calls: they are not listed.
  return Array.from({ length: Number(today.slice(8, 10)) }, (_, i) => {
    const day = `${month}-${String(i + 1).padStart(2, '0')}`;
    return { day, calls: perDay.get(day) ?? 0, web: webPerDay.get(day) ?? 0 };
  });
}

/** Only a billing administrator of an active account may change tokens; say why otherwise. */
function refuseUnlessManager(res: Res, viewer: Viewer): boolean {
  if (viewer.canManage) return false;
  forbidden(
    res,
    viewer.account.status !== 'active'
      ? 'A conta está suspensa: não é possível criar, ativar ou desativar tokens.'
      : 'Somente administradores de cobrança podem criar, ativar ou desativar tokens.',
    viewer,
  );
  return true;
}

export function apiAreaRoutes(ctx: WebContext) {
  const home = page(ctx, async (_req, res, viewer) => {
    const now = ctx.now();
    const usage = await currentUsage(ctx.store, viewer.account.id, ctx.now);
    const days = await monthDays(ctx, viewer.account.id, now);
    sendHtml(
      res,
      homePage({
        viewer: headerUser(viewer),
        accountSuspended: viewer.account.status !== 'active',
        usage,
        // The month label is for the São Paulo month; noon UTC of the 15th is safely inside it.
        monthLabel: formatMonth(new Date(`${spMonth(now)}-15T12:00:00Z`)),
        days,
        monthLength: daysInMonth(spMonth(now)),
        today: spDay(now),
        baseUrl: ctx.baseUrl,
      }),
    );
  });

  const renderTokens = async (
    res: Res,
    viewer: Viewer,
    extra: { form?: TokenForm; formError?: string; status?: number } = {},
  ) => {
    const flash = await takeFlash(ctx.store.db, viewer.session);
    const tokens = await listTokens(ctx.store, viewer.account.id, ctx.now);
    sendHtml(
      res,
      tokensPage({
        viewer: headerUser(viewer),
        tokens,
        canManage: viewer.canManage,
        isMember: viewer.user.role === 'member',
        accountSuspended: viewer.account.status !== 'active',
        flash,
        form: extra.form,
        formError: extra.formError,
      }),
      // The page may carry a new token: nothing may keep a copy (browser cache, back button, proxy).
      { status: extra.status, noStore: true },
    );
  };

  const tokens = page(ctx, (_req, res, viewer) => renderTokens(res, viewer));

  const create = action(ctx, async (_req, res, viewer, form) => {
    if (refuseUnlessManager(res, viewer)) return;
    const f: TokenForm = {
      name: (form.get('nome') ?? '').slice(0, 200),
      expiry: form.get('expiracao') ?? '',
      date: (form.get('data_expiracao') ?? '').trim().slice(0, 10),
    };
    const refuse = (formError: string) => renderTokens(res, viewer, { form: f, formError, status: 422 });
    if (!EXPIRY_CHOICES.some((c) => c.value === f.expiry)) return refuse('Escolha uma opção de expiração.');
    if (f.expiry === 'data' && !f.date) return refuse('Informe a data de expiração ou escolha outra opção.');
    const day = f.expiry === 'data' ? parseBrDate(f.date) : null;
    if (f.expiry === 'data' && !day)
      return refuse(`Data de expiração inválida: “${f.date}”. Use o formato dd/mm/aaaa, por exemplo 31/01/2027.`);
    try {
      const created = await createToken(
        ctx.store,
        { accountId: viewer.account.id, name: f.name, expires: day ?? f.expiry, createdBy: viewer.user.id },
        ctx.now,
      );
      await setFlash(ctx.store.db, viewer.session, { kind: 'token', token: created.token, name: created.info.name });
    } catch (err) {
      if (err instanceof AccountsError && (err.code === 'invalid_input' || err.code === 'invalid_state'))
        return refuse(webMessage(err));
      throw err;
    }
    redirect(res, TOKENS_PATH);
  });

  const toggle = (enable: boolean) =>
    action(ctx, async (req, res, viewer) => {
      if (refuseUnlessManager(res, viewer)) return;
      // Digits only: Number() would also read 0x1, 1e0 or " 1" as token 1.
      const raw = req.params?.id ?? '';
      const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
      try {
        if (!Number.isSafeInteger(id))
          throw new AccountsError('not_found', 'The token id is not a positive integer.', 'token_not_found');
        // Scoped to the viewer's account: another account's token id is "not found", not a leak.
        const t = await (enable ? activateToken : deactivateToken)(
          ctx.store,
          id,
          { accountId: viewer.account.id },
          ctx.now,
        );
        await setFlash(ctx.store.db, viewer.session, {
          kind: 'notice',
          text: `Token “${t.name}” ${enable ? 'ativado' : 'desativado'}.`,
        });
      } catch (err) {
        if (!(err instanceof AccountsError)) throw err;
        await setFlash(ctx.store.db, viewer.session, { kind: 'error', text: webMessage(err) });
      }
      redirect(res, TOKENS_PATH);
    });

  return { home, tokens, create, activate: toggle(true), deactivate: toggle(false) };
}
