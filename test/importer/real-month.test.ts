// What a real Receita month can bring beyond the fixtures' quirks (docs/receita-dump.md §7, quirks
// 18 and 21-26): each case ends in a correct month or a clear refusal. Every month here is the
// real sample written the way the Receita writes it (mainframe member names with extraction dates,
// Latin-1, every field quoted, `;`), then damaged the way real months were.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { runImport, type ImportOptions } from '../../importer/run.ts';
import { ZipWriter } from '../../src/demo/zip-writer.ts';
import { snapshotLookup } from './history/snapshot-lookup.ts';
import { active, querySnapshot, receitaMonth, tempDir } from './helpers.ts';
import { CLI } from '../helpers/cli.ts';

const BIN = CLI;
const SERPRO = '33683111000280';
const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** Imports quietly; the log lines are kept for the warnings. */
async function importMonth(dataDir: string, inputs: string[], more: Partial<ImportOptions> = {}) {
  const log: string[] = [];
  const summary = await runImport({ dataDir, inputs, search: false, history: false, log: (l) => log.push(l), ...more });
  return { summary, log };
}

/** The refusal of an import, with what stayed in the registry folder. */
async function refusalOf(dataDir: string, inputs: string[], more: Partial<ImportOptions> = {}): Promise<string> {
  let message = '';
  await assert.rejects(importMonth(dataDir, inputs, more), (e: Error) => {
    message = e.message;
    assert.equal(e.name, 'ImportError');
    assert.match(e.message, /^Not publishing an incomplete month: /);
    assert.match(e.message, /The active snapshot is unchanged\./);
    return true;
  });
  return message;
}

/** Replaces one zip of a month folder by a one-member zip holding `bytes`. */
function replaceZip(dir: string, zip: string, member: string, bytes: Buffer): void {
  const w = new ZipWriter(path.join(dir, zip));
  w.addMember(member, bytes);
  w.close();
}

test('quirk 23: member names in lower case give the month and the shard numbers', async () => {
  const month = await receitaMonth(tempDir('cnpj-month-'), { date: '61012', name: (m) => m.toLowerCase() });
  const { summary } = await importMonth(tempDir(), [month]);
  assert.equal(summary.month, '2026-10', 'the month from the lower-case extraction dates');
  assert.equal(summary.stats.extracted, '2026-10-12');
  assert.equal(summary.stats.tables.companies.rows, 2);

  // The shard numbers come from the members alone when the zips are named otherwise.
  const renamed = tempDir('cnpj-month-');
  for (const f of fs.readdirSync(month))
    fs.copyFileSync(path.join(month, f), path.join(renamed, f.replace(/^Empresas(\d)/, 'emp-part-$1-of-2')));
  replaceZip(
    renamed,
    'emp-part-1-of-2.zip',
    'k3241.k03200y2.d61012.emprecsv',
    latin1('"33683111";"SERPRO";"2011";"16";"1,00";"05";""\n'),
  );
  const message = await refusalOf(tempDir(), [renamed]);
  assert.match(message, /a gap in the Empresas shards \(no Empresas1\)/);
});

