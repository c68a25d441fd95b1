// What the API's search routes and the web app's Consulta page share around the engine: the
// cursor's scope, cursors in and out, the missing-filter check and the Portuguese sentence for a
// value the engine refused. Here, not in server/api, so that server/web can use it too.
import { decodeCursor, encodeCursor, INVALID_CURSOR_MESSAGE } from '../cursor.ts';
import { hasFilter, InvalidFilter } from './filters.ts';
import { toCompanyFilters, type CompanyFilterValues } from './query-schema.ts';

/**
 * The cursor's scope: the route, every filter in the schema's order, and the order and grouping
 * when given (another filter set's, order's or grouping's cursor fails).
 */
export const scopeOf = (v: CompanyFilterValues & { order?: string; group?: string }) =>
  `companies ${JSON.stringify(toCompanyFilters(v))}` +
  (v.order !== undefined || v.group !== undefined ? ` ${JSON.stringify({ order: v.order, group: v.group })}` : '');

/** Whether a company search is in the relevance order (q, and no order=cnpj). */
export const relevanceOrder = (v: { q?: string; order?: string }) => v.q !== undefined && v.order !== 'cnpj';

/** The partner search's cursor scope: its two filters. */
export const partnersScope = (f: { nome?: string; cnpj_cpf?: string; order?: string }) =>
  `partners ${JSON.stringify({ nome: f.nome, cnpj_cpf: f.cnpj_cpf, ...(f.order === 'table' ? { order: 'table' } : {}) })}`;

/** `cnae_secundario` alone selects nothing: the engine would refuse it too. */
export const missingFilter = (v: CompanyFilterValues) =>
  hasFilter({ ...toCompanyFilters(v), cnae_secundario: undefined }) ? null : { key: 'missing_filter' as const };

/** What a client reads for a value the engine refused: the parameter named, in Portuguese. */
export function filterMessage(e: InvalidFilter): string {
  if (e.param === 'cursor') return INVALID_CURSOR_MESSAGE;
  return `O parâmetro ${e.param} tem um valor que não pode ser usado na busca (por exemplo, um texto sem nenhuma palavra, ou um município que não existe). Consulte a documentação em /docs.`;
}

/** The key a cursor of `scope` carries; throws InvalidFilter('cursor') for anything else. */
export function cursorKey(scope: string, cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  const key = decodeCursor(scope, cursor);
  if (key === null) throw new InvalidFilter('cursor', 'not a cursor of this search');
  return key;
}

/** The next page's cursor, or null on the last page. */
export const nextCursor = (scope: string, key: string | number | null): string | null =>
  key === null ? null : encodeCursor(scope, String(key));
