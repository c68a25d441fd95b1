// The watchlist routes (docs/watchlists.md): PUT and DELETE /api/v1/watchlist/{cnpj}, GET and POST
// /api/v1/watchlist. Order (docs/errors.md): authenticate → CNPJ, parameters or body (400, 413,
// 415; not counted) → ONE call counted per request (429) → the work on the app state (app.db or
// the fleet's PostgreSQL) → the answer with the quota headers. No snapshot is needed: a CNPJ need
// only be valid to be watched.
import type { ServerResponse } from 'node:http';
import type { AccessLayer } from '../../domain/metering/access.ts';
import { ERRORS } from '../../domain/api-errors.ts';
import { readBatchRequest } from '../../domain/company/batch.ts';
import { INVALID_CURSOR_MESSAGE } from '../../domain/cursor.ts';
import { addWatched, type AddResult } from '../../domain/watchlist/add.ts';
import { watchlistUsage } from '../../domain/watchlist/limit.ts';
import { addAnswer, noneValidAnswer, planAdd } from '../../domain/watchlist/many.ts';
import { readWatchlistCursor, watchedPage } from '../../domain/watchlist/page.ts';
import { removeWatched } from '../../domain/watchlist/remove.ts';
import { WatchlistQuerySchema, type WatchlistPage, type WatchlistPut } from '../../domain/watchlist/schema.ts';
import { readTransaction, type AppStore } from '../../storage/app/store.ts';
import type { ApiState } from '../../storage/app/api-state.ts';
import { readJsonBody } from '../http/json-body.ts';
import { queryReader } from '../http/query-params.ts';
import { identified, rateLimitHeaders, sendDenied, sendUncounted } from './access.ts';
import { BATCH_BODY_LIMIT } from './batch.ts';
import { pathCnpj } from './company.ts';
import { sendError, sendJson } from './errors.ts';

export const WATCHLIST_ROUTE = '/api/v1/watchlist';
export const WATCHLIST_ITEM_ROUTE = '/api/v1/watchlist/:cnpj';
/** The formatted CNPJ typed with its `/`, as for the lookup. */
export const WATCHLIST_ITEM_ROUTE_SLASHED = '/api/v1/watchlist/:a/:b';

export interface WatchlistDeps {
  access: AccessLayer;
  /**
   * The app state, where the watchlist lives: read through its store, written through its write()
   * and made durable by durable() before the answer leaves (on app.db, a WAL flush off the event
   * loop, as the metering's).
   */
  state: ApiState;
  now: () => Date;
}

type Headers = Record<string, number>;

/** The limit refusal: counted, with the numbers in the sentence. */
function sendFull(res: ServerResponse, r: Extract<AddResult, { ok: false }>, headers: Headers): void {
  sendError(
    res,
    'watchlist_limit_exceeded',
    headers,
    ERRORS.watchlist_limit_exceeded.specific({
      plan: r.plan,
      limit: r.limit,
      needed: r.needed,
      remaining: r.remaining,
    }),
  );
}

export function watchlistHandlers(deps: WatchlistDeps) {
  const { access, state, now } = deps;
  const app = state.store;
  const write = <T>(fn: (store: AppStore) => Promise<T>): Promise<T> => state.write(fn);
  const durable = (): Promise<void> => state.durable();
  const readQuery = queryReader(WatchlistQuerySchema);

  const put = identified(access, async (req, res, id, token) => {
    const cnpj = pathCnpj(req);
    if (cnpj === null) return sendUncounted(res, access, token, 'invalid_cnpj');
    const c = await access.charge(id);
    if (!c.ok) return sendDenied(res, c);
    const headers = rateLimitHeaders(c.quota);
    const r = await write((store) => addWatched(store, id.accountId, [cnpj], now()));
    if (!r.ok) return sendFull(res, r, headers);
    const row = r.rows.get(cnpj)!;
    if (row.added) await durable();
    const body: WatchlistPut = { cnpj, added_at: row.added_at, total: r.used, watchlist_limit: r.limit };
    sendJson(res, row.added ? 201 : 200, body, headers);
  });

  const remove = identified(access, async (req, res, id, token) => {
    const cnpj = pathCnpj(req);
    if (cnpj === null) return sendUncounted(res, access, token, 'invalid_cnpj');
    const c = await access.charge(id);
    if (!c.ok) return sendDenied(res, c);
    const headers = rateLimitHeaders(c.quota);
    if (!(await write((store) => removeWatched(store, id.accountId, cnpj))))
      return sendError(res, 'not_watched', headers);
    await durable();
    res.writeHead(204, headers);
    res.end();
  });

  const list = identified(access, async (req, res, id, token) => {
    const query = readQuery(req.query);
    if (!query.ok) return sendUncounted(res, access, token, 'invalid_parameter', query.message);
    let after: string | null = null;
    if (query.value.cursor !== undefined) {
      after = readWatchlistCursor(query.value.cursor);
      if (after === null) return sendUncounted(res, access, token, 'invalid_parameter', INVALID_CURSOR_MESSAGE);
    }
    const c = await access.charge(id);
    if (!c.ok) return sendDenied(res, c);
    // One read transaction: the page and the total are of the same moment.
    const body = await readTransaction(app, async (store): Promise<WatchlistPage> => {
      const page = await watchedPage(store, id.accountId, query.value.limit, after);
      const usage = (await watchlistUsage(store, id.accountId))!;
      return { ...page, total: usage.used, watchlist_limit: usage.limit };
    });
    sendJson(res, 200, body, rateLimitHeaders(c.quota));
  });

  const addMany = identified(access, async (req, res, id, token) => {
    const raw = await readJsonBody(req, BATCH_BODY_LIMIT);
    if (!raw.ok) {
      const close = raw.error === 'body_too_large' ? { Connection: 'close' } : undefined;
      return sendUncounted(res, access, token, raw.error, raw.message, close);
    }
    const request = readBatchRequest(raw.value);
    if (!request.ok) return sendUncounted(res, access, token, 'invalid_body', request.message);
    const plan = planAdd(request.cnpjs);
    if (plan.valid.length === 0) {
      // Nothing to add: not counted, answered like an invalid CNPJ's 400 (429 when used up).
      const q = await access.authenticate(token);
      if (!q.ok) return sendDenied(res, q);
      const usage = (await watchlistUsage(app, id.accountId))!;
      return sendJson(res, 200, noneValidAnswer(plan, usage.used, usage.limit), rateLimitHeaders(q.quota));
    }
    const c = await access.charge(id);
    if (!c.ok) return sendDenied(res, c);
    const headers = rateLimitHeaders(c.quota);
    const r = await write((store) => addWatched(store, id.accountId, plan.valid, now()));
    if (!r.ok) return sendFull(res, r, headers);
    await durable();
    sendJson(res, 200, addAnswer(plan, r), headers);
  });

  return { put, remove, list, addMany };
}