test('quirk 22: a byte-order mark at the start of a file is not part of its first code', async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const month = await receitaMonth(tempDir('cnpj-month-'), {
    edit: (zip, bytes) =>
      ['Cnaes.zip', 'Qualificacoes.zip', 'Empresas1.zip', 'Estabelecimentos0.zip'].includes(zip)
        ? Buffer.concat([bom, bytes])
        : bytes,
  });
  // A regime file without header, one with: the first year of each is read.
  const regimeLines = (header: boolean) =>
    `${header ? 'ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes\n' : ''}2023,33.683.111/0002-80,0,LUCRO REAL,1\n`;
  replaceZip(month, 'Lucro Real.zip', 'Lucro Real.csv', Buffer.concat([bom, latin1(regimeLines(true))]));
  replaceZip(
    month,
    'Lucro Arbitrado.zip',
    'Lucro Arbitrado.csv',
    Buffer.concat([bom, latin1(regimeLines(false).replaceAll(',', ';').replace('LUCRO REAL', 'LUCRO ARBITRADO'))]),
  );
  const { summary } = await importMonth(tempDir(), [month]);
  for (const name of ['cnaes', 'qualificacoes', 'companies', 'establishments', 'regimes'])
    assert.equal(summary.stats.tables[name].rejected, 0, `${name} rejected a line`);
  const company = snapshotLookup(summary.dir).get(SERPRO)!;
  assert.equal(
    company.company.cnae_fiscal_human,
    '6204-0/00 - Consultoria em tecnologia da informação',
    'the first CNAE of the file keeps its description',
  );
  assert.equal(company.company.razao_social, 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)');
  const firstQualification = querySnapshot<{ code: number }>(
    summary.dir,
    'companies.db',
    'SELECT code FROM qualificacoes ORDER BY rowid LIMIT 1',
  );
  assert.deepEqual(firstQualification, [{ code: 0 }]);
  const years = querySnapshot<{ forma: string; ano: number }>(
    summary.dir,
    'companies.db',
    "SELECT forma, ano FROM regimes WHERE cnpj = ? AND forma IN ('LUCRO REAL', 'LUCRO ARBITRADO') ORDER BY forma",
    SERPRO,
  );
  assert.deepEqual(
    years.map((r) => ({ ...r })),
    [
      { forma: 'LUCRO ARBITRADO', ano: 2023 },
      { forma: 'LUCRO REAL', ano: 2023 },
    ],
  );
});

test('quirk 21: bytes 0x80-0x9F are Windows-1252, beside the UTF-8 sequences already repaired', async () => {
  // “AÇÃO” – 5€ in Windows-1252 bytes, and “Secretário” in UTF-8 bytes inside the same Latin-1 file.
  const cp1252 = Buffer.from([0x93, 0x41, 0xc7, 0xc3, 0x4f, 0x94, 0x20, 0x96, 0x20, 0x35, 0x80]);
  const utf8 = Buffer.from('Secretário', 'utf8');
  const month = await receitaMonth(tempDir('cnpj-month-'), {
    edit: (zip, bytes) => {
      if (zip === 'Estabelecimentos0.zip')
        return splice(bytes, 'REGIONAL BRASILIA-DF', Buffer.concat([latin1('REGIONAL '), cp1252]));
      if (zip === 'Qualificacoes.zip')
        return splice(
          bytes,
          'Presidente',
          Buffer.concat([
            latin1('Presidente '),
            utf8,
            latin1(' '),
            Buffer.from([0x96]),
            latin1(' '),
            Buffer.from([0xc3, 0x83, 0xc2, 0xa1]),
          ]),
        );
      return bytes;
    },
  });
  const { summary } = await importMonth(tempDir(), [month]);
  const company = snapshotLookup(summary.dir).get(SERPRO)!;
  assert.equal(company.company.nome_fantasia, 'REGIONAL “AÇÃO” – 5€');
  const partner = company.socios.find((s) => s.nome_socio === 'GILENO GURJAO BARRETO')!;
  assert.equal(
    partner.qualificacao_socio,
    'Presidente Secretário – á',
    'UTF-8, Windows-1252 and double-encoded UTF-8 side by side',
  );
});

/** `bytes` with the Latin-1 text `find` replaced by `by`. */
function splice(bytes: Buffer, find: string, by: Buffer): Buffer {
  const at = bytes.indexOf(latin1(find));
  assert.ok(at >= 0, `${find} in the sample`);
  return Buffer.concat([bytes.subarray(0, at), by, bytes.subarray(at + find.length)]);
}

