// A month's folder downloaded as one zip from the Receita's Nextcloud share imports exactly as the
// folder of zips does: the inner zips are read in place (stored members), nothing extracted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { ZipWriter } from '../../src/demo/zip-writer.ts';
import {
  centralHeader,
  dataDescriptor,
  dosDateTime,
  endRecords,
  localHeader,
  type ZipEntry,
} from '../../src/demo/zip-records.ts';
import { planProblems } from '../../importer/completeness.ts';
import { runImport, type ImportSummary } from '../../importer/run.ts';
import { planImport } from '../../importer/import-plan.ts';
import { ALL_TABLES, SNAPSHOT_FILES } from '../../src/storage/snapshots/tables.ts';
import { RECEITA_MINI } from '../fixtures/index.ts';
import { runCli } from '../helpers/cli.ts';
import { active, copySamples, querySnapshot, rec, tempDir, writeZip } from './helpers.ts';

const FAST = { search: false, history: false } as const;

/**
 * The folder `dir` as Nextcloud's "download folder" writes it (ZipStreamer): a directory entry,
 * then every file stored, CRC and sizes in a data descriptor, named `<folder>/<file>`. With
 * zip64, the ZIP64 records and, as ZipStreamer writes them then, 0xFFFF disk numbers in the
 * end record. `reversed` stores the files in reverse name order (the server's listing order is
 * not promised): they are still read in natural name order.
 */
function folderDownload(
  dest: string,
  folder: string,
  dir: string,
  opts: { zip64?: boolean; method?: 0 | 8; reversed?: boolean } = {},
): string {
  const w = new ZipWriter(dest, { forceZip64: opts.zip64 });
  w.addMember(`${folder}/`, '', { method: 0 });
  const names = fs.readdirSync(dir).sort();
  for (const name of opts.reversed ? names.reverse() : names) {
    w.addMember(`${folder}/${name}`, fs.readFileSync(path.join(dir, name)), {
      method: opts.method ?? 0,
      dataDescriptor: true,
    });
  }
  w.close();
  if (opts.zip64) {
    const bytes = fs.readFileSync(dest);
    bytes.writeUInt16LE(0xffff, bytes.length - 22 + 4);
    bytes.writeUInt16LE(0xffff, bytes.length - 22 + 6);
    fs.writeFileSync(dest, bytes);
  }
  return dest;
}

/** Every row of every snapshot table, in rowid order (the order they were read in). */
function allRows(dir: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of ALL_TABLES) {
    out[t.name] = querySnapshot(
      dir,
      SNAPSHOT_FILES[t.file] as 'companies.db' | 'establishments.db',
      `SELECT * FROM ${t.name} ORDER BY rowid`,
    );
  }
  return out;
}

function counts(s: ImportSummary): Record<string, [number, number, number]> {
  return Object.fromEntries(
    Object.entries(s.stats.tables).map(([name, t]) => [name, [t.rows, t.rejected, t.duplicates]]),
  );
}

async function assertSameImport(folder: ImportSummary, download: ImportSummary): Promise<void> {
  assert.equal(download.month, folder.month);
  assert.deepEqual(counts(download), counts(folder));
  assert.deepEqual(allRows(download.dir), allRows(folder.dir));
  assert.deepEqual(download.stats.sourceFiles, folder.stats.sourceFiles);
  assert.deepEqual(download.stats.missingFiles, folder.stats.missingFiles);
  assert.equal(download.compressedBytes, folder.compressedBytes);
}

test('a folder download (stored zips, data descriptors, `2026-09/` names) plans and imports like the folder', async () => {
  const outer = folderDownload(path.join(tempDir('dl-'), '2026-09.zip'), '2026-09', RECEITA_MINI);

  const [a, b] = [await planImport([RECEITA_MINI]), await planImport([outer])];
  const shape = (p: typeof a) => p.sources.map((s) => [s.kind, s.member.name, s.member.compressedSize]);
  assert.deepEqual(shape(b), shape(a));
  assert.deepEqual(b.missing, a.missing);
  assert.deepEqual(b.unknown, a.unknown);
  assert.deepEqual(planProblems(b), planProblems(a));
  assert.equal(b.compressedBytes, a.compressedBytes);
  assert.equal(b.detectedMonth, '2026-09', "from the download's name");

  const folder = await runImport({ dataDir: tempDir(), inputs: [RECEITA_MINI], month: '2026-09', ...FAST });
  const download = await runImport({ dataDir: tempDir(), inputs: [outer], ...FAST });
  await assertSameImport(folder, download);
  assert.ok(download.stats.sourceFiles.includes('Empresas0.zip'));
});

