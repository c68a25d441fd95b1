import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { RecordParser, type RejectedRecord } from '../../../importer/read/records.ts';
import { MAX_RECORD_CHARS, MAX_LINE_CHARS } from '../../../importer/read/split.ts';
import { decodeField, repairUtf8 } from '../../../importer/read/decode.ts';

interface Out {
  records: [string[], number, number][];
  rejects: RejectedRecord[];
  counts: [number, number];
}

function run(input: Buffer | string, n: number, chunks?: number[]): Out {
  const buf = typeof input === 'string' ? Buffer.from(input, 'latin1') : input;
  const out: Out = { records: [], rejects: [], counts: [0, 0] };
  const p = new RecordParser({
    expectedFields: n,
    onRecord: (f, r, l) => out.records.push([f, r, l]),
    onReject: (r) => out.rejects.push(r),
  });
  let at = 0;
  for (const c of chunks ?? []) {
    p.push(buf.subarray(at, c));
    at = c;
  }
  p.push(buf.subarray(at));
  p.end();
  out.counts = [p.records, p.rejected];
  return out;
}
const fieldsOf = (o: Out) => o.records.map((r) => r[0]);

describe('RecordParser: registry format quirks (docs/receita-dump.md §3, §7)', () => {
  test('plain quoted records, recordNo and line numbers, counters', () => {
    const o = run('"1";"a";"x"\n"2";"b";"y"\n"3";"";""\n', 3);
    assert.deepEqual(o.records, [
      [['1', 'a', 'x'], 1, 1],
      [['2', 'b', 'y'], 2, 2],
      [['3', '', ''], 3, 3],
    ]);
    assert.deepEqual(o.counts, [3, 0]);
  });

  test('quirk 1: quoted raw LF spans lines; later line numbers stay physical', () => {
    const o = run(
      `"54662000";"0002";"67";"2";"SWEET HOME II'\nINCORPORADORA E CONSTRUTORA SPE LTDA";"02"\n"1";"2";"3";"4";"5";"6"\n`,
      6,
    );
    assert.deepEqual(o.records, [
      [['54662000', '0002', '67', '2', "SWEET HOME II'\nINCORPORADORA E CONSTRUTORA SPE LTDA", '02'], 1, 1],
      [['1', '2', '3', '4', '5', '6'], 2, 3],
    ]);
  });

  test('quirk 2: blank lines (middle, CRLF, trailing) are skipped, not rejected', () => {
    const o = run('"a";"b"\n\n\r\n"c";"d"\n\n', 2);
    assert.deepEqual(o.records, [
      [['a', 'b'], 1, 1],
      [['c', 'd'], 2, 4],
    ]);
    assert.equal(o.rejects.length, 0);
  });

  test('quirk 3: NUL bytes are stripped anywhere (inside fields, between fields, lines of NULs)', () => {
    const o = run('"a\0b";"\0c"\0\n\0\0\n"d";\0"e"\n', 2);
    assert.deepEqual(fieldsOf(o), [
      ['ab', 'c'],
      ['d', 'e'],
    ]);
    assert.equal(o.rejects.length, 0);
  });

  test('quirk 4: `;` inside quoted fields, including `";` look-alikes', () => {
    const o = run('"1";"EDIF HORTO SAO RAFAEL;BLOCO 2;ANDAR 805";"x"\n"2";";";";;"\n', 3);
    assert.deepEqual(fieldsOf(o), [
      ['1', 'EDIF HORTO SAO RAFAEL;BLOCO 2;ANDAR 805', 'x'],
      ['2', ';', ';;'],
    ]);
  });

  test('quirk 5: backslash before the closing quote is a literal backslash (no escape char)', () => {
    const o = run('"POLI BRILHO\\";"3";"z"\n"a\\\\";"\\"";"\\n"\n', 3);
    assert.deepEqual(fieldsOf(o), [
      ['POLI BRILHO\\', '3', 'z'],
      ['a\\\\', '\\"', '\\n'],
    ]);
  });

  test('quirk 6: lenient quotes, `"` closes only before `;`, LF, CRLF or end of input', () => {
    const o = run('"SAY "HI" NOW";"A""B";"C"D"\n"x";"q"r";"end""\n"k";"l";"m"', 3);
    assert.deepEqual(fieldsOf(o), [
      ['SAY "HI" NOW', 'A""B', 'C"D'],
      ['x', 'q"r', 'end"'],
      ['k', 'l', 'm'],
    ]);
    // a quote followed by `;` closes even mid-"word": the record then has too many fields → rejected
    const r = run('"a";"b";"c";"d"\n', 3);
    assert.equal(r.rejects[0].reason, 'expected 3 fields, found 4');
  });

  test('CRLF line endings (CR before LF tolerated; lone CR kept)', () => {
    const o = run('"a";"b"\r\n"c\rd";"e"\r\n"f";"g\r\nh"\r\n', 2);
    assert.deepEqual(fieldsOf(o), [
      ['a', 'b'],
      ['c\rd', 'e'],
      ['f', 'g\r\nh'],
    ]);
  });

  test('unquoted and mixed fields are tolerated', () => {
    const o = run('1;"b";3\nx;;"z"\n"a";b"c;d\n', 3);
    assert.deepEqual(fieldsOf(o), [
      ['1', 'b', '3'],
      ['x', '', 'z'],
      ['a', 'b"c', 'd'],
    ]);
  });

  test('wrong field count → onReject with raw, recordNo, line and reason; never shifts, never aborts', () => {
    const o = run('"1";"a";"x"\n"2";"b"\n"3";"c";"y";"extra"\n\n"4";"d";"z"\n', 3);
    assert.deepEqual(fieldsOf(o), [
      ['1', 'a', 'x'],
      ['4', 'd', 'z'],
    ]);
    assert.deepEqual(o.rejects, [
      { raw: '"2";"b"', recordNo: 2, line: 2, reason: 'expected 3 fields, found 2' },
      { raw: '"3";"c";"y";"extra"', recordNo: 3, line: 3, reason: 'expected 3 fields, found 4' },
    ]);
    assert.deepEqual(o.records[1].slice(1), [4, 5]);
    assert.deepEqual(o.counts, [2, 2]);
  });

  test('unterminated quote does not swallow the following records (resync at the next line)', () => {
    const o = run('"1";"unterminated;x\n"2";"b";"c"\n"3";"d";"e"\n', 3);
    assert.deepEqual(fieldsOf(o), [
      ['2', 'b', 'c'],
      ['3', 'd', 'e'],
    ]);
    assert.equal(o.rejects.length, 1);
    assert.equal(o.rejects[0].raw, '"1";"unterminated;x');
    assert.equal(o.rejects[0].line, 1);
    assert.match(o.rejects[0].reason, /expected 3 fields, found \d+ \(record of 2 lines/);
    assert.deepEqual(
      o.records.map((r) => r[2]),
      [2, 3],
    );
  });

  test('unterminated quote with no closing quote at all: bounded by MAX_RECORD_CHARS', () => {
    const tail = 'a;b;c\n'.repeat(Math.ceil(MAX_RECORD_CHARS / 6) + 100);
    const input = '"1";"open\n' + tail;
    const expectedRecords = tail.length / 6;
    for (const chunks of [undefined, [7], [4000, 9000, 20000]]) {
      const o = run(input, 3, chunks);
      assert.equal(o.rejects.length, 1);
      assert.match(o.rejects[0].reason, /unclosed quote/);
      assert.equal(o.rejects[0].raw, '"1";"open');
      assert.equal(o.records.length, expectedRecords);
      assert.deepEqual(o.records[0], [['a', 'b', 'c'], 2, 2]);
    }
    // at end of input
    const e = run('"1";"2";"3"\n"4";"open', 3);
    assert.deepEqual(e.counts, [1, 1]);
    assert.match(e.rejects[0].reason, /unclosed quote/);
  });

  test('a quoted field spanning more than MAX_RECORD_LINES lines is rejected, parsing continues', () => {
    const input = '"1";"x\n' + 'y\n'.repeat(40) + '";"z"\n"2";"a";"b"\n';
    const o = run(input, 3);
    assert.match(o.rejects[0].reason, /record longer than 32 lines/);
    assert.equal(o.rejects[0].line, 1);
    assert.deepEqual(o.records.at(-1), [['2', 'a', 'b'], o.counts[0] + o.counts[1], 43]);
  });

  test('line longer than MAX_LINE_CHARS is rejected whatever the chunking', () => {
    const long = '"' + 'x'.repeat(MAX_LINE_CHARS + 10) + '";"b"\n';
    const input = '"a";"b"\n' + long + '"c";"d"\n';
    for (const chunks of [undefined, [100], [100, 40000, 70000]]) {
      const o = run(input, 2, chunks);
      assert.deepEqual(fieldsOf(o), [
        ['a', 'b'],
        ['c', 'd'],
      ]);
      assert.equal(o.rejects.length, 1);
      assert.equal(o.rejects[0].line, 2);
      assert.deepEqual(o.records[1].slice(1), [3, 3]);
    }
  });

  test('quirk 11: embedded UTF-8 repaired; genuine Latin-1 kept; invalid sequences kept', () => {
    const input = Buffer.concat([
      Buffer.from('"18";"Secret'),
      Buffer.from([0xc3, 0xa1]),
      Buffer.from('rio"\n'),
      Buffer.from('"19";"CONSTRU'),
      Buffer.from([0xc7, 0xc3]),
      Buffer.from('O"\n'),
      Buffer.from('"20";"bad '),
      Buffer.from([0xc3, 0x28, 0xe9]),
      Buffer.from('"\n'),
      Buffer.from('"21";"caf'),
      Buffer.from([0xe9, 0x20, 0xc3, 0xa1]),
      Buffer.from('"\n'),
      Buffer.from('"22";"x;'),
      Buffer.from([0xc3, 0xa7]),
      Buffer.from('\n'),
      Buffer.from([0xe2, 0x82, 0xac]),
      Buffer.from('"\n'),
    ]);
    const o = run(input, 2);
    assert.deepEqual(fieldsOf(o), [
      ['18', 'Secretário'],
      ['19', 'CONSTRUÇÃO'],
      ['20', 'bad Ã(é'],
      ['21', 'café á'],
      ['22', 'x;ç\n€'],
    ]);
  });

  test('repairUtf8: double-encoded text, overlong/surrogate sequences left alone, clean strings untouched', () => {
    assert.equal(repairUtf8(Buffer.from([0x53, 0xc3, 0x83, 0xc2, 0xa1]).toString('latin1')), 'Sá');
    assert.equal(repairUtf8('\u00c0\u00af'), '\u00c0\u00af'); // overlong: C0 is not a lead byte here
    assert.equal(repairUtf8('\u00ed\u00a0\u0080'), '\u00ed\u00a0\u0080'); // UTF-16 surrogate encoding
    assert.equal(repairUtf8('NºÇºÉº ãºº'), 'NºÇºÉº ãºº'); // genuine Latin-1 that happens to be valid UTF-8
    assert.equal(repairUtf8('\u00c2\u0085'), '\u00c2\u0085'); // would decode to a C1 control
    assert.equal(repairUtf8('\u00e2\u0080\u0093 \u00e2\u0084\u00a2'), '– ™');
    const clean = 'RUA SÃO JOÃO';
    assert.equal(repairUtf8(clean), clean);
  });

  test('quirk 21: 0x80-0x9F are Windows-1252 (the five undefined bytes kept); UTF-8 sequences decoded first', () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => 0x80 + i));
    // The WHATWG windows-1252 table for 80-9F.
    const expected = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
    assert.equal(decodeField(bytes.toString('latin1')), expected);
    const o = run(
      Buffer.concat([
        Buffer.from('"1";"'),
        Buffer.from([0x93, 0x41, 0x94, 0x20, 0xe2, 0x80, 0x93, 0x20, 0x96, 0x20, 0xc3, 0xa9, 0x20, 0xc2, 0x85]),
        Buffer.from('"\n'),
      ]),
      2,
    );
    assert.deepEqual(
      fieldsOf(o),
      [['1', '“A” – – é Â…']],
      'UTF-8 dash, cp1252 dash, UTF-8 é; C2 85 is no UTF-8 we decode: Â then …',
    );
    assert.equal(decodeField('RUA SÃO JOÃO'), 'RUA SÃO JOÃO');
  });

  test('quirk 22: a byte-order mark starting the member is dropped, whatever the chunking; elsewhere it is text', () => {
    const input = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('"01";"a"\n"02";"b"\n')]);
    for (const chunks of [undefined, [1], [2], [1, 2], [3], [4]]) {
      assert.deepEqual(
        fieldsOf(run(input, 2, chunks)),
        [
          ['01', 'a'],
          ['02', 'b'],
        ],
        `chunks at ${chunks}`,
      );
    }
    assert.deepEqual(fieldsOf(run(Buffer.from([0xef, 0xbb]), 1)), [['ï»']], 'a lone start of a mark is data');
    const later = run(
      Buffer.concat([Buffer.from('"01";"a"\n'), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('"02";"b"\n')]),
      2,
    );
    assert.ok(
      fieldsOf(later)[1][0].startsWith('ï»¿'),
      'not at the start: kept as text (a key field then fails its check)',
    );
  });

  test('fields are returned untrimmed', () => {
    assert.deepEqual(fieldsOf(run('"  CONJ  54-B  ";" "\n', 2)), [['  CONJ  54-B  ', ' ']]);
  });

  test('last record without trailing newline is flushed by end(); empty input gives nothing', () => {
    assert.deepEqual(run('"a";"b"\n"c";"d"', 2).records, [
      [['a', 'b'], 1, 1],
      [['c', 'd'], 2, 2],
    ]);
    assert.deepEqual(run('"a";"b"\r', 2).records, [[['a', 'b'], 1, 1]]);
    assert.deepEqual(run('', 2).counts, [0, 0]);
    assert.deepEqual(run('\n\n', 2).counts, [0, 0]);
  });

  test('push after end() throws; end() is idempotent', () => {
    const p = new RecordParser({ expectedFields: 1, onRecord: () => {}, onReject: () => {} });
    p.end();
    p.end();
    assert.throws(() => p.push(Buffer.from('"a"\n')));
  });

  test('chunk boundaries at every byte position (2 and 3 chunks, and 1-byte chunks) give identical results', () => {
    const input = Buffer.concat([
      Buffer.from('"1";"a;b";"POLI\\"\r\n\n"2";"multi\nline";"x"\n"3";"q"r";"\0z"\n'),
      Buffer.from('"4";"Secret'),
      Buffer.from([0xc3, 0xa1]),
      Buffer.from('rio";"\'"\n'),
      Buffer.from('bad;"5"\n"6";"open\n"7";"k";"l"\n1;2;3\n\n'),
    ]);
    const whole = run(input, 3);
    assert.equal(whole.records.length, 6);
    assert.equal(whole.rejects.length, 2);
    for (let i = 1; i < input.length; i++) {
      assert.deepEqual(run(input, 3, [i]), whole, `split at ${i}`);
      for (let j = i + 1; j < input.length; j += 3)
        assert.deepEqual(run(input, 3, [i, j]), whole, `split at ${i},${j}`);
    }
    const bytes = Array.from({ length: input.length - 1 }, (_, k) => k + 1);
    assert.deepEqual(run(input, 3, bytes), whole);
  });

  test('constructor validates expectedFields', () => {
    assert.throws(() => new RecordParser({ expectedFields: 0, onRecord: () => {}, onReject: () => {} }), RangeError);
  });
});