test('quirk 24: a code table of garbage, or far smaller than the active one, is refused', async () => {
  const month = await receitaMonth(tempDir('cnpj-month-'));
  const dataDir = tempDir();
  await importMonth(dataDir, [month]);
  const before = (await active(dataDir))!;

  // Binary garbage: a few lines split into two fields by chance, collapsing onto the same codes.
  const garbage = Buffer.alloc(4096);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 251;
  for (let i = 0; i < 64; i++) garbage.write(`\n"1";"x${i}"\n"${i % 2}"\n`, i * 60, 'latin1');
  const bad = await receitaMonth(tempDir('cnpj-month-'), { date: '61012' });
  replaceZip(bad, 'Cnaes.zip', 'F.K03200$Z.D61012.CNAECSV', garbage);
  const message = await refusalOf(dataDir, [bad]);
  assert.match(message, /cnaes has \d+ rows from \d+ lines \(\d+ rejected, \d+ duplicates\): not a cnaes file/);
  assert.equal((await active(dataDir))!.id, before.id, 'the active month stays');

  // A real but cut-down table: 2 of the 6 CNAEs (the first import is the floor).
  const small = await receitaMonth(tempDir('cnpj-month-'), {
    date: '61012',
    edit: (zip, b) =>
      zip === 'Cnaes.zip' ? latin1(b.toString('latin1').split('\n').slice(0, 2).join('\n') + '\n') : b,
  });
  assert.match(
    await refusalOf(dataDir, [small]),
    /cnaes has 2 rows, 33\.3% of the 6 of the active snapshot \S+ \(at least 50% expected\)/,
  );

  // --allow-partial publishes it, and says why.
  const { summary } = await importMonth(dataDir, [small], { allowPartial: true });
  assert.match(summary.stats.partial!.join('; '), /cnaes has 2 rows/);
});

test('quirk 25: stale files (extracted a month apart) and the active month again are refused; --allow-partial overrides', async () => {
  const dataDir = tempDir();
  const august = await receitaMonth(tempDir('cnpj-month-'), { date: '60812' });
  await importMonth(dataDir, [august]);
  const before = (await active(dataDir))!;
  assert.equal(before.stats.extracted, '2026-08-12');

  // September, with two zips still August's copies.
  const mixed = await receitaMonth(tempDir('cnpj-month-'), {
    date: (zip) => (['Socios0.zip', 'Cnaes.zip'].includes(zip) ? '60812' : '60913'),
  });
  const message = await refusalOf(dataDir, [mixed]);
  assert.match(
    message,
    /stale files: Cnaes\.zip \(2026-08-12\), Socios0\.zip \(2026-08-12\) extracted more than 21 days from the month's other files \(2026-09-13\)/,
  );

  // The same files again under September's folder name.
  const again = path.join(tempDir('cnpj-dl-'), '2026-09');
  fs.cpSync(august, again, { recursive: true });
  assert.match(
    await refusalOf(dataDir, [again]),
    new RegExp(
      `every file carries the extraction date 2026-08-12 of the active snapshot ${before.id} \\(2026-08\\): the same data again, not 2026-09`,
    ),
  );
  assert.equal((await active(dataDir))!.id, before.id);
  // Under its own month it is a deliberate re-import (after an upgrade, say): published.
  const reimport = await importMonth(dataDir, [august]);
  assert.equal(reimport.summary.month, '2026-08');
  assert.equal(reimport.summary.stats.partial, undefined);

  // A few days apart is one month (the regime zips carry no date and are not judged).
  const spread = await receitaMonth(tempDir('cnpj-month-'), {
    date: (zip) => (zip === 'Simples.zip' ? '60910' : '60913'),
  });
  const { summary } = await importMonth(dataDir, [spread]);
  assert.equal(summary.month, '2026-09');
  assert.equal(summary.stats.partial, undefined);

  // Through the CLI: exit 1, the files named; --allow-partial publishes, status says so.
  const cli = (...args: string[]) => promisify(execFile)(process.execPath, [BIN, '--data-dir', dataDir, ...args]);
  await assert.rejects(
    cli('import', '--skip-search', '--skip-history', mixed),
    (e: { code: number; stderr: string }) => {
      assert.equal(e.code, 1);
      assert.match(e.stderr, /stale files: Cnaes\.zip \(2026-08-12\), Socios0\.zip \(2026-08-12\)/);
      return true;
    },
  );
  await cli('import', '--skip-search', '--skip-history', '--allow-partial', mixed);
  const { stdout } = await cli('status');
  assert.match(stdout, /PARTIAL month, published with --allow-partial: stale files: Cnaes\.zip/);
});

