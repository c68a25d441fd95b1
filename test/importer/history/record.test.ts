// The change history between real imported months: a synthetic month of 2,000 companies evolved
// twice (src/demo/evolve.ts), each imported, then compared. Every example of the manifest's kinds
// of change is checked against the LOOKUP of both snapshots (the values a client saw before and
// after), the counts against the manifest, and the rules for a month recorded again or out of order.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDump, type DumpManifest } from '../../../src/demo/generate.ts';
import { compareSnapshots } from '../../../importer/history/compare.ts';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { ESTABLISHMENT_FIELDS } from '../../../src/domain/history/fields.ts';
import { kindBit } from '../../../src/domain/history/kinds.ts';
import { normalizeText } from '../../../src/domain/search/normalize.ts';
import { SUBJECT_COLUMNS } from '../../../src/storage/history/subjects.ts';
import { decideMonth, previousSnapshot, recordMonth } from '../../../importer/history/record.ts';
import { GatheredSubjects } from '../../../importer/history/gathered-subjects.ts';
import { headOfficeSql, pairSql, SnapshotPair } from '../../../importer/history/pair.ts';
import { runImport } from '../../../importer/run.ts';
import { changesOf, changesPage, historyMonths, openHistoryDb } from '../../../src/storage/history/db.ts';
import { HISTORY_SQL, type ChangeRow } from '../../../src/storage/history/schema.ts';
import { attachSnapshot } from '../../../src/storage/snapshots/attach.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { snapshotDir } from '../../../scripts/evolve-check.ts';
import { COMPANY_KINDS, ESTABLISHMENT_KINDS, snapshotLookup } from './snapshot-lookup.ts';

let dir: string;
let dataDir: string;
const months: DumpManifest[] = [];
const snap = (i: number) => ({ month: months[i].month, dir: snapshotDir(dataDir, months[i].month) });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'history-'));
  dataDir = join(dir, 'data');
  months.push(await generateDump({ companies: 2000, out: join(dir, 'm0'), seed: 42, month: '2026-11' }));
  months.push(await generateDump({ companies: 0, out: join(dir, 'm1'), evolveFrom: join(dir, 'm0') }));
  months.push(await generateDump({ companies: 0, out: join(dir, 'm2'), evolveFrom: join(dir, 'm1'), seed: 7 }));
  for (let i = 0; i < 3; i++)
    await runImport({
      dataDir,
      inputs: [join(dir, `m${i}`)],
      month: months[i].month,
      keep: 3,
      search: false,
      history: false,
      log: () => {},
    });
});

after(() => rmSync(dir, { recursive: true, force: true }));

function allRows(month: string): ChangeRow[] {
  const db = openHistoryDb(dataDir);
  try {
    return db.prepare('SELECT * FROM changes WHERE month = ? ORDER BY cnpj, campo').all(month) as ChangeRow[];
  } finally {
    db.close();
  }
}

test('the months are merged through their key indexes, changed rows read in table order; the history is read through its own', () => {
  const pair = new SnapshotPair(snap(0).dir, snap(1).dir);
  try {
    assert.match(
      pair.sql.establishments,
      /EXCEPT SELECT cnpj, digest FROM oe\.establishments/,
      'new snapshots are compared by digest',
    );
    for (const digests of [true, false]) {
      for (const sql of Object.values(pairSql(digests))) {
        const plan = pair.plan(sql);
        // every lookup of one side in the other through a key index, or of a row found by its rowid
        // (no automatic index)
        assert.ok(
          plan.every(
            (d) =>
              !/AUTOMATIC/.test(d) &&
              (!d.startsWith('SEARCH') || /INDEX \w+_by_basico|INDEX \w+_by_cnpj|INTEGER PRIMARY KEY/.test(d)),
          ),
          plan.join('; '),
        );
        // a sort only of the (few) changed rows' rowids or candidate bases, never of a month's rows:
        // by digest, no month's table is scanned (below); column by column, nothing is sorted but
        // the candidate bases of two merged differences
        if (!digests)
          assert.ok(
            plan.every((d) => !/FOR ORDER BY/.test(d)) || plan.some((d) => /MERGE \(UNION\)/.test(d)),
            plan.join('; '),
          );
        // by digest, each month is read through its key index alone, the two merged (no probe per row)
        if (digests) {
          assert.ok(
            plan.filter((d) => /^SCAN [on][ec]\./.test(d)).every((d) => /COVERING INDEX/.test(d)),
            plan.join('; '),
          );
          // and in the index's own order: the only sorts are of the changed rows' rowids (one per
          // `LIMIT -1` subquery) and of the two sides of a UNION of candidate bases
          const sorts = plan.filter((d) => /TEMP B-TREE FOR .*ORDER BY/.test(d)).length;
          const expected =
            (sql.match(/LIMIT -1/g) ?? []).length + 2 * plan.filter((d) => /MERGE \(UNION\)/.test(d)).length;
          assert.equal(sorts, expected, plan.join('; '));
        }
      }
    }
  } finally {
    pair.close();
  }
  const db = openHistoryDb(dataDir);
  try {
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x', 'y', 'z', 1) as { detail: string }[])
        .map((r) => r.detail)
        .join('; ');
    assert.match(plan(HISTORY_SQL.page), /SEARCH changes USING PRIMARY KEY \(month=\? AND \(cnpj,campo\)>\(\?,\?\)\)/);
    assert.doesNotMatch(plan(HISTORY_SQL.page), /TEMP B-TREE/);
    assert.match(
      db
        .prepare(`EXPLAIN QUERY PLAN ${HISTORY_SQL.ofKey}`)
        .all('x')
        .map((r) => (r as { detail: string }).detail)
        .join(),
      /changes_by_cnpj/,
    );
  } finally {
    db.close();
  }
});

