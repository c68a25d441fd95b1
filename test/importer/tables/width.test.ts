// The width test: each source file's fields (the Receita's layout, and the real sample files)
// against its table's definition (storage/snapshots/tables.ts) and its rules (importer/tables/*).
// The rules map positionally (toRow is the import's hot path); each declares, by name, which source
// fields every column is made from, and these tests hold toRow to that declaration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { DelimitedParser } from '../../../importer/read/delimited.ts';
import { RecordParser, type RejectedRecord } from '../../../importer/read/records.ts';
import { openMemberStream } from '../../../importer/read/zip.ts';
import { planImport, type SourceKind } from '../../../importer/import-plan.ts';
import { sourceTable } from '../../../importer/tables/index.ts';
import type { SourceTable, SqlParam } from '../../../importer/tables/source-table.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';

/** Field counts of the Receita's published layout (and, for the regime CSVs, their header). */
const RECEITA_WIDTHS: Record<SourceKind, number> = {
  companies: 7,
  establishments: 30,
  partners: 11,
  simples: 7,
  regimes: 5,
  cnaes: 2,
  motivos: 2,
  municipios: 2,
  naturezas: 2,
  paises: 2,
  qualificacoes: 2,
};
const KINDS = Object.keys(RECEITA_WIDTHS) as SourceKind[];

/** Every record of the real sample files of `kind`, read as the import reads them. */
async function sampleRecords(kind: SourceKind): Promise<{ records: string[][]; rejects: RejectedRecord[] }> {
  const src = sourceTable(kind);
  const plan = await planImport([RECEITA_MINI]);
  const records: string[][] = [];
  const rejects: RejectedRecord[] = [];
  for (const file of plan.sources.filter((s) => s.kind === kind)) {
    const onRecord = (fields: string[]) => records.push(fields);
    const onReject = (r: RejectedRecord) => rejects.push(r);
    const parser =
      kind === 'regimes'
        ? new DelimitedParser({ expectedHeader: src.layout, onRecord, onReject })
        : new RecordParser({ expectedFields: src.layout.length, onRecord, onReject });
    for await (const chunk of openMemberStream(file.zip, file.member)) parser.push(chunk as Buffer);
    parser.end();
  }
  return { records, rejects };
}

function sourcesOf(src: SourceTable, column: string): readonly string[] {
  const from = src.from[column];
  return typeof from === 'string' ? [from] : from;
}

test("every source declares the Receita's field count, and the real files have exactly that many fields", async () => {
  for (const kind of KINDS) {
    const src = sourceTable(kind);
    assert.equal(src.layout.length, RECEITA_WIDTHS[kind], `${kind}: layout width`);
    assert.equal(new Set(src.layout).size, src.layout.length, `${kind}: a field name twice in the layout`);
    const { records, rejects } = await sampleRecords(kind);
    assert.ok(records.length > 0, `${kind}: no sample record`);
    assert.deepEqual(rejects, [], `${kind}: real records of another width`);
    for (const r of records) assert.equal(r.length, src.layout.length, kind);
  }
});

test("every table column is made from named source fields, in the table's column order, and every source field is used", () => {
  for (const kind of KINDS) {
    const src = sourceTable(kind);
    const columns = src.table.columns.map(([name]) => name);
    assert.deepEqual(Object.keys(src.from), columns, `${kind}: the declared columns against table ${src.table.name}`);
    const used = new Set(columns.flatMap((c) => sourcesOf(src, c)));
    for (const f of used) assert.ok(src.layout.includes(f), `${kind}: ${f} is not a field of the layout`);
    for (const f of src.layout) assert.ok(used.has(f), `${kind}: source field ${f} goes into no column`);
  }
});

// Replacement values for one field at a time: each field type (text, code, date, money, flag,
// CNPJ part, code list, regime year, formatted CNPJ) finds at least one that changes its output.
const CANDIDATES = [
  'ZZ TESTE',
  '',
  '99',
  '7',
  '2020',
  '20200101',
  '19991231',
  '70040010',
  '123,45',
  '6201501,6202300',
  'S',
  'N',
  '11222333',
  '11.222.333/0001-81',
  '987654321',
];

/** Fields that only change together and stay valid: the three parts of a checked CNPJ. */
const GROUPS: Partial<Record<SourceKind, Record<string, string>[]>> = {
  establishments: [{ cnpj_basico: '11222333', cnpj_ordem: '0001', cnpj_dv: makeCnpj('11222333', '0001').slice(12) }],
};

test('toRow follows the declaration: changing source fields changes only the columns made from them, and each column reads them', async () => {
  for (const kind of KINDS) {
    const src = sourceTable(kind);
    const columns = src.table.columns.map(([name]) => name);
    const [baseline] = (await sampleRecords(kind)).records;
    const base = src.toRow(baseline);
    assert.ok(Array.isArray(base), `${kind}: the real sample record was rejected (${String(base)})`);
    assert.equal(
      base.length,
      columns.length,
      `${kind}: toRow gives ${base.length} values for ${columns.length} columns`,
    );

    const read = new Set<string>();
    const moved = new Set<string>();
    const tryChange = (changes: Record<string, string>) => {
      const f = baseline.slice();
      for (const [name, value] of Object.entries(changes)) f[src.layout.indexOf(name)] = value;
      const row = src.toRow(f);
      const fields = Object.keys(changes);
      if (typeof row === 'string') {
        fields.forEach((name) => read.add(name)); // rejected: the field is read, if not where
        return;
      }
      assert.equal(row.length, columns.length, `${kind}: toRow width`);
      row.forEach((v: SqlParam, i) => {
        if (v === base[i]) return;
        const column = columns[i];
        assert.ok(
          fields.some((name) => sourcesOf(src, column).includes(name)),
          `${kind}: changing ${fields.join(' + ')} changed column ${column}, which is declared from ${sourcesOf(src, column).join(' + ')}`,
        );
        fields.forEach((name) => read.add(name));
        moved.add(column);
      });
    };
    for (const name of src.layout) for (const value of CANDIDATES) tryChange({ [name]: value });
    for (const group of GROUPS[kind] ?? []) tryChange(group);

    for (const name of src.layout) assert.ok(read.has(name), `${kind}: source field ${name} is never read`);
    for (const column of columns)
      assert.ok(moved.has(column), `${kind}: column ${column} does not follow ${sourcesOf(src, column).join(' + ')}`);
  }
});