test('the monthly download and the tax-regime zips given beside it plan as one folder', async () => {
  // The regime zips live in another share: an operator gives them next to the month's download.
  const dir = tempDir('dl-');
  const monthly = copySamples(tempDir('dump-'));
  const regimes = fs.readdirSync(monthly).filter((n) => /^(lucro|imunes)/i.test(n));
  assert.equal(regimes.length, 4);
  for (const n of regimes) fs.renameSync(path.join(monthly, n), path.join(dir, n));
  const outer = folderDownload(path.join(dir, '2026-09.zip'), '2026-09', monthly);
  const [a, b] = [
    await planImport([RECEITA_MINI]),
    await planImport([outer, ...regimes.map((n) => path.join(dir, n))]),
  ];
  const shape = (p: typeof a) =>
    p.sources.map((s) => [s.kind, s.member.name, typeof s.zip === 'string' ? 'file' : 'inside']);
  assert.deepEqual(
    shape(b).map(([k, m]) => [k, m]),
    shape(a).map(([k, m]) => [k, m]),
  );
  assert.deepEqual(b.missing, a.missing);
  assert.equal(shape(b).filter(([k, , where]) => k === 'regimes' && where === 'file').length, 4);
});

test('a ZIP64 folder download in any order: the month from its folder, rejects named by both zips', async () => {
  // One bad Motivos line, so that the rejects file shows how it names its source.
  const dump = copySamples(tempDir('dump-'));
  writeZip(
    path.join(dump, 'Motivos.zip'),
    'Motivos',
    rec('00', 'SEM MOTIVO') + rec('01', 'EXTINCAO', 'one field too many'),
  );
  const outer = folderDownload(path.join(tempDir('dl-'), 'download.zip'), '2026-09', dump, {
    zip64: true,
    reversed: true,
  });

  const folder = await runImport({ dataDir: tempDir(), inputs: [dump], month: '2026-09', ...FAST });
  const download = await runImport({ dataDir: tempDir(), inputs: [outer], ...FAST });
  await assertSameImport(folder, download);
  assert.equal(download.stats.tables.motivos.rejected, 1);
  const rejects = fs.readFileSync(path.join(download.dir, 'rejects-companies.tsv'), 'utf8').split('\n')[1];
  assert.match(rejects, /^download\.zip:Motivos\.zip:Motivos\t/);
});

test('zips past 4 GiB in the download (ZIP64 offsets) are read in place', async () => {
  // A sparse file: a stored member of 4 GiB + 1 MiB (a hole, nothing written) before the month's zips.
  const outer = path.join(tempDir('dl-'), '2026-09.zip');
  const dos = dosDateTime(new Date(Date.UTC(2026, 8, 13)));
  const fd = fs.openSync(outer, 'w');
  const entries: ZipEntry[] = [];
  let offset = 0;
  const put = (buf: Buffer) => {
    fs.writeSync(fd, buf, 0, buf.length, offset);
    offset += buf.length;
  };
  const hole: ZipEntry = {
    name: Buffer.from('2026-09/padding.bin'),
    offset,
    crc: 0,
    csize: 2 ** 32 + 2 ** 20,
    usize: 2 ** 32 + 2 ** 20,
    method: 0,
    descriptor: true,
  };
  put(localHeader(hole, true, dos));
  offset += hole.csize;
  put(dataDescriptor(hole, true));
  entries.push(hole);
  for (const name of fs.readdirSync(RECEITA_MINI).filter((n) => n.endsWith('.zip'))) {
    const data = fs.readFileSync(path.join(RECEITA_MINI, name));
    const e: ZipEntry = {
      name: Buffer.from(`2026-09/${name}`),
      offset,
      crc: crc32(data),
      csize: data.length,
      usize: data.length,
      method: 0,
      descriptor: true,
    };
    put(localHeader(e, true, dos));
    put(data);
    put(dataDescriptor(e, true));
    entries.push(e);
  }
  const cdStart = offset;
  for (const e of entries) put(centralHeader(e, true, dos));
  put(endRecords(entries.length, cdStart, offset - cdStart, true, Buffer.alloc(0)));
  fs.closeSync(fd);

  const plan = await planImport([outer]);
  assert.ok(
    plan.sources.every((s) => typeof s.zip !== 'string' && s.zip.start > 2 ** 32),
    'every inner zip starts past 4 GiB',
  );
  const folder = await runImport({ dataDir: tempDir(), inputs: [RECEITA_MINI], month: '2026-09', ...FAST });
  const download = await runImport({ dataDir: tempDir(), inputs: [outer], ...FAST });
  await assertSameImport(folder, download);
});

