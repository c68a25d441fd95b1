// The Monitoramento page (GET /api-de-cnpj/monitoramento[?cursor=]) and its two forms: add a CNPJ
// (POST …/monitoramento) and remove one (POST …/monitoramento/remover). Every user of the account
// may change the list while the account is active; the plan's limit is the API's (one transaction,
// domain/watchlist/add.ts). Managing the list here counts no call: it reads no registry data.
import { ERRORS } from '../../../domain/api-errors.ts';
import { formatCnpj, normalizeCnpj } from '../../../domain/cnpj.ts';
import { addWatched } from '../../../domain/watchlist/add.ts';
import { watchlistChanges } from '../../../domain/watchlist/changes.ts';
import { watchlistUsage } from '../../../domain/watchlist/limit.ts';
import { readWatchlistCursor, watchedPage } from '../../../domain/watchlist/page.ts';
import { watchedCnpjs } from '../../../domain/watchlist/read.ts';
import { removeWatched } from '../../../domain/watchlist/remove.ts';
import type { WebContext } from '../context.ts';
import { formatMonth } from '../format.ts';
import { action, forbidden, page } from '../guard.ts';
import { redirect, sendHtml, type Req, type Res } from '../http.ts';
import { MONITORAMENTO_PATH, monitoramentoPage } from '../pages/monitoramento.ts';
import type { WatchChanges } from '../pages/watch-changes.ts';
import { setFlash, takeFlash } from '../session.ts';
import { headerUser, type Viewer } from '../viewer.ts';

/** CNPJs per page of the list. */
export const PAGE_SIZE = 50;
/** Changes shown at most: the page stays readable (and light) for a list of 50,000. */
export const CHANGES_SHOWN = 500;

/** The page's cursor from the query, null for the first page or one that is not ours. */
function cursorOf(req: Req): { cursor: string; after: string } | null {
  const raw = req.query?.cursor;
  const cursor = typeof raw === 'string' ? raw : null;
  const after = cursor ? readWatchlistCursor(cursor) : null;
  return cursor && after ? { cursor, after } : null;
}

async function changesOf(ctx: WebContext, accountId: number): Promise<WatchChanges> {
  const month = ctx.history.latestMonth();
  const monthLabel = month ? formatMonth(new Date(`${month}-15T12:00:00Z`)) : null;
  const cnpjs = await watchedCnpjs(ctx.store, accountId);
  const db = month ? ctx.history.connection() : null;
  const found = db && month ? watchlistChanges(db, month, cnpjs, CHANGES_SHOWN) : { items: [], total: 0 };
  return { month, monthLabel, ...found, watched: cnpjs.length };
}

export function monitoramentoRoutes(ctx: WebContext) {
  const render = async (req: Req, res: Res, viewer: Viewer, form?: { cnpj: string; error: string }) => {
    const flash = await takeFlash(ctx.store.db, viewer.session);
    const at = cursorOf(req);
    const id = viewer.account.id;
    const listed = await watchedPage(ctx.store, id, PAGE_SIZE, at?.after ?? null);
    const usage = (await watchlistUsage(ctx.store, id))!;
    const changes = await changesOf(ctx, id);
    sendHtml(
      res,
      monitoramentoPage({
        viewer: headerUser(viewer),
        canChange: viewer.account.status === 'active',
        usage,
        page: listed.data,
        cursor: at?.cursor ?? null,
        nextCursor: listed.next_cursor,
        changes,
        flash,
        form,
      }),
      { status: form ? 422 : undefined },
    );
  };

  /** Back to the page the form was on. */
  const back = (req: Req, res: Res) => {
    const at = cursorOf(req);
    redirect(res, at ? `${MONITORAMENTO_PATH}?cursor=${encodeURIComponent(at.cursor)}` : MONITORAMENTO_PATH);
  };

  const refuseIfSuspended = (res: Res, viewer: Viewer): boolean => {
    if (viewer.account.status === 'active') return false;
    forbidden(res, 'A conta está suspensa: a lista de monitoramento não pode ser alterada.', viewer);
    return true;
  };

  const show = page(ctx, (req, res, viewer) => render(req, res, viewer));

  const add = action(ctx, async (req, res, viewer, form) => {
    if (refuseIfSuspended(res, viewer)) return;
    const typed = (form.get('cnpj') ?? '').trim().slice(0, 40);
    const cnpj = normalizeCnpj(typed);
    if (cnpj === null) return render(req, res, viewer, { cnpj: typed, error: ERRORS.invalid_cnpj.message });
    const r = await addWatched(ctx.store, viewer.account.id, [cnpj], ctx.now());
    if (!r.ok)
      return render(req, res, viewer, {
        cnpj: typed,
        error: ERRORS.watchlist_limit_exceeded.specific({
          plan: r.plan,
          limit: r.limit,
          needed: r.needed,
          remaining: r.remaining,
        }),
      });
    const added = r.rows.get(cnpj)!.added;
    await setFlash(ctx.store.db, viewer.session, {
      kind: 'notice',
      text: added ? `CNPJ ${formatCnpj(cnpj)} adicionado à lista.` : `O CNPJ ${formatCnpj(cnpj)} já estava na lista.`,
    });
    back(req, res);
  });

  const remove = action(ctx, async (req, res, viewer, form) => {
    if (refuseIfSuspended(res, viewer)) return;
    const cnpj = normalizeCnpj(form.get('cnpj') ?? '');
    const removed = cnpj !== null && (await removeWatched(ctx.store, viewer.account.id, cnpj));
    await setFlash(
      ctx.store.db,
      viewer.session,
      removed
        ? { kind: 'notice', text: `CNPJ ${formatCnpj(cnpj!)} removido da lista.` }
        : { kind: 'error', text: ERRORS.not_watched.message },
    );
    back(req, res);
  });

  return { show, add, remove };
}
