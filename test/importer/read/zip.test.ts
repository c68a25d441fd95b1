import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer as readAll } from 'node:stream/consumers';
import { folderDownload, listZip, openMemberStream } from '../../../importer/read/zip.ts';
import { RecordParser } from '../../../importer/read/records.ts';
import { buildZip, writeZip } from '../../helpers/zip-writer.ts';
import { generateEstabelecimentos } from '../../helpers/gen-records.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';

// Corrupt and truncated zips: zip-corrupt.test.ts.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-read-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function parseAll(data: Buffer, expectedFields: number) {
  const records: { fields: string[]; recordNo: number; line: number }[] = [];
  const rejects: unknown[] = [];
  const p = new RecordParser({
    expectedFields,
    onRecord: (fields, recordNo, line) => records.push({ fields, recordNo, line }),
    onReject: (r) => rejects.push(r),
  });
  p.push(data);
  p.end();
  return { records, rejects };
}

describe('listZip / openMemberStream on the real samples', () => {
  test('every sample zip lists and streams with a valid CRC', async () => {
    const zips = fs.readdirSync(RECEITA_MINI).filter((f) => f.endsWith('.zip'));
    assert.ok(zips.length >= 14);
    for (const z of zips) {
      const members = await listZip(path.join(RECEITA_MINI, z));
      assert.equal(members.length, 1, z);
      const data = await readAll(openMemberStream(path.join(RECEITA_MINI, z), members[0]));
      assert.equal(data.length, members[0].uncompressedSize, z);
    }
  });

  test('Estabelecimentos0.zip: SERPRO 33683111/0002-80, 30 fields, trailing blank line skipped', async () => {
    const file = path.join(RECEITA_MINI, 'Estabelecimentos0.zip');
    const [m] = await listZip(file);
    assert.deepEqual(
      { ...m, crc32: typeof m.crc32 },
      {
        name: 'Estabelecimentos0',
        method: 8,
        compressedSize: m.compressedSize,
        uncompressedSize: 240,
        crc32: 'number',
        localHeaderOffset: 0,
      },
    );
    const data = await readAll(openMemberStream(file, m));
    assert.ok(data.subarray(-2).equals(Buffer.from('\n\n')), 'sample ends with a blank line');
    const { records, rejects } = parseAll(data, 30);
    assert.equal(rejects.length, 0);
    assert.equal(records.length, 1);
    const f = records[0].fields;
    assert.equal(f.length, 30);
    assert.deepEqual([f[0], f[1], f[2]], ['33683111', '0002', '80']);
    assert.equal(f[4], 'REGIONAL BRASILIA-DF');
    assert.equal(f[12], '6201501,6202300,6203100,6209100,6311900');
    assert.equal(f[20], '9701');
  });

  test('Socios0.zip: 7 records of 11 fields', async () => {
    const file = path.join(RECEITA_MINI, 'Socios0.zip');
    const [m] = await listZip(file);
    const { records, rejects } = parseAll(await readAll(openMemberStream(file, m)), 11);
    assert.equal(rejects.length, 0);
    assert.equal(records.length, 7);
    for (const r of records) assert.equal(r.fields.length, 11);
    assert.deepEqual(
      records.map((r) => r.line),
      [1, 2, 3, 4, 5, 6, 7],
    );
  });

  test('Lucro Presumido.zip: member inside a folder, CRLF content', async () => {
    const file = path.join(RECEITA_MINI, 'Lucro Presumido.zip');
    const members = await listZip(file);
    assert.deepEqual(
      members.map((m) => m.name),
      ['Lucro Presumido/Lucro Presumido 2018.csv'],
    );
    const text = (await readAll(openMemberStream(file, members[0]))).toString('latin1');
    assert.ok(text.startsWith('ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes\r\n'));
    assert.match(text, /33\.683\.111\/0002-80/);
  });

  test('Latin-1 code tables stream byte-exact (Cnaes: "informação")', async () => {
    const file = path.join(RECEITA_MINI, 'Cnaes.zip');
    const [m] = await listZip(file);
    const { records } = parseAll(await readAll(openMemberStream(file, m)), 2);
    assert.deepEqual(records[0].fields, ['6204000', 'Consultoria em tecnologia da informação']);
  });
});

