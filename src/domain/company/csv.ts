// Companies as CSV for spreadsheets (docs/search-api.md), shared by the API's format=csv and the
// web app's "Baixar CSV": UTF-8 with a BOM (so Excel reads the accents), `;`-separated (the
// separator of Brazilian-locale spreadsheets, where `,` is the decimal mark), CRLF lines
// (RFC 4180), a header row of the company object's fields in the schema's order, values as the
// JSON gives them (capital_social stays "1500.00": exact text).
import { CompanySchema, type Company } from './schema.ts';

/** Every field of the company object, absent optional ones as empty cells. */
export const CSV_COLUMNS = Object.keys(CompanySchema.properties) as (keyof Company)[];

/** One cell: quoted when it holds `;`, a quote or a line break (quotes doubled). */
export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : Array.isArray(value) ? value.join(',') : String(value);
  // A cell a spreadsheet would run as a formula (=, +, -, @ first, from the registry's free text)
  // is kept as text by a leading apostrophe; numbers (-1.5) stay as they are.
  if (/^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function companiesCsv(companies: readonly Company[]): string {
  const lines = [CSV_COLUMNS.join(';')];
  for (const c of companies) lines.push(CSV_COLUMNS.map((k) => csvCell(c[k])).join(';'));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
