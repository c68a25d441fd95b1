import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DelimitedParser, DelimitedLayoutError } from '../../../importer/read/delimited.ts';
import type { RejectedRecord } from '../../../importer/read/records.ts';
import { MAX_LINE_CHARS } from '../../../importer/read/split.ts';
import { listZip, openMemberStream } from '../../../importer/read/zip.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';

const HEADER = ['ano', 'cnpj', 'cnpj_da_scp', 'forma_de_tributacao', 'quantidade_de_escrituracoes'];

type DelimitedItem = { fields: string[]; recordNo: number } | { reject: RejectedRecord };

async function collect(stream: Readable): Promise<DelimitedItem[]> {
  const out: DelimitedItem[] = [];
  const parser = new DelimitedParser({
    expectedHeader: HEADER,
    onRecord: (fields, recordNo) => out.push({ fields, recordNo }),
    onReject: (reject) => out.push({ reject }),
  });
  for await (const chunk of stream) parser.push(chunk as Buffer);
  parser.end();
  return out;
}
const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p, 'latin1')));

describe('DelimitedParser (Regime Tributário files)', () => {
  test('real sample zips: header skipped, CRLF (Lucro Presumido) and LF (Lucro Real)', async () => {
    const expected: Record<string, string[]> = {
      'Lucro Presumido.zip': ['2018', '33.683.111/0002-80', '0', 'LUCRO PRESUMIDO', '1'],
      'Lucro Real.zip': ['2023', '00.000.000/0001-91', '0', 'LUCRO REAL', '1'],
      'Imunes e Isentas.zip': ['2023', '00.000.001/0001-36', '0', 'IMUNE DO IRPJ', '1'],
      'Lucro Arbitrado.zip': ['2023', '00.055.699/0001-97', '0', 'LUCRO ARBITRADO', '1'],
    };
    for (const [zip, fields] of Object.entries(expected)) {
      const file = path.join(RECEITA_MINI, zip);
      const [m] = await listZip(file);
      assert.deepEqual(await collect(openMemberStream(file, m)), [{ fields, recordNo: 1 }], zip);
    }
  });

  test('older variant: `;` separator, no header, quoted fields', async () => {
    const items = await collect(
      chunks('"2019";"33.683.111/0002-80";"0";"LUCRO PRESUMIDO";"1"\n2020;00.000.000/0001-91;0;LUCRO REAL;2\n'),
    );
    assert.deepEqual(items, [
      { fields: ['2019', '33.683.111/0002-80', '0', 'LUCRO PRESUMIDO', '1'], recordNo: 1 },
      { fields: ['2020', '00.000.000/0001-91', '0', 'LUCRO REAL', '2'], recordNo: 2 },
    ]);
  });

  test('repeated header lines (concatenated per-year files), BOM and upper-case header', async () => {
    const items = await collect(
      chunks(
        '\u00EF\u00BB\u00BFANO,CNPJ,CNPJ_DA_SCP,FORMA_DE_TRIBUTACAO,QUANTIDADE_DE_ESCRITURACOES\r\n2018,1,0,LUCRO REAL,1\r\n',
        'ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes\r\n2019,2,0,LUCRO REAL,1\r\n',
      ),
    );
    assert.deepEqual(
      items.map((i) => ('fields' in i ? i.fields[0] : 'reject')),
      ['2018', '2019'],
    );
    assert.deepEqual(
      items.map((i) => ('fields' in i ? i.recordNo : 0)),
      [1, 2],
    );
  });

  test('sniffing works when the first line arrives in several small chunks', async () => {
    const items = await collect(
      chunks(
        'ano,cn',
        'pj,cnpj_da_scp,forma_de_tributacao,quant',
        'idade_de_escrituracoes\n2018,1',
        ',0,"LUCRO, REAL",1\n',
      ),
    );
    assert.deepEqual(items, [{ fields: ['2018', '1', '0', 'LUCRO, REAL', '1'], recordNo: 1 }]);
  });

  test('wrong field count → reject with raw text, record number and line; blank lines skipped', async () => {
    const items = await collect(
      chunks(
        'ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes\n2018,1,0,LUCRO REAL\n\n2019,2,0,LUCRO REAL,1\n',
      ),
    );
    assert.deepEqual(items, [
      { reject: { raw: '2018,1,0,LUCRO REAL', recordNo: 1, line: 2, reason: 'expected 5 fields, found 4' } },
      { fields: ['2019', '2', '0', 'LUCRO REAL', '1'], recordNo: 2 },
    ]);
  });

  test('an unexpected header (layout change, e.g. the 2021 layout) is refused', async () => {
    await assert.rejects(
      collect(chunks('Ano,CNPJ,Forma_de_Tributacao,Municipio,UF\n2019,1,LUCRO REAL,SAO PAULO,SP\n')),
      DelimitedLayoutError,
    );
  });

  test('a line longer than MAX_LINE_CHARS is rejected and skipped as it streams, whatever the chunking', async () => {
    // A 300 KB regime zip holding 300 MB of digits without a newline once held the whole "line"
    // in memory (2.5 GB RSS, a minute of rescans); 1 GB of it ends in "Invalid string length".
    const long = '1'.repeat(MAX_LINE_CHARS + 1);
    const good = '2019,2,0,LUCRO REAL,1\n';
    const verdict = {
      reject: {
        raw: '1'.repeat(200),
        recordNo: 1,
        line: 1,
        reason: `line longer than ${MAX_LINE_CHARS} characters (dropped)`,
      },
    };
    const after = { fields: ['2019', '2', '0', 'LUCRO REAL', '1'], recordNo: 2 };
    // Whole, in 64 KiB pieces, and as the last line of the file.
    assert.deepEqual(await collect(chunks(long + '\n' + good)), [verdict, after]);
    const pieces: string[] = [];
    for (let i = 0; i < long.length * 4; i += 65536) pieces.push(long.slice(0, 65536));
    assert.deepEqual(await collect(chunks(...pieces, '\n', good)), [verdict, after]);
    assert.deepEqual(await collect(chunks(good, long)), [
      { ...after, recordNo: 1 },
      { reject: { ...verdict.reject, recordNo: 2, line: 2 } },
    ]);
  });

  test('a stream of over-long garbage is read with bounded memory', async () => {
    let rejects = 0;
    const parser = new DelimitedParser({
      expectedHeader: HEADER,
      onRecord: () => assert.fail('no record expected'),
      onReject: () => rejects++,
    });
    const chunk = Buffer.alloc(1 << 20, '1');
    // What the parser holds between chunks: never more than one bounded line.
    let held = 0;
    for (let i = 0; i < 64; i++) {
      parser.push(chunk); // 64 MB without a newline
      held = Math.max(held, (parser as unknown as { rest: string }).rest.length);
    }
    parser.end();
    assert.equal(rejects, 1);
    assert.ok(held <= MAX_LINE_CHARS, `held ${held} characters`);
  });

  test('empty input yields nothing; source errors propagate', async () => {
    assert.deepEqual(await collect(chunks('')), []);
    assert.deepEqual(await collect(chunks('\n\r\n')), []);
    const failing = new Readable({
      read() {
        this.destroy(new Error('boom'));
      },
    });
    await assert.rejects(collect(failing), /boom/);
  });
});
