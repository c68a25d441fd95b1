// The Webhooks page of the "API de CNPJ" area and its actions (docs/webhooks.md). Billing
// administrators of an active account change webhooks; members only look.
import { WebhookError } from '../../../domain/webhooks/errors.ts';
import { queueTestEvent, recentDeliveries, redeliver } from '../../../domain/webhooks/queue.ts';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_ACCOUNT,
  setWebhookEnabled,
} from '../../../domain/webhooks/webhooks.ts';
import type { WebContext } from '../context.ts';
import { action, forbidden, page } from '../guard.ts';
import { redirect, sendHtml, type Req, type Res } from '../http.ts';
import { webhooksPage } from '../pages/webhooks.ts';
import { setFlash, takeFlash } from '../session.ts';
import { headerUser, type Viewer } from '../viewer.ts';

const PATH = '/api-de-cnpj/webhooks';
const RECENT = 10;

function refuseUnlessManager(res: Res, viewer: Viewer): boolean {
  if (viewer.canManage) return false;
  forbidden(
    res,
    viewer.account.status !== 'active'
      ? 'A conta está suspensa: não é possível alterar webhooks.'
      : 'Somente administradores de cobrança podem cadastrar, testar, desativar ou excluir webhooks.',
    viewer,
  );
  return true;
}

/** A webhook id from the path: digits only (Number() would also read 0x1 or 1e0). */
const idParam = (req: Req): number => {
  const raw = req.params?.id ?? '';
  return /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
};

export function webhookRoutes(ctx: WebContext) {
  const policy = ctx.webhooks ?? {};

  const render = async (
    res: Res,
    viewer: Viewer,
    extra: { formUrl?: string; formError?: string; status?: number } = {},
  ) => {
    const flash = await takeFlash(ctx.store.db, viewer.session);
    const accountId = viewer.account.id;
    const webhooks = [];
    for (const webhook of await listWebhooks(ctx.store, accountId))
      webhooks.push({ webhook, deliveries: await recentDeliveries(ctx.store, accountId, webhook.id, RECENT) });
    sendHtml(
      res,
      webhooksPage({
        viewer: headerUser(viewer),
        webhooks,
        canManage: viewer.canManage,
        isMember: viewer.user.role === 'member',
        max: MAX_WEBHOOKS_PER_ACCOUNT,
        flash,
        httpAllowed: policy.allowHttp ?? false,
        ...extra,
      }),
      // The page may carry a new secret: nothing may keep a copy.
      { status: extra.status, noStore: true },
    );
  };

  const show = page(ctx, (_req, res, viewer) => render(res, viewer));

  const create = action(ctx, async (_req, res, viewer, form) => {
    if (refuseUnlessManager(res, viewer)) return;
    const url = (form.get('url') ?? '').trim().slice(0, 2100);
    try {
      const created = await createWebhook(
        ctx.store,
        { accountId: viewer.account.id, url, createdBy: String(viewer.user.id) },
        policy,
        ctx.now,
      );
      await setFlash(ctx.store.db, viewer.session, {
        kind: 'webhook',
        secret: created.secret,
        url: created.webhook.url,
      });
    } catch (err) {
      if (err instanceof WebhookError)
        return render(res, viewer, { formUrl: url, formError: err.message, status: 422 });
      throw err;
    }
    redirect(res, PATH);
  });

  /** An action on one of the account's webhooks or deliveries, its outcome as a flash. */
  const act = (run: (req: Req, viewer: Viewer) => Promise<string>) =>
    action(ctx, async (req, res, viewer) => {
      if (refuseUnlessManager(res, viewer)) return;
      try {
        await setFlash(ctx.store.db, viewer.session, { kind: 'notice', text: await run(req, viewer) });
      } catch (err) {
        if (!(err instanceof WebhookError)) throw err;
        await setFlash(ctx.store.db, viewer.session, { kind: 'error', text: err.message });
      }
      redirect(res, PATH);
    });
  const webhookId = (req: Req): number => {
    const id = idParam(req);
    if (!Number.isSafeInteger(id)) throw new WebhookError('not_found', 'Webhook não encontrado.');
    return id;
  };

  return {
    show,
    create,
    test: act(async (req, v) => {
      await queueTestEvent(ctx.store, v.account.id, webhookId(req), ctx.now());
      return 'Evento de teste na fila: será enviado em alguns segundos.';
    }),
    enable: act(
      async (req, v) =>
        `Webhook ${(await setWebhookEnabled(ctx.store, v.account.id, webhookId(req), true)).url} ativado.`,
    ),
    disable: act(
      async (req, v) =>
        `Webhook ${(await setWebhookEnabled(ctx.store, v.account.id, webhookId(req), false)).url} desativado.`,
    ),
    remove: act(async (req, v) => {
      await deleteWebhook(ctx.store, v.account.id, webhookId(req));
      return 'Webhook excluído, com as suas entregas.';
    }),
    redeliver: act(async (req, v) => {
      const id = req.params?.id ?? '';
      if (!/^[0-9a-f-]{36}$/.test(id)) throw new WebhookError('not_found', 'Entrega não encontrada.');
      await redeliver(ctx.store, v.account.id, id, ctx.now());
      return 'Entrega reenviada: mesmo identificador e mesmo conteúdo, de volta à fila.';
    }),
  };
}
