// The generator's next-month mode: a base month of 2,000 companies evolved twice (a chain), the
// changes checked in the zips' CSV rows (each example changed in its kind's fields only, every
// other record byte-identical) and through the importer (the differences between imported months
// are the manifest's counts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDump, type DumpManifest } from '../../src/demo/generate.ts';
import { runImport } from '../../importer/run.ts';
import { compareWithManifest, countDifferences, snapshotDir } from '../../scripts/evolve-check.ts';

let dir: string;
const months: DumpManifest[] = [];
const out = (i: number) => join(dir, `m${i}`);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evolve-'));
  months.push(await generateDump({ companies: 2000, out: out(0), seed: 42, month: '2026-11' }));
  months.push(await generateDump({ companies: 0, out: out(1), evolveFrom: out(0) }));
  months.push(await generateDump({ companies: 0, out: out(2), evolveFrom: out(1), seed: 7 }));
});

after(() => rmSync(dir, { recursive: true, force: true }));

/** key → raw records of a family (all shards); the key is the first `keyFields` fields. */
function rows(d: string, prefix: string, keyFields: number): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const zip of readdirSync(d).filter((f) => f.startsWith(prefix) && f.endsWith('.zip'))) {
    const text = execFileSync('unzip', ['-p', join(d, zip)], { maxBuffer: 1 << 28 }).toString('latin1');
    // every field is quoted and none holds a quote, so a record ends at the first newline after `"`
    for (const m of text.matchAll(/"[^"]*"(?:;"[^"]*")*\n/g)) {
      const key = m[0].slice(1).split('";"').slice(0, keyFields).join('');
      map.set(key, [...(map.get(key) ?? []), m[0]]);
    }
  }
  return map;
}
const ZIP_OF: Record<string, string> = {
  'LUCRO REAL': 'Lucro Real.zip',
  'LUCRO PRESUMIDO': 'Lucro Presumido.zip',
  'LUCRO ARBITRADO': 'Lucro Arbitrado.zip',
};
/** base → `zip|csv line` of the four regime zips (the CNPJ is formatted: 12.345.678/0001-90). */
function regimeRows(d: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const zip of ['Lucro Real.zip', 'Lucro Presumido.zip', 'Lucro Arbitrado.zip', 'Imunes e Isentas.zip']) {
    for (const line of execFileSync('unzip', ['-p', join(d, zip)], { maxBuffer: 1 << 28 })
      .toString('latin1')
      .split(/\r?\n/)) {
      if (!line || line.startsWith('ano,')) continue;
      const base = line.split(',')[1].replace(/\D/g, '').slice(0, 8);
      map.set(base, [...(map.get(base) ?? []), `${zip}|${line}`]);
    }
  }
  return map;
}
const fields = (raw: string) => raw.slice(1, -2).split('";"');
/** Indices of the fields that differ between two single records. */
const changed = (a: string[], b: string[]) => a.map((v, i) => (v === b[i] ? -1 : i)).filter((i) => i >= 0);

const SIT = [5, 6, 7];
const ADDR = [13, 14, 15, 16, 17, 18];
// The Estabelecimentos / Empresas columns each kind may change.
const ESTAB_COLS: Record<string, number[]> = {
  baixa: SIT,
  inapta: SIT,
  suspensa: SIT,
  reativacao: SIT,
  endereco: ADDR,
  municipio: [...ADDR, 20],
  uf: [...ADDR, 19, 20],
  cnae: [11, 12],
  cnae_secundaria: [12],
  nome_fantasia: [4],
  telefone: [21, 22],
  email: [27],
};
const EMP_COLS: Record<string, number[]> = {
  razao_social: [1],
  natureza_juridica: [2, 3],
  capital_social: [4],
  porte: [5],
};

test('an evolved month: the next month, its base named, every kind of change present', () => {
  const [m0, m1, m2] = months;
  assert.equal(m1.month, '2026-12');
  assert.equal(m2.month, '2027-01');
  assert.deepEqual(m1.evolvedFrom, { month: '2026-11', seed: 42 });
  assert.deepEqual(m2.evolvedFrom, { month: '2026-12', seed: m1.seed });
  assert.equal(m2.seed, 7);
  assert.deepEqual(
    m2.evolution!.steps.map((s) => s.month),
    ['2026-12', '2027-01'],
  );
  assert.deepEqual(m1.quirks, m0.quirks, 'the quirks are carried over');
  for (const m of [m1, m2]) {
    for (const [kind, c] of Object.entries(m.changes!)) {
      assert.ok(c.count >= 1 && c.examples.length >= 1, `${m.month} ${kind}`);
    }
    assert.equal(m.changes!.abertura.companies, 11, '0.55% of 2,000');
  }
  assert.match(
    execFileSync('unzip', ['-Z1', join(out(1), 'Empresas0.zip')], { encoding: 'latin1' }),
    /\.D61213\.EMPRECSV/,
  );
});

test('the same options give the same bytes', async () => {
  const again = join(dir, 'again');
  await generateDump({ companies: 0, out: again, evolveFrom: out(0) });
  const hash = (d: string) =>
    readdirSync(d)
      .sort()
      .map((f) =>
        createHash('sha256')
          .update(readFileSync(join(d, f)))
          .digest('hex'),
      )
      .join();
  assert.equal(hash(again), hash(out(1)));
});

