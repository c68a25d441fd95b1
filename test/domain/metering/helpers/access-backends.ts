// The API's metering on either backend, over a store of forBackends(): on app.db over a connection
// of its own (as the server runs it), on PostgreSQL over the store's pool. Accounts and
// tokens are written with kysely through the store, the same statements on both databases.
import type { AccessLayer } from '../../../../src/domain/metering/access.ts';
import { Meter } from '../../../../src/domain/metering/meter.ts';
import { PgMetering } from '../../../../src/storage/app/metering-postgres.ts';
import { SqliteMetering } from '../../../../src/storage/app/metering-sqlite.ts';
import { displayPrefix, generateToken, hashToken } from '../../../../src/domain/metering/token-format.ts';
import type { Clock } from '../../../../src/domain/metering/time.ts';
import { openAppSqlite } from '../../../../src/storage/app/sqlite.ts';
import type { AppStore, OpenAppStore } from '../../../../src/storage/app/store.ts';

export interface OpenedAccess {
  access: AccessLayer;
  close(): void;
}

/** The backend's access layer for `store` (as startServer() picks it). */
export function accessFor(store: OpenAppStore, now?: Clock): OpenedAccess {
  if (store.backend === 'postgres') return { access: new Meter(new PgMetering(store.pool!), { now }), close() {} };
  const conn = openAppSqlite(store.dataDir, 'api');
  return { access: new Meter(new SqliteMetering(conn), { now }), close: () => conn.close() };
}

export async function addPlan(app: AppStore, name: string, quota: number, api: 0 | 1 = 1): Promise<void> {
  await app.db.insertInto('plans').values({ name, monthly_quota: quota, api_included: api }).execute();
}

export async function addAccount(app: AppStore, name: string, plan: string): Promise<number> {
  const r = await app.db
    .insertInto('accounts')
    .values({ name, plan, status: 'active', created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function addToken(app: AppStore, accountId: number): Promise<{ id: number; token: string }> {
  const token = generateToken();
  const r = await app.db
    .insertInto('api_tokens')
    .values({
      account_id: accountId,
      name: 'prod',
      token_hash: hashToken(token),
      display_prefix: displayPrefix(token),
      expires_at: null,
      enabled: 1,
      created_at: new Date().toISOString(),
      created_by: 'cli',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(r.id), token };
}

export async function setEnabled(app: AppStore, tokenId: number, enabled: 0 | 1): Promise<void> {
  await app.db.updateTable('api_tokens').set({ enabled }).where('id', '=', tokenId).execute();
}

export async function monthCalls(app: AppStore, accountId: number): Promise<number> {
  const r = await app.db
    .selectFrom('usage_monthly')
    .select((eb) => eb.fn.sum<number>('calls').as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function dailyCalls(app: AppStore, tokenId: number): Promise<number> {
  const r = await app.db
    .selectFrom('usage_daily')
    .select((eb) => eb.fn.sum<number>('calls').as('n'))
    .where('token_id', '=', tokenId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