test('by digest or column by column: the same changes', () => {
  for (const [a, b] of [
    [0, 1],
    [1, 2],
  ]) {
    const rows = (digests: boolean) => {
      const out: unknown[][] = [];
      const counts = compareSnapshots(snap(a).dir, snap(b).dir, (...change) => out.push(change), { digests });
      // By digest, rows come in key order; column by column, in the table's order.
      return { counts, out: out.map((c) => JSON.stringify(c)).sort() };
    };
    const fast = rows(true);
    assert.ok(fast.out.length > 100, `months ${a}→${b} have changes`);
    assert.deepEqual(fast, rows(false));
  }
});

test('a snapshot compared with itself: no change at all', () => {
  const seen: string[] = [];
  assert.deepEqual(
    compareSnapshots(snap(0).dir, snap(0).dir, (cnpj) => seen.push(cnpj)),
    {},
  );
  assert.equal(seen.length, 0);
});

for (const step of [1, 2]) {
  test(`month ${step}: every example recorded with the lookup's values before and after; the counts are the manifest's`, () => {
    const r = recordMonth(dataDir, snap(step - 1), snap(step));
    assert.ok(r.recorded, JSON.stringify(r));
    const m = months[step];
    const c = m.changes!;
    const rows = allRows(m.month);
    const byKey = new Map<string, ChangeRow[]>();
    for (const row of rows) byKey.set(row.cnpj, [...(byKey.get(row.cnpj) ?? []), row]);
    const [old, now] = [snapshotLookup(snap(step - 1).dir).get, snapshotLookup(snap(step).dir).get];

    for (const cnpj of c.abertura.examples)
      assert.deepEqual(byKey.get(cnpj), [
        { month: m.month, cnpj, tipo: 'abertura', campo: '', antes: null, depois: null },
      ]);
    for (const cnpj of c.encerramento.examples)
      assert.deepEqual(byKey.get(cnpj), [
        { month: m.month, cnpj, tipo: 'encerramento', campo: '', antes: null, depois: null },
      ]);
    for (const [kind, campo] of Object.entries(ESTABLISHMENT_KINDS)) {
      for (const cnpj of c[kind].examples) {
        const [a, b] = [old(cnpj)!.company, now(cnpj)!.company];
        // exactly the fields the lookup shows differently, each once, with the shown values
        const want = Object.keys(ESTABLISHMENT_FIELDS)
          .filter((f) => JSON.stringify(a[f as keyof typeof a]) !== JSON.stringify(b[f as keyof typeof b]))
          .map((f) => ({
            month: m.month,
            cnpj,
            tipo: 'alteracao',
            campo: f,
            antes: JSON.stringify(a[f as keyof typeof a]),
            depois: JSON.stringify(b[f as keyof typeof b]),
          }))
          .sort((x, y) => (x.campo < y.campo ? -1 : 1));
        assert.ok(
          want.some((w) => w.campo === campo),
          `${kind} ${cnpj}`,
        );
        assert.deepEqual(byKey.get(cnpj), want, `${kind} ${cnpj}`);
      }
    }
    for (const [kind, campo] of Object.entries(COMPANY_KINDS)) {
      for (const cnpj of c[kind].examples) {
        const base = cnpj.slice(0, 8);
        const found = (byKey.get(base) ?? []).filter((x) => x.campo === campo);
        assert.equal(found.length, 1, `${kind} ${cnpj}`);
        const [a, b] = [old(cnpj)!, now(cnpj)!];
        if (campo === 'socios') {
          const [gone, added] = [JSON.parse(found[0].antes!), JSON.parse(found[0].depois!)];
          const key = (s: object) => JSON.stringify(s);
          for (const s of gone)
            assert.ok(a.socios.some((x) => key(x) === key(s)) && !b.socios.some((x) => key(x) === key(s)), kind);
          for (const s of added)
            assert.ok(b.socios.some((x) => key(x) === key(s)) && !a.socios.some((x) => key(x) === key(s)), kind);
          const sizes = kind === 'socio_entrada' ? [0, 1] : kind === 'socio_saida' ? [1, 0] : [1, 1];
          assert.deepEqual([gone.length, added.length], sizes, `${kind} ${cnpj}`);
        } else {
          const f = campo as keyof typeof a.company;
          assert.deepEqual(
            [found[0].antes, found[0].depois],
            [JSON.stringify(a.company[f]), JSON.stringify(b.company[f])],
            `${kind} ${cnpj}`,
          );
        }
      }
    }

    // counts: nothing recorded beyond the manifest's changes
    const count = (p: (x: ChangeRow) => boolean) => rows.filter(p).length;
    const sum = (...kinds: string[]) => kinds.reduce((n, k) => n + c[k].count, 0);
    assert.equal(
      count((x) => x.tipo === 'abertura'),
      c.abertura.count,
    );
    assert.equal(
      count((x) => x.tipo === 'encerramento'),
      c.encerramento.count,
    );
    const changedEstablishments = new Set(
      rows.filter((x) => x.tipo === 'alteracao' && x.cnpj.length === 14).map((x) => x.cnpj),
    );
    assert.equal(changedEstablishments.size, sum(...Object.keys(ESTABLISHMENT_KINDS)), 'establishments changed');
    assert.equal(
      count((x) => x.campo === 'situacao_cadastral'),
      sum('baixa', 'inapta', 'suspensa', 'reativacao'),
    );
    for (const k of [
      'uf',
      'nome_fantasia',
      'email',
      'razao_social',
      'natureza_juridica',
      'capital_social',
      'porte',
      'regime_tributario',
    ]) {
      assert.equal(
        count((x) => x.campo === k),
        c[k].count,
        k,
      );
    }
    assert.equal(
      count((x) => x.campo === 'socios'),
      sum('socio_entrada', 'socio_saida', 'socio_qualificacao'),
    );
    // a closing ends the Simples/MEI option too: those bases apart, the option changes are the manifest's
    const closed = new Set(
      rows.filter((x) => x.campo === 'situacao_cadastral' && x.depois === '"BAIXADA"').map((x) => x.cnpj.slice(0, 8)),
    );
    // (leaving the Simples also ends a MEI option: one change of the manifest, one or two campos here)
    const options = new Set(
      rows
        .filter((x) => (x.campo === 'opc_simples' || x.campo === 'opc_mei') && !closed.has(x.cnpj))
        .map((x) => x.cnpj),
    );
    assert.equal(options.size, sum('simples_entrada', 'simples_saida', 'mei_entrada', 'mei_saida'));
    assert.equal(
      count((x) => x.campo === 'opc_simples' && !closed.has(x.cnpj)),
      sum('simples_entrada', 'simples_saida'),
    );
    const db = openHistoryDb(dataDir);
    try {
      assert.deepEqual(historyMonths(db)[0].counts, r.counts);
    } finally {
      db.close();
    }
  });
}

