import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ZipWriter } from '../../src/demo/zip-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'zip-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const unzipList = (zip: string) =>
  execFileSync('unzip', ['-Z1', zip], { encoding: 'latin1' }).split('\n').filter(Boolean);
const unzipAll = (zip: string) => execFileSync('unzip', ['-p', zip], { maxBuffer: 1 << 28 });

test('zip writer: ZIP64 records and `$`/spaces in names are accepted by unzip', () => {
  const p = join(dir, 'z64.zip');
  const z = new ZipWriter(p, { forceZip64: true });
  z.beginEntry('F.K03200$Z.D60913.CNAECSV');
  for (let i = 0; i < 50_000; i++) z.write(`"${i}";"Descrição ${i}"\n`);
  z.endEntry();
  z.addText('Lucro Presumido/Lucro Presumido 2018.csv', 'ano\r\n');
  z.close();
  execFileSync('unzip', ['-tq', p]);
  assert.deepEqual(unzipList(p), ['F.K03200$Z.D60913.CNAECSV', 'Lucro Presumido/Lucro Presumido 2018.csv']);
  const text = unzipAll(p).toString('latin1');
  assert.ok(text.includes('"49999";"Descrição 49999"\n'));
});

test('zip writer: whole members stored or deflated, with or without data descriptors, and a comment, in memory', () => {
  for (const forceZip64 of [false, true]) {
    const z = ZipWriter.inMemory({ forceZip64, comment: 'comentário' });
    z.addMember('dir/', '', { method: 0 });
    z.addMember('a.csv', 'x'.repeat(10_000), { dataDescriptor: true });
    z.addMember('dir/s.csv', '"a";"b"\n', { method: 0, dataDescriptor: true });
    z.addMember('b.csv', 'olá', { method: 0 });
    z.addMember('empty', '');
    z.close();
    const p = join(dir, `members-${forceZip64}.zip`);
    writeFileSync(p, z.contents());
    execFileSync('unzip', ['-tq', p]);
    assert.deepEqual(unzipList(p), ['dir/', 'a.csv', 'dir/s.csv', 'b.csv', 'empty']);
    assert.equal(execFileSync('unzip', ['-p', p, 'b.csv']).toString('latin1'), 'olá');
    assert.equal(execFileSync('unzip', ['-z', p]).toString('latin1').trim().split('\n').pop(), 'comentário');
  }
});
