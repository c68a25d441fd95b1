// The watchlist's entries of the route table (server/api/routes.ts).
import type { Route } from '../http/router.ts';
import {
  WATCHLIST_ITEM_ROUTE,
  WATCHLIST_ITEM_ROUTE_SLASHED,
  WATCHLIST_ROUTE,
  watchlistHandlers,
  type WatchlistDeps,
} from './watchlist.ts';

export function watchlistRoutes(deps: WatchlistDeps): Route[] {
  const h = watchlistHandlers(deps);
  return [
    { method: 'GET', path: WATCHLIST_ROUTE, handler: h.list },
    { method: 'POST', path: WATCHLIST_ROUTE, handler: h.addMany },
    { method: 'PUT', path: WATCHLIST_ITEM_ROUTE, handler: h.put },
    { method: 'DELETE', path: WATCHLIST_ITEM_ROUTE, handler: h.remove },
    { method: 'PUT', path: WATCHLIST_ITEM_ROUTE_SLASHED, handler: h.put },
    { method: 'DELETE', path: WATCHLIST_ITEM_ROUTE_SLASHED, handler: h.remove },
  ];
}