/** A subject's establishment columns by plain SQL (the search's rules for e-mail and telefone). */
const EST_SQL = `SELECT uf, municipio, cnae_fiscal, situacao_cadastral, matriz_filial, cep, coalesce(trim(email), '') <> '', telefone_1 IS NOT NULL OR telefone_2 IS NOT NULL,
  data_inicio_atividade, cnaes_secundarios, nome_fantasia FROM est.establishments WHERE cnpj = ?`;

/** The subjects row expected from the rows of one month (absent: nulls, Simples 0). */
function subjectOf(
  month: string,
  cnpj: string,
  kinds: number,
  company: number,
  est: unknown[] | undefined,
  co: unknown[] | undefined,
  simples: unknown[] | undefined,
): unknown[] {
  const [
    uf = null,
    municipio = null,
    cnae = null,
    situacao = null,
    matriz = null,
    cep = null,
    email = null,
    telefone = null,
    inicio = null,
    cnaes = null,
    fantasia = null,
  ] = est ?? [];
  const [natureza = null, porte = null, capital = null, razao = null] = co ?? [];
  const names = normalizeText(`${razao ?? ''} ${fantasia ?? ''}`) || null;
  return [
    month,
    cnpj,
    kinds,
    company,
    uf,
    municipio,
    cnae,
    situacao,
    matriz,
    natureza,
    porte,
    ...(simples ?? [0, 0]),
    cep === null ? null : String(cep).padStart(8, '0'),
    email,
    telefone,
    inicio,
    capital,
    cnaes,
    names,
  ];
}