describe('ZIP64 and streaming behaviour', () => {
  test('forced ZIP64 (EOCD64 record/locator, zip64 extra), data descriptors, directory entry, comment', async () => {
    const big = generateEstabelecimentos(3000, 11);
    const f = path.join(tmp, 'z64.zip');
    writeZip(
      f,
      [
        { name: 'dir/', data: '', method: 0 },
        { name: 'K3241.K03200Y0.D51213.ESTABELE', data: big, dataDescriptor: true },
        { name: 'dir/stored.csv', data: '"a";"b"\n', method: 0, dataDescriptor: true },
        { name: 'empty', data: '', method: 8 },
      ],
      { zip64: true, comment: 'zip64 de teste' },
    );
    const members = await listZip(f);
    assert.deepEqual(
      members.map((m) => [m.name, m.method, m.uncompressedSize]),
      [
        ['K3241.K03200Y0.D51213.ESTABELE', 8, big.length],
        ['dir/stored.csv', 0, 8],
        ['empty', 8, 0],
      ],
    );
    assert.ok((await readAll(openMemberStream(f, members[0]))).equals(big));
    assert.equal((await readAll(openMemberStream(f, members[1]))).toString(), '"a";"b"\n');
    assert.equal((await readAll(openMemberStream(f, members[2]))).length, 0);
  });

  test('ZIP64 fields above 4 GiB are decoded (central directory values patched, no 4 GB file needed)', async () => {
    const f = path.join(tmp, 'z64big.zip');
    const buf = buildZip([{ name: 'm', data: 'x', method: 0 }], { zip64: true });
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    // zip64 extra after the 1-byte name: header(4) + usize(8) + csize(8) + offset(8)
    const extra = cd + 46 + 1;
    assert.equal(buf.readUInt16LE(extra), 1);
    buf.writeUInt32LE(1, extra + 4 + 4); // usize high word → 4 GiB + 1
    fs.writeFileSync(f, buf);
    const [m] = await listZip(f);
    assert.equal(m.uncompressedSize, 2 ** 32 + 1);
    await assert.rejects(readAll(openMemberStream(f, m)), /ended after 1 of 4294967297 bytes/);
  });

  test('ZIP64 record pointed to by a broken locator', async () => {
    const f = path.join(tmp, 'z64bad.zip');
    const buf = buildZip([{ name: 'm', data: 'x', method: 0 }], { zip64: true });
    const loc = buf.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]));
    buf.writeUInt32LE(3, loc + 8);
    fs.writeFileSync(f, buf);
    await assert.rejects(listZip(f), /invalid ZIP64 end of central directory record/);
  });

  test('large member in small chunks: content, CRC and onCompressedBytes', async () => {
    const data = generateEstabelecimentos(20000, 5);
    const f = path.join(tmp, 'big.zip');
    writeZip(f, [{ name: 'ESTABELE', data, level: 1 }]);
    const [m] = await listZip(f);
    let compressed = 0;
    let chunks = 0;
    const s = openMemberStream(f, m, { highWaterMark: 64 * 1024, onCompressedBytes: (n) => (compressed += n) });
    const parts: Buffer[] = [];
    for await (const c of s) {
      parts.push(c as Buffer);
      chunks++;
    }
    assert.ok(Buffer.concat(parts).equals(data));
    assert.equal(compressed, m.compressedSize);
    assert.ok(chunks > 10);
  });

  test('consumer stopping early does not hang or throw', async () => {
    const data = generateEstabelecimentos(20000, 6);
    const f = path.join(tmp, 'early.zip');
    writeZip(f, [{ name: 'ESTABELE', data }]);
    const [m] = await listZip(f);
    const s = openMemberStream(f, m, { highWaterMark: 16 * 1024 });
    for await (const c of s) {
      assert.ok((c as Buffer).length > 0);
      break;
    }
    assert.ok(s.destroyed);
  });
});

describe('a zip stored inside a zip (a folder download)', () => {
  test('is listed and streamed in place, its offsets counted from its start', async () => {
    const inner = fs.readFileSync(path.join(RECEITA_MINI, 'Estabelecimentos0.zip'));
    const outer = path.join(tmp, '2026-09.zip');
    writeZip(
      outer,
      [
        { name: '2026-09/', data: '', method: 0 },
        { name: '2026-09/tabmun.csv', data: 'not a zip, skipped', method: 0, dataDescriptor: true },
        { name: '2026-09/Estabelecimentos0.zip', data: inner, method: 0, dataDescriptor: true },
      ],
      { zip64: true },
    );
    const download = await folderDownload(outer, await listZip(outer));
    assert.ok(download);
    assert.equal(download.folder, '2026-09');
    assert.equal(download.zips.length, 1);
    const [slice] = download.zips;
    assert.equal(slice.name, 'Estabelecimentos0.zip');
    assert.deepEqual(fs.readFileSync(outer).subarray(slice.start, slice.start + slice.size), inner);
    const direct = path.join(RECEITA_MINI, 'Estabelecimentos0.zip');
    const [member] = await listZip(slice);
    assert.deepEqual(member, (await listZip(direct))[0]);
    assert.deepEqual(await readAll(openMemberStream(slice, member)), await readAll(openMemberStream(direct, member)));
  });

  test('an ordinary zip is no folder download', async () => {
    const file = path.join(RECEITA_MINI, 'Cnaes.zip');
    assert.equal(await folderDownload(file, await listZip(file)), null);
  });
});
