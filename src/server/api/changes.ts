// GET /api/v1/changes?month&tipo&campo&<attribute filters>&limit&cursor: a page of one month's
// recorded changes (domain/history/feed.ts), and GET /api/v1/brazilian_companies/:cnpj/history:
// every recorded change of a CNPJ and of its company, newest month first. Both read history.db
// through the server's one HistoryReader; one call of quota per request (docs/history.md).
// Order of checks (docs/errors.md): token → CNPJ (history) → parameters and cursor (400) → month
// (404 month_not_recorded, feed) → a filter value that cannot be used (400) → the call counted
// (429) → the answer (history: 404 not_found for a CNPJ unknown to both the history and the
// snapshot, counted as a lookup's).
import type { AccessLayer } from '../../domain/metering/access.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { decodeCursor, encodeCursor, INVALID_CURSOR_MESSAGE } from '../../domain/cursor.ts';
import { historyItems } from '../../domain/history/company-history.ts';
import { feedPage, type FeedKey } from '../../domain/history/feed.ts';
import { FilterUnavailable } from '../../domain/history/feed-filters.ts';
import {
  ChangesQuerySchema,
  feedScope,
  HistoryQuerySchema,
  toFeedFilters,
  type ChangesPage,
  type CompanyHistory,
} from '../../domain/history/feed-schema.ts';
import type { HistoryReader } from '../../domain/history/reader.ts';
import { InvalidFilter } from '../../domain/search/filters.ts';
import { filterMessage } from '../../domain/search/paging.ts';
import { changesOf } from '../../storage/history/db.ts';
import { queryReader } from '../http/query-params.ts';
import { identified, rateLimitHeaders, sendDenied, sendUncounted } from './access.ts';
import { pathCnpj } from './company.ts';
import { sendError, sendJson } from './errors.ts';

export const CHANGES_ROUTE = '/api/v1/changes';
export const HISTORY_ROUTE = '/api/v1/brazilian_companies/:cnpj/history';
/** The formatted CNPJ typed with its `/`, as for the lookup. */
export const HISTORY_ROUTE_SLASHED = '/api/v1/brazilian_companies/:a/:b/history';

export interface ChangesDeps {
  access: AccessLayer;
  registry: CompanyRegistry;
  history: HistoryReader;
}

/** A cursor's key: the month it pages (so a cursor keeps its month when `month` was left to default), the CNPJ and campo. */
const KEY = /^(\d{4}-\d{2}) ([0-9A-Z]{14}) ([a-z0-9_]*|~)$/;
const keyOf = (month: string, k: FeedKey) => `${month} ${k[0]} ${k[1]}`;

/** The sentence of month_not_recorded: what is recorded. */
function monthMessage(month: string | undefined, latest: string | null): string {
  if (latest === null)
    return 'Nenhum mês de mudanças foi registrado ainda neste servidor: as mudanças de um mês são registradas quando ele é importado depois do mês anterior.';
  return `Não há mudanças registradas para o mês ${month} neste servidor; o mais recente é ${latest}. Omita month para o mês mais recente.`;
}

/** The sentence for a filter that a month recorded by an older version cannot answer. */
const unavailableMessage = (e: FilterUnavailable) =>
  `O filtro ${e.param} não está disponível para o mês ${e.month}: as mudanças desse mês foram registradas por uma versão anterior do servidor, sem esse dado. Os demais filtros funcionam; os meses registrados a partir de agora têm todos.`;

export function changesHandler(deps: ChangesDeps) {
  const { access, history } = deps;
  const readQuery = queryReader(ChangesQuerySchema);
  return identified(access, (req, res, id, token) => {
    const query = readQuery(req.query);
    if (!query.ok) return sendUncounted(res, access, token, 'invalid_parameter', query.message);
    const v = query.value;
    const filters = toFeedFilters(v);
    // The month given (or none) and the filters scope the cursor; the key carries the month paged.
    const scope = feedScope(v.month ?? '', filters);
    let month = v.month;
    let after: FeedKey | null = null;
    if (v.cursor !== undefined) {
      const m = KEY.exec(decodeCursor(scope, v.cursor) ?? '');
      if (m === null || (month !== undefined && m[1] !== month))
        return sendUncounted(res, access, token, 'invalid_parameter', INVALID_CURSOR_MESSAGE);
      [month, after] = [m[1], [m[2], m[3]]];
    }
    const db = history.connection();
    const months = db === null ? [] : history.months().map((r) => r.month);
    month ??= months[0];
    if (db === null || month === undefined || !months.includes(month))
      return sendUncounted(res, access, token, 'month_not_recorded', monthMessage(month, months[0] ?? null));
    let body: ChangesPage;
    try {
      const page = feedPage(db, month, filters, after, v.limit);
      body = { month, data: page.items, next_cursor: page.next && encodeCursor(scope, keyOf(month, page.next)) };
    } catch (e) {
      if (e instanceof InvalidFilter) return sendUncounted(res, access, token, 'invalid_parameter', filterMessage(e));
      if (e instanceof FilterUnavailable)
        return sendUncounted(res, access, token, 'invalid_parameter', unavailableMessage(e));
      throw e;
    }
    // Counted after the page is read (a refused value costs nothing), in this event-loop turn (group commit).
    return access.charge(id).then((counted) => {
      if (!counted.ok) return sendDenied(res, counted);
      sendJson(res, 200, body, rateLimitHeaders(counted.quota));
    });
  });
}

export function historyHandler(deps: ChangesDeps) {
  const { access, registry, history } = deps;
  const readQuery = queryReader(HistoryQuerySchema);
  return identified(access, (req, res, id, token) => {
    const cnpj = pathCnpj(req);
    if (cnpj === null) return sendUncounted(res, access, token, 'invalid_cnpj');
    const query = readQuery(req.query);
    if (!query.ok) return sendUncounted(res, access, token, 'invalid_parameter', query.message);
    return access.charge(id).then((counted) => {
      if (!counted.ok) return sendDenied(res, counted);
      const db = history.connection();
      const rows = db === null ? [] : changesOf(db, cnpj);
      // Known: a change of its own (its company's alone does not make a CNPJ), or in the snapshot.
      if (!rows.some((r) => r.cnpj === cnpj) && registry.lookup(cnpj) === null)
        return sendError(res, 'not_found', rateLimitHeaders(counted.quota));
      const body: CompanyHistory = { cnpj, data: historyItems(rows, cnpj) };
      sendJson(res, 200, body, rateLimitHeaders(counted.quota));
    });
  });
}