test('the feed subjects: one per CNPJ shown, the bits of its changes, the attributes its snapshot rows hold', () => {
  // An independent reading of the rules (storage/history/subjects.ts): simple queries per CNPJ.
  for (const step of [1, 2]) {
    const month = months[step].month;
    const sides = [snap(step), snap(step - 1)].map((s) => {
      const db = openSqlite(':memory:');
      attachSnapshot(db, s.dir);
      return db;
    });
    try {
      const one = (sql: string, ...p: unknown[]) =>
        sides.map(
          (db) =>
            db
              .prepare(sql)
              .raw(true)
              .get(...p) as unknown[] | undefined,
        );
      const headOffice = (base: string) => {
        for (const db of sides) {
          const q = (matriz: string) =>
            db
              .prepare(
                `SELECT cnpj FROM est.establishments WHERE substr(cnpj, 1, 8) = ? ${matriz} ORDER BY cnpj LIMIT 1`,
              )
              .pluck()
              .get(base) as string | undefined;
          const found = q('AND matriz_filial = 1') ?? q('');
          if (found) return found;
        }
        return makeCnpj(base, '0001');
      };
      const want = new Map<string, { kinds: number; company: number }>();
      for (const c of allRows(month)) {
        const cnpj = c.cnpj.length === 14 ? c.cnpj : headOffice(c.cnpj);
        const w = want.get(cnpj) ?? { kinds: 0, company: 0 };
        want.set(cnpj, { kinds: w.kinds | kindBit(c.tipo, c.campo), company: c.cnpj.length === 14 ? w.company : 1 });
      }
      const expected = [...want]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([cnpj, w]) => {
          const est = one(EST_SQL, cnpj);
          const s = est[0] ? 0 : 1;
          const base = cnpj.slice(0, 8);
          const [company] = [
            one(
              'SELECT natureza_juridica, porte, capital_social_cents, razao_social FROM reg.companies WHERE basico = ?',
              base,
            )[s],
          ];
          const simples = one(`SELECT opcao_simples IS 'S', opcao_mei IS 'S' FROM reg.simples WHERE basico = ?`, base)[
            s
          ];
          return subjectOf(month, cnpj, w.kinds, w.company, est[s], company, simples);
        });
      const db = openHistoryDb(dataDir);
      try {
        const got = db.prepare('SELECT * FROM subjects WHERE month = ? ORDER BY cnpj').raw(true).all(month);
        assert.ok(
          got.length > 20 &&
            expected.some((e) => e[3] === 1) &&
            expected.some((e) => (e[2] as number) & kindBit('encerramento', '')),
          `${got.length} subjects`,
        );
        assert.deepEqual(got, expected);
      } finally {
        db.close();
      }
    } finally {
      for (const db of sides) db.close();
    }
  }
});

