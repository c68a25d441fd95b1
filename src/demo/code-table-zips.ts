// The six lookup zips of a dump (Cnaes, Motivos, Municipios, Naturezas, Paises, Qualificacoes),
// with the one quirk they carry: two descriptions in UTF-8 bytes inside the Latin-1 file.

import { CsvZip } from './dump-files.ts';
import type { CodeTables, Row2 } from './code-tables.ts';
import type { Quirks } from './quirks.ts';
import { SERPRO_CNAES } from './real.ts';

/** Latin-1 view of the UTF-8 bytes: written as Latin-1 it yields the UTF-8 byte sequence. */
function utf8Bytes(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

/** Writes the six zips into `out`; each one's name, row count and size. */
export function writeCodeTableZips(
  lk: CodeTables,
  q: Quirks,
  out: string,
  dpart: string,
  mtime: Date,
): { file: string; rows: number; bytes: number }[] {
  const codeTableFiles: Array<[string, string, Row2[]]> = [
    ['Cnaes.zip', 'CNAECSV', lk.cnaes],
    ['Motivos.zip', 'MOTICSV', lk.motivos],
    ['Municipios.zip', 'MUNICCSV', lk.municipios],
    ['Naturezas.zip', 'NATJUCSV', lk.naturezas],
    ['Paises.zip', 'PAISCSV', lk.paises],
    ['Qualificacoes.zip', 'QUALSCSV', lk.qualificacoes],
  ];
  // Two descriptions carry UTF-8 bytes, like code 18 of the real 2021 QUALSCSV.
  const utf8Targets = new Set<string>();
  if (q.enabled) {
    utf8Targets.add('QUALSCSV:18');
    const cnae = lk.cnaes.find((c) => /ç/.test(c.desc) && !SERPRO_CNAES.includes(c.code) && c.code.startsWith('47'));
    if (cnae) utf8Targets.add(`CNAECSV:${cnae.code}`);
  }
  const written: { file: string; rows: number; bytes: number }[] = [];
  for (const [file, kind, rows] of codeTableFiles) {
    const z = new CsvZip(file, out, `F.K03200$Z.${dpart}.${kind}`, mtime);
    for (const r of rows) {
      const key = `${kind}:${r.code}`;
      let desc = r.desc;
      if (utf8Targets.has(key)) {
        desc = utf8Bytes(desc);
        q.hit('utf8InLatin1', key);
      }
      z.row([r.code, desc]);
    }
    written.push({ file, rows: rows.length, bytes: z.close() });
  }
  return written;
}
