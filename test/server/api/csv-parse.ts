// A reader of the search's CSV for the tests: RFC 4180 with `;`, checking the BOM and final CRLF.
import assert from 'node:assert/strict';

/** RFC 4180 with `;`: rows of cells (the BOM and the last CRLF dropped). */
export function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith('\uFEFF'), 'starts with a BOM');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.slice(1);
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ';') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && s[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  assert.equal(row.length + cell.length, 0, 'ends with CRLF');
  return rows;
}