for (const step of [1, 2]) {
  test(`month ${step}: each example changed in its kind's fields only; every other record is byte-identical`, () => {
    const m = months[step];
    const c = m.changes!;
    const [a, b] = [out(step - 1), out(step)];
    const est = [rows(a, 'Estabelecimentos', 3), rows(b, 'Estabelecimentos', 3)];
    let expected = 0;
    for (const [kind, cols] of Object.entries(ESTAB_COLS)) {
      expected += c[kind].count;
      for (const cnpj of c[kind].examples) {
        const [x, y] = [est[0].get(cnpj)!, est[1].get(cnpj)!];
        assert.equal(x.length, 1);
        const diff = changed(fields(x[0]), fields(y[0]));
        assert.ok(diff.length > 0 && diff.every((i) => cols.includes(i)), `${kind} ${cnpj}: ${diff}`);
      }
    }
    for (const cnpj of c.encerramento.examples) assert.ok(est[0].has(cnpj) && !est[1].has(cnpj));
    for (const cnpj of c.abertura.examples) assert.ok(!est[0].has(cnpj) && est[1].has(cnpj));
    const differing = [...est[1]].filter(([k, v]) => est[0].has(k) && v.join() !== est[0].get(k)!.join());
    assert.equal(differing.length, expected, 'only the changed establishments differ');
    assert.equal(est[1].size - est[0].size, c.abertura.count - c.encerramento.count);

    const emp = [rows(a, 'Empresas', 1), rows(b, 'Empresas', 1)];
    expected = 0;
    for (const [kind, cols] of Object.entries(EMP_COLS)) {
      expected += c[kind].count;
      for (const cnpj of c[kind].examples) {
        const diff = changed(fields(emp[0].get(cnpj.slice(0, 8))![0]), fields(emp[1].get(cnpj.slice(0, 8))![0]));
        assert.ok(diff.length > 0 && diff.every((i) => cols.includes(i)), `${kind} ${cnpj}: ${diff}`);
      }
    }
    assert.equal([...emp[1]].filter(([k, v]) => emp[0].has(k) && v.join() !== emp[0].get(k)!.join()).length, expected);

    // Simples: the option kinds, plus the companies that closed while in it
    const closedBases = new Set(differing.filter(([, v]) => fields(v[0])[5] === '08').map(([k]) => k.slice(0, 8)));
    const sim = [rows(a, 'Simples', 1), rows(b, 'Simples', 1)];
    const simDiff = [...sim[1]].filter(
      ([k, v]) => emp[0].has(k) && !closedBases.has(k) && sim[0].get(k)?.join() !== v.join(),
    );
    const simKinds = ['simples_entrada', 'simples_saida', 'mei_entrada', 'mei_saida'];
    assert.equal(
      simDiff.length,
      simKinds.reduce((n, k) => n + c[k].count, 0),
    );
    for (const k of simKinds)
      for (const cnpj of c[k].examples)
        assert.notEqual(sim[0].get(cnpj.slice(0, 8))?.join(), sim[1].get(cnpj.slice(0, 8))?.join(), k);

    // Sócios, as sets per company
    const soc = [rows(a, 'Socios', 1), rows(b, 'Socios', 1)];
    const socDiff = [...new Set([...soc[0].keys(), ...soc[1].keys()])].filter(
      (k) => emp[0].has(k) && soc[0].get(k)?.sort().join() !== soc[1].get(k)?.sort().join(),
    );
    assert.equal(socDiff.length, c.socio_entrada.count + c.socio_saida.count + c.socio_qualificacao.count);

    // Regimes: only the regime_tributario companies differ, in their latest year's forma, each row in its forma's zip
    const reg = [regimeRows(a), regimeRows(b)];
    const regDiff = [...reg[1].keys()].filter(
      (k) => emp[0].has(k) && reg[0].get(k)?.sort().join() !== reg[1].get(k)!.sort().join(),
    );
    assert.equal(regDiff.length, c.regime_tributario.count);
    for (const rowsOf of reg[1].values())
      for (const [zip, , , , forma] of rowsOf.map((l) => l.split(/[|,]/)))
        assert.equal(zip, ZIP_OF[forma] ?? 'Imunes e Isentas.zip');
    const latest = (l: string[]) => l.map((x) => x.split(/[|,]/)).sort((x, y) => +y[1] - +x[1])[0][4];
    for (const cnpj of c.regime_tributario.examples)
      assert.notEqual(latest(reg[0].get(cnpj.slice(0, 8))!), latest(reg[1].get(cnpj.slice(0, 8))!), cnpj);
  });
}

test('imported, the differences between the months are the manifest counts (three months)', async () => {
  const dataDir = join(dir, 'data');
  for (let i = 0; i < 3; i++)
    await runImport({ dataDir, inputs: [out(i)], month: months[i].month, keep: 3, search: false, log: () => {} });
  for (const step of [1, 2]) {
    const m = months[step];
    const found = countDifferences(snapshotDir(dataDir, months[step - 1].month), snapshotDir(dataDir, m.month));
    assert.deepEqual(compareWithManifest(m, found), {}, m.month);
  }
});