test('quirk 26: a tax-regime file in another layout is left out with a warning; the month is published', async () => {
  const month = await receitaMonth(tempDir('cnpj-month-'));
  // The 2021 layout (a header of other columns), and a headerless file of 7 columns.
  replaceZip(
    month,
    'Lucro Real.zip',
    'Lucro Real.csv',
    latin1('Ano,CNPJ,Forma_de_Tributacao,Municipio,UF\n2020,33.683.111/0002-80,LUCRO REAL,BRASILIA,DF\n'),
  );
  replaceZip(
    month,
    'Imunes e Isentas.zip',
    'Imunes e Isentas.csv',
    latin1('2023;33.683.111/0002-80;0;IMUNE DO IRPJ;1;DF;X\n'),
  );
  const dataDir = tempDir();
  const { summary, log } = await importMonth(dataDir, [month]);
  const warnings = log.filter((l) => l.startsWith('warning: left out a tax-regime file in another layout: '));
  assert.equal(warnings.length, 2, log.join('\n'));
  assert.match(
    warnings.join('\n'),
    /Lucro Real\.zip:Lucro Real\.csv: unexpected header: "Ano,CNPJ,Forma_de_Tributacao,Municipio,UF" \(expected: ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes\)/,
  );
  assert.match(
    warnings.join('\n'),
    /Imunes e Isentas\.zip:Imunes e Isentas\.csv: first line has 7 columns .*\(expected 5: ano,cnpj,/,
  );
  // The other regime files are loaded.
  const formas = querySnapshot<{ forma: string }>(
    summary.dir,
    'companies.db',
    'SELECT DISTINCT forma FROM regimes ORDER BY forma',
  ).map((r) => r.forma);
  assert.deepEqual(formas, ['LUCRO ARBITRADO', 'LUCRO PRESUMIDO']);
  assert.equal(summary.stats.skipped!.length, 2);
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--data-dir', dataDir, 'status']);
  assert.match(
    stdout,
    /left out \(tax-regime file in another layout\): Lucro Real\.zip:Lucro Real\.csv: unexpected header/,
  );
});

test('quirk 18: orphans load: an establishment without its company answers with the company fields empty; a partner without one is kept', async () => {
  const month = await receitaMonth(tempDir('cnpj-month-'), {
    edit: (zip, bytes) => {
      // SERPRO's company row gone; a partner of a base that has no company row.
      if (zip === 'Empresas1.zip') return Buffer.alloc(0);
      if (zip === 'Socios0.zip')
        return Buffer.concat([
          bytes,
          latin1('"99999999";"2";"SOCIO ORFAO";"***111111**";"49";"20200101";"";"***000000**";"";"00";"5"\n'),
        ]);
      return bytes;
    },
  });
  const { summary } = await importMonth(tempDir(), [month]);
  const company = snapshotLookup(summary.dir).get(SERPRO)!;
  assert.equal(company.company.razao_social, '');
  assert.equal(company.company.natureza_juridica, '');
  assert.equal(company.company.nome_fantasia, 'REGIONAL BRASILIA-DF');
  assert.equal(company.socios.length, 6);
  assert.deepEqual(
    querySnapshot(summary.dir, 'companies.db', "SELECT nome FROM partners WHERE basico = '99999999'").map((r) => ({
      ...(r as object),
    })),
    [{ nome: 'SOCIO ORFAO' }],
  );
});
