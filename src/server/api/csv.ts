// The CSV answer of a search page (format=csv); the CSV itself is domain/company/csv.ts, shared
// with the web app's "Baixar CSV".
import type { ServerResponse } from 'node:http';

export { CSV_COLUMNS, companiesCsv, csvCell } from '../../domain/company/csv.ts';

/** The CSV answer: the next page's cursor in X-Next-Cursor (absent on the last page). */
export function sendCsv(
  res: ServerResponse,
  body: string,
  nextCursor: string | null,
  headers: Record<string, number>,
): void {
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Content-Disposition': 'attachment; filename="empresas.csv"',
    'X-Content-Type-Options': 'nosniff',
    ...(nextCursor === null ? {} : { 'X-Next-Cursor': nextCursor }),
  });
  res.end(body);
}
