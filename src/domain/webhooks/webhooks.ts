// Registering an account's webhooks (app.db `webhooks`, migration 0007): create with a secret shown
// once, list, enable/disable, delete. Every call is scoped to the account: another account's
// webhook id is "not found".
import type { Sqlite } from '../../storage/sqlite.ts';
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

interface Row {
  id: number;
  account_id: number;
  url: string;
  enabled: number;
  created_at: string;
  created_by: string;
  pending: number;
  last_status: Webhook['lastStatus'];
}

const SELECT = `SELECT w.id, w.account_id, w.url, w.enabled, w.created_at, w.created_by,
  (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending,
  (SELECT d.status FROM webhook_deliveries d WHERE d.webhook_id = w.id ORDER BY d.rowid DESC LIMIT 1) AS last_status
  FROM webhooks w`;

const toWebhook = (r: Row): Webhook => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  enabled: r.enabled === 1,
  createdAt: r.created_at,
  createdBy: r.created_by,
  pending: r.pending,
  lastStatus: r.last_status,
});

/** The secret is returned here only: the caller shows it once. */
export async function createWebhook(
  app: Sqlite,
  input: { accountId: number; url: string; createdBy: string },
  policy: DestinationPolicy,
  now: () => Date = () => new Date(),
): Promise<{ webhook: Webhook; secret: string }> {
  const url = parseWebhookUrl(input.url, policy);
  await checkDestination(url, policy);
  const secret = newSecret();
  const id = app
    .transaction(() => {
      const count = app
        .prepare('SELECT count(*) FROM webhooks WHERE account_id = ?')
        .pluck()
        .get(input.accountId) as number;
      if (count >= MAX_WEBHOOKS_PER_ACCOUNT) {
        throw new WebhookError(
          'limit_reached',
          `Limite de ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks por conta atingido: exclua um antes de cadastrar outro.`,
        );
      }
      return app
        .prepare(
          'INSERT INTO webhooks (account_id, url, secret, created_at, created_by) VALUES (?, ?, ?, ?, ?) RETURNING id',
        )
        .pluck()
        .get(input.accountId, url.href, secret, now().toISOString(), input.createdBy) as number;
    })
    .immediate();
  return { webhook: getWebhook(app, input.accountId, id), secret };
}

export function listWebhooks(app: Sqlite, accountId: number): Webhook[] {
  return (app.prepare(`${SELECT} WHERE w.account_id = ? ORDER BY w.id`).all(accountId) as Row[]).map(toWebhook);
}

export function getWebhook(app: Sqlite, accountId: number, id: number): Webhook {
  const row = app.prepare(`${SELECT} WHERE w.id = ? AND w.account_id = ?`).get(id, accountId) as Row | undefined;
  if (!row) throw new WebhookError('not_found', 'Webhook não encontrado.');
  return toWebhook(row);
}

/** A disabled webhook gets nothing queued and nothing sent; its pending deliveries wait. */
export function setWebhookEnabled(app: Sqlite, accountId: number, id: number, enabled: boolean): Webhook {
  const r = app
    .prepare('UPDATE webhooks SET enabled = ? WHERE id = ? AND account_id = ?')
    .run(enabled ? 1 : 0, id, accountId);
  if (r.changes === 0) throw new WebhookError('not_found', 'Webhook não encontrado.');
  return getWebhook(app, accountId, id);
}

/** Its deliveries and queued months go with it (ON DELETE CASCADE). */
export function deleteWebhook(app: Sqlite, accountId: number, id: number): void {
  const r = app.prepare('DELETE FROM webhooks WHERE id = ? AND account_id = ?').run(id, accountId);
  if (r.changes === 0) throw new WebhookError('not_found', 'Webhook não encontrado.');
}
