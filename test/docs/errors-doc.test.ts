// docs/errors.md must list exactly the API's error table: every code with its status, once per
// entry of ERRORS (not_found appears twice: an unknown CNPJ and an unknown route).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { ERRORS } from '../../src/domain/api-errors.ts';

const DOC = new URL('../../docs/errors.md', import.meta.url);

/** The cells of a Markdown table row (`| a | b |`); a `\|` inside a cell is not a separator. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The first table whose header has `status` and `error` columns, as `<status> <error>` per row. */
function documentedErrors(markdown: string): string[] {
  const lines = markdown.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].trim().startsWith('|') || !/^\s*\|[\s|:-]+\|\s*$/.test(lines[i + 1])) continue;
    const header = cells(lines[i]).map((c) => c.toLowerCase());
    const statusCol = header.indexOf('status');
    const errorCol = header.indexOf('error');
    if (statusCol < 0 || errorCol < 0) continue;
    const rows: string[] = [];
    for (let j = i + 2; j < lines.length && lines[j].trim().startsWith('|'); j++) {
      const row = cells(lines[j]);
      rows.push(`${row[statusCol]} ${row[errorCol].replace(/^`|`$/g, '')}`);
    }
    return rows;
  }
  throw new Error('docs/errors.md has no table with "status" and "error" columns');
}

test('docs/errors.md lists exactly the codes and statuses of ERRORS', () => {
  const documented = documentedErrors(fs.readFileSync(DOC, 'utf8'));
  const code = Object.values(ERRORS).map((e) => `${e.status} ${e.error}`);
  for (const row of documented) assert.match(row, /^\d{3} [a-z_]+$/, `a row of the table: ${row}`);
  assert.deepEqual([...documented].sort(), [...code].sort());
});

test('the table parser reads a status/error table and ignores other tables', () => {
  const md = [
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '| status | error | message |',
    '|---|---|---|',
    '| 400 | `x_y` | a \\| b |',
    '| 404 | `z` | c |',
    '',
    'text',
  ].join('\n');
  assert.deepEqual(documentedErrors(md), ['400 x_y', '404 z']);
});