test('a truncated or damaged folder download fails naming it; the active snapshot stays', async () => {
  const dataDir = tempDir();
  const first = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-08', ...FAST });
  const dir = tempDir('dl-');
  const good = fs.readFileSync(folderDownload(path.join(dir, 'good.zip'), '2026-09', RECEITA_MINI));
  const outer = path.join(dir, '2026-09.zip');

  // Truncated: the download stopped before its end (no central directory).
  fs.writeFileSync(outer, good.subarray(0, Math.floor(good.length * 0.6)));
  await assert.rejects(
    runImport({ dataDir, inputs: [outer], ...FAST }),
    /^ImportError: 2026-09\.zip: truncated or corrupt zip file/,
  );

  // A flipped byte inside an inner zip's compressed data: found by its CRC while loading.
  const socios = fs.readFileSync(path.join(RECEITA_MINI, 'Socios0.zip'));
  const damaged = Buffer.from(good);
  damaged[good.indexOf(socios) + 120] ^= 0xff;
  fs.writeFileSync(outer, damaged);
  await assert.rejects(runImport({ dataDir, inputs: [outer], ...FAST }), (e: Error) => {
    assert.match(e.message, /^2026-09\.zip:Socios0\.zip: /);
    assert.match(e.message, /the active snapshot is unchanged/);
    return true;
  });
  assert.equal((await active(dataDir))?.id, first.snapshotId);
  assert.deepEqual(
    fs.readdirSync(path.join(dataDir, 'registry')).filter((n) => n.startsWith('.building-')),
    [],
  );
});

test('a folder download zipped again (deflated zips) or holding two folders is refused with what to do', async () => {
  const dataDir = tempDir();
  const dir = tempDir('dl-');
  const deflated = folderDownload(path.join(dir, '2026-09.zip'), '2026-09', RECEITA_MINI, { method: 8 });
  await assert.rejects(
    runImport({ dataDir, inputs: [deflated], ...FAST }),
    /^ImportError: 2026-09\.zip: the zips inside it are compressed again .*Unzip 2026-09\.zip into a folder and import that folder\.$/,
  );

  const two = path.join(dir, 'months.zip');
  const w = new ZipWriter(two);
  for (const m of ['2026-08', '2026-09'])
    w.addMember(`${m}/Cnaes.zip`, fs.readFileSync(path.join(RECEITA_MINI, 'Cnaes.zip')), { method: 0 });
  w.close();
  await assert.rejects(
    runImport({ dataDir, inputs: [two], ...FAST }),
    /months\.zip: holds zips in 2 folders \(2026-08\/, 2026-09\/\): import one month's folder at a time/,
  );
  assert.equal(await active(dataDir), null);
});

test('cnpj-api import FILE takes a folder download', async () => {
  const dataDir = tempDir();
  const outer = folderDownload(path.join(tempDir('dl-'), '2026-09.zip'), '2026-09', RECEITA_MINI);
  const r = await runCli(['import', outer, '--data-dir', dataDir, '--skip-search', '--skip-history']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /published snapshot 2026-09_\S+ \(month 2026-09\)/);
  assert.match(r.out, /establishments\s+1\b/);
});
