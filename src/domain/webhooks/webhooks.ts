// Registering an account's webhooks (app.db `webhooks`, migration 0007): create with a secret shown
// once, list, enable/disable, delete. Every call is scoped to the account: another account's
// webhook id is "not found".
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { checkDestination, parseWebhookUrl, type DestinationPolicy } from './destination.ts';
import { WebhookError } from './errors.ts';
import { newSecret } from './signing.ts';

/** Per account: each webhook gets every delivery, so a few are plenty. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 5;

export interface Webhook {
  id: number;
  accountId: number;
  url: string;
  enabled: boolean;
  createdAt: string;
  createdBy: string;
  /** Deliveries still to send, and the newest one's status. */
  pending: number;
  lastStatus: 'pending' | 'delivered' | 'failed' | null;
}

const notFound = () => new WebhookError('not_found', 'Webhook não encontrado.');

function selectWebhooks(store: AppStore) {
  return store.db
    .selectFrom('webhooks as w')
    .select((eb) => [
      'w.id',
      'w.account_id',
      'w.url',
      'w.enabled',
      'w.created_at',
      'w.created_by',
      eb
        .selectFrom('webhook_deliveries as d')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('d.webhook_id', '=', 'w.id')
        .where('d.status', '=', 'pending')
        .as('pending'),
      eb
        .selectFrom('webhook_deliveries as d')
        .select('d.status')
        .whereRef('d.webhook_id', '=', 'w.id')
        .orderBy('d.seq', 'desc')
        .limit(1)
        .as('last_status'),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectWebhooks>['execute']>>[number];

const toWebhook = (r: Row): Webhook => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  enabled: r.enabled === 1,
  createdAt: r.created_at,
  createdBy: r.created_by,
  pending: Number(r.pending ?? 0),
  lastStatus: r.last_status ?? null,
});

/** The secret is returned here only: the caller shows it once. */
export async function createWebhook(
  store: AppStore,
  input: { accountId: number; url: string; createdBy: string },
  policy: DestinationPolicy,
  now: () => Date = () => new Date(),
): Promise<{ webhook: Webhook; secret: string }> {
  const url = parseWebhookUrl(input.url, policy);
  await checkDestination(url, policy);
  const secret = newSecret();
  const id = await writeTransaction(store, async (tx) => {
    // Before the count: another node creating one for this account waits until this one commits.
    await lockFor(tx, 'webhooks', input.accountId);
    const { n } = await tx.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', input.accountId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw new WebhookError(
        'limit_reached',
        `Limite de ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks por conta atingido: exclua um antes de cadastrar outro.`,
      );
    }
    const row = await tx.db
      .insertInto('webhooks')
      .values({
        account_id: input.accountId,
        url: url.href,
        secret,
        created_at: now().toISOString(),
        created_by: input.createdBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return { webhook: await getWebhook(store, input.accountId, id), secret };
}

export async function listWebhooks(store: AppStore, accountId: number): Promise<Webhook[]> {
  const rows = await selectWebhooks(store).where('w.account_id', '=', accountId).orderBy('w.id').execute();
  return rows.map(toWebhook);
}

export async function getWebhook(store: AppStore, accountId: number, id: number): Promise<Webhook> {
  const row = await selectWebhooks(store)
    .where('w.id', '=', id)
    .where('w.account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return toWebhook(row);
}

/** A disabled webhook gets nothing queued and nothing sent; its pending deliveries wait. */
export async function setWebhookEnabled(
  store: AppStore,
  accountId: number,
  id: number,
  enabled: boolean,
): Promise<Webhook> {
  const r = await store.db
    .updateTable('webhooks')
    .set({ enabled: enabled ? 1 : 0 })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound();
  return getWebhook(store, accountId, id);
}

/** Its deliveries and queued months go with it (ON DELETE CASCADE). */
export async function deleteWebhook(store: AppStore, accountId: number, id: number): Promise<void> {
  const r = await store.db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw notFound();
}
