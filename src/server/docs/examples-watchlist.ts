// The watchlist's documented examples (curl commands and bodies), shared by /openapi.json and
// /docs, built by the real code (the add answer, the cursor) so they cannot drift from the routes.
import { EXAMPLE_BASE, EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY, makeCnpj } from '../../domain/cnpj.ts';
import { addAnswer, planAdd } from '../../domain/watchlist/many.ts';
import { watchlistCursor } from '../../domain/watchlist/page.ts';
import type { WatchlistAddResponse, WatchlistPage, WatchlistPut } from '../../domain/watchlist/schema.ts';

const HEAD_OFFICE = makeCnpj(EXAMPLE_BASE, '0001');
/** The example with its last check digit wrong: answered as invalid. */
const WRONG_CHECK_DIGITS = EXAMPLE_CNPJ.slice(0, 13) + '1';
const AT = '2026-11-20T15:00:00.000Z';
const EARLIER = '2026-10-02T12:30:00.000Z';
const api = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/api/v1/watchlist`;
const auth = '-H "Authorization: Bearer $CNPJ_API_TOKEN"';

export const watchlistPutCurl = (baseUrl: string) => `curl -X PUT ${auth} ${api(baseUrl)}/${EXAMPLE_CNPJ}`;
export const watchlistDeleteCurl = (baseUrl: string) => `curl -X DELETE ${auth} ${api(baseUrl)}/${EXAMPLE_CNPJ}`;
export const watchlistListCurl = (baseUrl: string, cursor?: string) =>
  `curl ${auth} "${api(baseUrl)}?limit=100${cursor ? `&cursor=${cursor}` : ''}"`;

export const WATCHLIST_ADD_EXAMPLE_REQUEST = { cnpjs: [EXAMPLE_CNPJ_PRETTY, HEAD_OFFICE, WRONG_CHECK_DIGITS] };

export const watchlistAddCurl = (baseUrl: string) =>
  `curl -X POST ${auth} -H "Content-Type: application/json" -d '${JSON.stringify(WATCHLIST_ADD_EXAMPLE_REQUEST)}' ${api(baseUrl)}`;

export const watchlistPutExample = (): WatchlistPut => ({
  cnpj: EXAMPLE_CNPJ,
  added_at: AT,
  total: 1,
  watchlist_limit: 2000,
});

/** The first page with limit=1 of a list of two. */
export function watchlistPageExample(): WatchlistPage {
  return {
    data: [{ cnpj: HEAD_OFFICE, added_at: EARLIER }],
    next_cursor: watchlistCursor(HEAD_OFFICE),
    total: 2,
    watchlist_limit: 2000,
  };
}

/** The answer to WATCHLIST_ADD_EXAMPLE_REQUEST when the head office was already watched. */
export function watchlistAddExample(): WatchlistAddResponse {
  const plan = planAdd(WATCHLIST_ADD_EXAMPLE_REQUEST.cnpjs);
  const rows = new Map([
    [EXAMPLE_CNPJ, { cnpj: EXAMPLE_CNPJ, added_at: AT, added: true }],
    [HEAD_OFFICE, { cnpj: HEAD_OFFICE, added_at: EARLIER, added: false }],
  ]);
  return addAnswer(plan, { ok: true, rows, used: 2, limit: 2000 });
}
