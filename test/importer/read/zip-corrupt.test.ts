import { execFileSync } from 'node:child_process';
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer as readAll } from 'node:stream/consumers';
import { listZip, openMemberStream, ZipError, type ZipInput, type ZipMember } from '../../../importer/read/zip.ts';
import { buildZip, writeZip } from '../../helpers/zip-writer.ts';
import { generateEstabelecimentos, rng } from '../../helpers/gen-records.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-corrupt-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Lists and fully reads every member; resolves to the ZipError (or null when the zip is sound). */
async function zipFailure(file: ZipInput): Promise<ZipError | null> {
  let members: ZipMember[];
  try {
    members = await listZip(file);
  } catch (err) {
    assert.ok(err instanceof ZipError, `expected ZipError, got ${String(err)}`);
    return err;
  }
  for (const m of members) {
    try {
      await readAll(openMemberStream(file, m));
    } catch (err) {
      assert.ok(err instanceof ZipError, `expected ZipError, got ${String(err)}`);
      return err;
    }
  }
  return null;
}

describe('corrupt inputs give a clean ZipError', () => {
  test('0-byte file', async () => {
    const f = path.join(tmp, 'Empresas3.zip');
    fs.writeFileSync(f, '');
    await assert.rejects(
      listZip(f),
      (e: unknown) => e instanceof ZipError && /^Empresas3\.zip: empty file/.test(e.message),
    );
  });

  test('a tar of the month (what the file server hands a macOS browser) says to unpack it', async () => {
    const f = path.join(tmp, '2026-09.tar');
    execFileSync('tar', ['-cf', f, '-C', RECEITA_MINI, '.']);
    await assert.rejects(
      listZip(f),
      (e: unknown) =>
        e instanceof ZipError &&
        /^2026-09\.tar: a tar archive, not a zip: unpack it into a folder \(tar -xf\) and import that folder$/.test(
          e.message,
        ),
    );
  });

  test('non-zip file, tiny file and missing file', async () => {
    const f = path.join(tmp, 'nota.zip');
    fs.writeFileSync(f, 'isto não é um zip\n'.repeat(50));
    await assert.rejects(listZip(f), (e: unknown) => e instanceof ZipError && /not a zip file/.test(e.message));
    const g = path.join(tmp, 'tiny.zip');
    fs.writeFileSync(g, 'PK\x03\x04');
    await assert.rejects(listZip(g), ZipError);
    await assert.rejects(
      listZip(path.join(tmp, 'nao-existe.zip')),
      (e: unknown) => e instanceof ZipError && /cannot open the file/.test(e.message),
    );
  });

  test('a zip inside a zip, cut short at every offset or reaching past the file, names both zips', async () => {
    const inner = fs.readFileSync(path.join(RECEITA_MINI, 'Estabelecimentos0.zip'));
    const file = path.join(tmp, '2026-09.zip');
    writeZip(file, [{ name: '2026-09/Estabelecimentos0.zip', data: inner, method: 0, dataDescriptor: true }]);
    const start = fs.readFileSync(file).indexOf(inner);
    for (let size = 0; size < inner.length; size++) {
      const err = await zipFailure({ file, start, size, name: 'Estabelecimentos0.zip' });
      assert.ok(err, `a slice of ${size} bytes was not detected`);
      assert.match(err.message, /^2026-09\.zip:Estabelecimentos0\.zip: /);
    }
    const past = await zipFailure({
      file,
      start: fs.statSync(file).size - 10,
      size: inner.length,
      name: 'Estabelecimentos0.zip',
    });
    assert.match(
      String(past?.message),
      /^2026-09\.zip:Estabelecimentos0\.zip: truncated or corrupt zip file \(it ends \d+ bytes past the end of 2026-09\.zip\)/,
    );
  });

  test('real sample truncated at every offset', async () => {
    const src = fs.readFileSync(path.join(RECEITA_MINI, 'Estabelecimentos0.zip'));
    const f = path.join(tmp, 'Estabelecimentos0.zip');
    for (let cut = 1; cut < src.length; cut++) {
      fs.writeFileSync(f, src.subarray(0, cut));
      const err = await zipFailure(f);
      assert.ok(err, `cut at ${cut} was not detected`);
      assert.match(err.message, /^Estabelecimentos0\.zip: /);
    }
  });

  test('truncated inside the EOCD comment', async () => {
    const buf = buildZip([{ name: 'a.csv', data: '"1";"2"\n' }], { comment: 'comentário do zip' });
    const f = path.join(tmp, 'comment.zip');
    fs.writeFileSync(f, buf);
    assert.equal(await zipFailure(f), null, 'full zip with comment is fine');
    fs.writeFileSync(f, buf.subarray(0, buf.length - 5));
    const err = await zipFailure(f);
    assert.match(err?.message ?? '', /end of central directory not found/);
  });

  test('member data overwritten with garbage: CRC error (stored) / corrupt data (deflate)', async () => {
    const data = generateEstabelecimentos(2000, 7);
    const name = 'K3241.K03200Y0.D51213.EMPRECSV';
    const stored = buildZip([{ name, data, method: 0 }]);
    const dataStart = 30 + name.length;
    stored.fill(0x41, dataStart + 1000, dataStart + 1100);
    const f = path.join(tmp, 'stored.zip');
    fs.writeFileSync(f, stored);
    const err = await zipFailure(f);
    assert.equal(err?.message, `stored.zip: CRC mismatch in member ${name} (corrupt file)`);

    const r = rng(3);
    for (let trial = 0; trial < 20; trial++) {
      const deflated = buildZip([{ name, data }]);
      const compLen = deflated.readUInt32LE(18);
      const at = dataStart + Math.floor(r() * (compLen - 64));
      for (let k = 0; k < 64; k++) deflated[at + k] = Math.floor(r() * 256);
      const g = path.join(tmp, 'deflate.zip');
      fs.writeFileSync(g, deflated);
      const e = await zipFailure(g);
      assert.ok(e, `garbage at ${at} not detected`);
      assert.match(e.message, /CRC mismatch|invalid compressed data|truncated|larger than/);
    }
  });

  test('declared size differs from the data', async () => {
    const name = 'x.csv';
    const buf = buildZip([{ name, data: 'abcdef'.repeat(100), method: 0 }]);
    const f = path.join(tmp, 'size.zip');
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const bigger = Buffer.from(buf);
    bigger.writeUInt32LE(601, cd + 24);
    fs.writeFileSync(f, bigger);
    assert.match((await zipFailure(f))?.message ?? '', /ended after 600 of 601 bytes/);

    // Deflate member whose declared uncompressed size is smaller than what it inflates to.
    const d = buildZip([{ name, data: 'abcdef'.repeat(100) }]);
    const cd2 = d.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    d.writeUInt32LE(10, cd2 + 24);
    fs.writeFileSync(f, d);
    assert.match((await zipFailure(f))?.message ?? '', /larger than its declared size/);
  });

  test('unsupported method and encrypted members', async () => {
    const buf = buildZip([{ name: 'x.csv', data: 'abc', method: 0 }]);
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    const f = path.join(tmp, 'method.zip');
    const m = Buffer.from(buf);
    m.writeUInt16LE(12, cd + 10); // bzip2
    fs.writeFileSync(f, m);
    await assert.rejects(listZip(f), /compression method 12 not supported/);
    const e = Buffer.from(buf);
    e.writeUInt16LE(e.readUInt16LE(cd + 8) | 1, cd + 8);
    fs.writeFileSync(f, e);
    await assert.rejects(listZip(f), /is encrypted/);
    // A member object with a bad method passed directly also fails cleanly (as a stream error).
    await assert.rejects(
      readAll(
        openMemberStream(f, {
          name: 'x.csv',
          method: 14,
          compressedSize: 3,
          uncompressedSize: 3,
          crc32: 0,
          localHeaderOffset: 0,
        }),
      ),
      ZipError,
    );
  });

  test('control characters in member names are shown escaped (no terminal commands from a zip)', async () => {
    const f = path.join(tmp, 'esc.zip');
    writeZip(f, [{ name: '\x1b]0;owned\x07\x1b[2JX.CNAECSV', data: 'abc', method: 0 }]);
    const [m] = await listZip(f);
    assert.equal(m.name, '\\x1b]0;owned\\x07\\x1b[2JX.CNAECSV');
    await assert.rejects(
      readAll(openMemberStream(f, { ...m, uncompressedSize: 1 })),
      (err: Error) => !/[\x00-\x1f]/.test(err.message) && /\\x1b\[2J/.test(err.message),
    );
  });

  test('bad local header offset', async () => {
    const f = path.join(tmp, 'ok.zip');
    writeZip(f, [{ name: 'a', data: 'hello world', method: 0 }]);
    const [m] = await listZip(f);
    await assert.rejects(
      readAll(openMemberStream(f, { ...m, localHeaderOffset: 3 })),
      /invalid local header of member a/,
    );
  });
});