test('gathered company subjects: under the head office headOfficeSql names, with its rows; a base without establishments is left to the rest', () => {
  const db = openSqlite(':memory:');
  attachSnapshot(db, snap(1).dir);
  const pair = new SnapshotPair(snap(0).dir, snap(1).dir);
  const gathered = new GatheredSubjects(snap(1).dir);
  try {
    const bases = (sql: string) => db.prepare(sql).pluck().all() as string[];
    // companies with several establishments, of which some whose first is not the matriz
    const several = bases(
      'SELECT substr(cnpj, 1, 8) b FROM est.establishments GROUP BY b HAVING count(*) > 1 LIMIT 30',
    );
    const firstNotMatriz = bases(
      `SELECT x.b FROM (SELECT substr(cnpj, 1, 8) b, min(cnpj) c FROM est.establishments GROUP BY b) x JOIN est.establishments e ON e.cnpj = x.c WHERE e.matriz_filial IS NOT 1`,
    );
    assert.ok(several.length >= 10 && firstNotMatriz.length >= 1, `${several.length} ${firstNotMatriz.length}`);
    const chosen = [...new Set([...several, ...firstNotMatriz])].sort();
    for (const b of chosen) gathered.change(b, 'alteracao', 'razao_social');
    gathered.change(chosen[0], 'alteracao', 'porte');
    gathered.change('ZZZZZZZZ', 'alteracao', 'porte');
    const got = [...gathered.subjects()];
    const head = pair.sqlite.prepare(`SELECT ${headOfficeSql('@b')}`).pluck();
    const row = (sql: string, key: string) => db.prepare(sql).raw(true).get(key) as unknown[] | undefined;
    const expected = chosen.map((b) => {
      const cnpj = head.get({ b }) as string;
      const kinds = kindBit('alteracao', 'razao_social') | (b === chosen[0] ? kindBit('alteracao', 'porte') : 0);
      const co = row(
        'SELECT natureza_juridica, porte, capital_social_cents, razao_social FROM reg.companies WHERE basico = ?',
        b,
      );
      return subjectOf(
        '',
        cnpj,
        kinds,
        1,
        row(EST_SQL, cnpj),
        co,
        row(`SELECT opcao_simples IS 'S', opcao_mei IS 'S' FROM reg.simples WHERE basico = ?`, b),
      ).slice(1);
    });
    assert.deepEqual(
      got.map((r) => SUBJECT_COLUMNS.map((c) => r[c])),
      expected,
    );
    assert.ok(gathered.resolved(chosen[0]) && !gathered.resolved('ZZZZZZZZ'));
  } finally {
    gathered.close();
    pair.close();
    db.close();
  }
});

test('re-import rules: the last month again replaces its differences; an older month records nothing', () => {
  const before2 = allRows(months[2].month);
  const before1 = allRows(months[1].month);
  const again = recordMonth(dataDir, snap(1), snap(2));
  assert.ok(again.recorded && again.replaced);
  assert.deepEqual(allRows(months[2].month), before2, 'replaced, not doubled');
  const older = recordMonth(dataDir, snap(0), snap(1));
  assert.ok(!older.recorded);
  assert.match(older.reason, /already goes to 2027-01; an older month \(2026-12\) records nothing/);
  assert.deepEqual(allRows(months[1].month), before1);
  // a comparison that fails leaves the month as it was (one transaction)
  assert.throws(() => recordMonth(dataDir, { month: months[1].month, dir: join(dir, 'nowhere') }, snap(2)));
  assert.deepEqual(allRows(months[2].month), before2);
  assert.deepEqual(decideMonth([], '2026-12', '2026-12'), {
    record: false,
    reason: "the earlier snapshot's month 2026-12 is not before 2026-12",
  });
  const snaps = [
    { month: '2026-12', dir: 'a', status: 'active' },
    { month: '2026-11', dir: 'b', status: 'retired' },
    { month: '2026-10', dir: 'c', status: 'retired' },
  ];
  assert.equal(previousSnapshot(snaps, '2026-12')?.dir, 'b', 'the same month again is compared with the month before');
  assert.equal(previousSnapshot(snaps, '2026-10'), null);
});

test('reads: a month in keyset pages, one company with its base newest month first', () => {
  const db = openHistoryDb(dataDir);
  try {
    const all = allRows(months[2].month);
    const paged: ChangeRow[] = [];
    for (let after: [string, string] = ['', '']; ;) {
      const page = changesPage(db, months[2].month, after, 50);
      paged.push(...page);
      if (page.length < 50) break;
      after = [page[page.length - 1].cnpj, page[page.length - 1].campo];
    }
    assert.deepEqual(paged, all);
    const cnpj = months[2].changes!.razao_social.examples[0];
    const history = changesOf(db, cnpj);
    assert.ok(
      history.some((x) => x.cnpj === cnpj.slice(0, 8) && x.campo === 'razao_social' && x.month === months[2].month),
    );
    assert.deepEqual(
      history.map((x) => x.month),
      [...history.map((x) => x.month)].sort().reverse(),
    );
  } finally {
    db.close();
  }
});

test('pruning snapshots leaves the history whole', async () => {
  const before = [allRows(months[1].month), allRows(months[2].month)];
  await runImport({
    dataDir,
    inputs: [join(dir, 'm2')],
    month: months[2].month,
    keep: 1,
    search: false,
    history: false,
    log: () => {},
  });
  assert.throws(() => snapshotDir(dataDir, months[1].month), /no snapshot/);
  assert.deepEqual([allRows(months[1].month), allRows(months[2].month)], before);
  assert.ok(before[0].length > 0 && before[1].length > 0);
});
