// The import records the month's differences (docs/history.md, "Wiring"), end to end: three
// synthetic months (2,000 companies, evolved twice) imported in turn, through runImport and the
// real program. Every example of the evolve manifest appears once with the values the lookup showed
// before and after; records whose lookup is unchanged produce nothing; a month imported again
// replaces its differences; an older month records nothing; --skip-history and `history record`;
// a killed import leaves history.db as it was; pruning keeps the history; `backup` copies it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDump, type DumpManifest } from '../../src/demo/generate.ts';
import { compareSnapshots } from '../../importer/history/compare.ts';
import { NO_EARLIER_MONTH } from '../../importer/history/months.ts';
import { recordMonth } from '../../importer/history/record.ts';
import { runImport, type ImportSummary } from '../../importer/run.ts';
import { dataPaths } from '../../src/lib/config.ts';
import { openSqlite } from '../../src/storage/sqlite.ts';
import type { ChangeRow } from '../../src/storage/history/schema.ts';
import { snapshotDir } from '../../scripts/evolve-check.ts';
import { CLI, runCli } from '../helpers/cli.ts';
import { COMPANY_KINDS, ESTABLISHMENT_KINDS, snapshotLookup } from './history/snapshot-lookup.ts';

let dir: string;
let dataDir: string;
const months: DumpManifest[] = [];
const input = (i: number) => join(dir, `m${i}`);
const month = (i: number) => months[i].month;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'history-import-'));
  dataDir = join(dir, 'data');
  months.push(await generateDump({ companies: 2000, out: input(0), seed: 42, month: '2026-11' }));
  months.push(await generateDump({ companies: 0, out: input(1), evolveFrom: input(0) }));
  months.push(await generateDump({ companies: 0, out: input(2), evolveFrom: input(1), seed: 7 }));
});

after(() => rmSync(dir, { recursive: true, force: true }));

const importMonth = (
  i: number,
  opts: { keep?: number; search?: boolean; history?: boolean } = {},
): Promise<ImportSummary> =>
  runImport({
    dataDir,
    inputs: [input(i)],
    month: month(i),
    keep: opts.keep ?? 3,
    search: opts.search ?? false,
    history: opts.history,
    log: () => {},
  });

/** Every recorded row (or one month's), in key order; [] before history.db exists. */
function rows(m?: string): ChangeRow[] {
  if (!existsSync(dataPaths(dataDir).historyDb)) return [];
  const db = openSqlite(dataPaths(dataDir).historyDb, { readonly: true });
  try {
    const where = m === undefined ? '' : 'WHERE month = ?';
    return db
      .prepare(`SELECT month, cnpj, tipo, campo, antes, depois FROM changes ${where} ORDER BY month, cnpj, campo`)
      .all(...(m === undefined ? [] : [m])) as ChangeRow[];
  } finally {
    db.close();
  }
}

function recordedMonthRows(): { month: string; from_month: string; counts_json: string }[] {
  const db = openSqlite(dataPaths(dataDir).historyDb, { readonly: true });
  try {
    return db.prepare('SELECT month, from_month, counts_json FROM history_months ORDER BY month').all() as {
      month: string;
      from_month: string;
      counts_json: string;
    }[];
  } finally {
    db.close();
  }
}

/** Month `i`'s recorded rows against the manifest's examples and the two snapshots' lookups. */
function checkMonth(i: number): void {
  const recorded = rows(month(i));
  const [oldDir, newDir] = [snapshotDir(dataDir, month(i - 1)), snapshotDir(dataDir, month(i))];
  // The wiring records exactly what the comparison finds, each change once.
  const found: ChangeRow[] = [];
  compareSnapshots(oldDir, newDir, (cnpj, tipo, campo, antes, depois) =>
    found.push({ month: month(i), cnpj, tipo, campo, antes, depois }),
  );
  const key = (r: ChangeRow) => `${r.cnpj} ${r.campo}`;
  assert.deepEqual(
    recorded,
    found.sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  );
  const of = (k: string, campo?: string) =>
    recorded.filter((r) => r.cnpj === k && (campo === undefined || r.campo === campo));
  const [old, now] = [snapshotLookup(oldDir), snapshotLookup(newDir)];
  const c = months[i].changes!;
  for (const cnpj of c.abertura.examples)
    assert.deepEqual(of(cnpj), [{ month: month(i), cnpj, tipo: 'abertura', campo: '', antes: null, depois: null }]);
  for (const cnpj of c.encerramento.examples)
    assert.deepEqual(of(cnpj), [{ month: month(i), cnpj, tipo: 'encerramento', campo: '', antes: null, depois: null }]);
  for (const [kind, campo] of Object.entries({ ...ESTABLISHMENT_KINDS, ...COMPANY_KINDS })) {
    assert.ok(c[kind].examples.length > 0, kind);
    for (const cnpj of c[kind].examples) {
      const k = kind in COMPANY_KINDS ? cnpj.slice(0, 8) : cnpj;
      const hit = of(k, campo);
      assert.equal(hit.length, 1, `${kind} ${cnpj}`);
      assert.equal(hit[0].tipo, 'alteracao');
      const [a, b] = [old.get(cnpj)!, now.get(cnpj)!];
      if (campo === 'socios') {
        const sizes = kind === 'socio_entrada' ? [0, 1] : kind === 'socio_saida' ? [1, 0] : [1, 1];
        assert.deepEqual(
          [JSON.parse(hit[0].antes!).length, JSON.parse(hit[0].depois!).length],
          sizes,
          `${kind} ${cnpj}`,
        );
      } else {
        const f = campo as keyof typeof a.company;
        assert.deepEqual(
          [hit[0].antes, hit[0].depois],
          [JSON.stringify(a.company[f]), JSON.stringify(b.company[f])],
          `${kind} ${cnpj}`,
        );
      }
    }
  }
  // Unchanged records produce nothing: a CNPJ whose lookup reads the same in both months has no
  // row, nor has its base.
  let unchanged = 0;
  const keys = new Set(recorded.map((r) => r.cnpj));
  for (const cnpj of now.cnpjs) {
    const [a, b] = [old.get(cnpj), now.get(cnpj)];
    if (a === null || JSON.stringify(a) !== JSON.stringify(b)) continue;
    unchanged++;
    assert.ok(!keys.has(cnpj) && !keys.has(cnpj.slice(0, 8)), `unchanged ${cnpj} has a change`);
  }
  assert.ok(unchanged > 1500, `${unchanged} unchanged establishments`);
}

test('first import: nothing to compare, no history.db', async () => {
  const s = await importMonth(0);
  assert.deepEqual(s.history?.result, { recorded: false, month: month(0), reason: NO_EARLIER_MONTH });
  assert.equal(s.history?.error, null);
  assert.ok(!existsSync(dataPaths(dataDir).historyDb));
});

test("second month, with the search build beside the comparison: every kind of change once, with the lookup's values", async () => {
  const s = await importMonth(1, { search: true });
  assert.ok(s.search);
  const r = s.history!.result!;
  assert.ok(r.recorded, JSON.stringify(s.history));
  assert.equal(r.fromMonth, month(0));
  assert.equal(r.replaced, false);
  assert.equal(
    Object.values(r.counts).reduce((a, b) => a + b, 0),
    rows(month(1)).length,
  );
  assert.ok(s.history!.seconds >= s.history!.waitSeconds && s.history!.maxRssBytes > 0);
  // the staging file is gone from the published snapshot
  assert.ok(!existsSync(join(s.dir, 'history.db')));
  checkMonth(1);
  // The change feed's subjects and municipality names moved with the changes; recorded in two
  // parts and merged, they are what one recording of the whole month writes.
  const whole = mkdtempSync(join(tmpdir(), 'history-whole-'));
  const subjects = (file: string) => {
    const db = openSqlite(file, { readonly: true });
    try {
      return [
        db.prepare('SELECT * FROM subjects WHERE month = ? ORDER BY cnpj').all(month(1)),
        db.prepare('SELECT count(*) FROM municipio_names').pluck().get(),
      ];
    } finally {
      db.close();
    }
  };
  try {
    recordMonth(whole, { month: month(0), dir: snapshotDir(dataDir, month(0)) }, { month: month(1), dir: s.dir });
    const [merged, names] = subjects(dataPaths(dataDir).historyDb);
    assert.ok((merged as unknown[]).length > 10 && (names as number) > 0, `${(merged as unknown[]).length} subjects`);
    assert.deepEqual([merged, names], subjects(dataPaths(whole).historyDb));
  } finally {
    rmSync(whole, { recursive: true, force: true });
  }
});

test('--skip-history, then `history record` and `history status`', async () => {
  const before = rows();
  const imp = await runCli([
    'import',
    input(2),
    '--month',
    month(2),
    '--skip-search',
    '--skip-history',
    '--keep',
    '3',
    '--data-dir',
    dataDir,
  ]);
  assert.equal(imp.code, 0, imp.err);
  assert.match(imp.out, /\n {2}history: skipped \(--skip-history\)/);
  assert.deepEqual(rows(), before);

  const rec = await runCli(['history', 'record', '--month', month(2), '--data-dir', dataDir]);
  assert.equal(rec.code, 0, rec.err);
  assert.match(
    rec.out,
    /^2027-01 recorded against 2026-12: [\d,]+ changes \(\d+ abertura, \d+ encerramento, [\d,]+ alteracao\), compared in \d+\.\d s\n$/,
  );
  checkMonth(2);

  const st = await runCli(['history', 'status', '--data-dir', dataDir]);
  assert.equal(st.code, 0, st.err);
  const lines = st.out.trimEnd().split('\n');
  assert.match(lines[0], /^history: .*history\.db, \d+\.\d MB \([\d,]+ bytes\), 2 months recorded$/);
  assert.match(lines[1], /^MONTH +COMPARED WITH +ABERTURA +ENCERRAMENTO +ALTERACAO +SECONDS +RECORDED AT$/);
  assert.match(
    lines[2],
    new RegExp(
      `^2027-01 +2026-12 +${months[2].changes!.abertura.count} +${months[2].changes!.encerramento.count} +[\\d,]+ +\\d+\\.\\d +20`,
    ),
  );
  assert.match(lines[3], /^2026-12 +2026-11 /);
  const status = await runCli(['status', '--data-dir', dataDir]);
  assert.match(status.out, /\nhistory: last recorded month 2027-01 \(compared with 2026-12\)/);
});

test('the same month again replaces its differences: no duplicates, the same counts', async () => {
  const [all, monthsBefore] = [rows(), recordedMonthRows()];
  const s = await importMonth(2);
  assert.ok(
    s.history?.result?.recorded && s.history.result.replaced && s.history.result.fromMonth === month(1),
    JSON.stringify(s.history),
  );
  assert.deepEqual(rows(), all);
  assert.deepEqual(
    recordedMonthRows().map((m) => [m.month, m.from_month, m.counts_json]),
    monthsBefore.map((m) => [m.month, m.from_month, m.counts_json]),
  );
});

test('an older month records nothing and leaves the history as it was', async () => {
  const all = rows();
  const s = await importMonth(1);
  assert.deepEqual(s.history?.result, {
    recorded: false,
    month: month(1),
    reason: `the history already goes to ${month(2)}; an older month (${month(1)}) records nothing`,
  });
  assert.deepEqual(rows(), all);
  const rec = await runCli(['history', 'record', '--month', month(1), '--data-dir', dataDir]);
  assert.equal(rec.code, 1);
  assert.match(rec.out, /^nothing recorded for 2026-12: the history already goes to 2027-01/);
  const none = await runCli(['history', 'record', '--month', '2025-01', '--data-dir', dataDir]);
  assert.match(none.err, /^error: no kept snapshot of month 2025-01 \(kept: 2026-12, 2027-01\)\n$/);
});

test('a failed comparison is logged and the import publishes anyway; the month keeps what it had', async () => {
  const all = rows();
  // The month before loses a file: the comparison cannot open it.
  const file = join(snapshotDir(dataDir, month(1)), 'companies.db');
  renameSync(file, `${file}.away`);
  const logged: string[] = [];
  try {
    const s = await runImport({
      dataDir,
      inputs: [input(2)],
      month: month(2),
      keep: 3,
      search: false,
      log: (l) => logged.push(l),
    });
    assert.equal(s.history?.result, null);
    assert.match(s.history?.error ?? '', /unable to open database/);
    assert.ok(
      logged.some((l) =>
        /^history: recording 2027-01 failed \(.*\); the import goes on without differences for 2027-01/.test(l),
      ),
      logged.join('\n'),
    );
    assert.equal(snapshotDir(dataDir, month(2)), s.dir, 'published');
  } finally {
    renameSync(`${file}.away`, file);
  }
  assert.deepEqual(rows(), all);
});

/** Whether a process has ended (or is a zombie left to be reaped) within 3 s: SIGKILL is asynchronous. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
    if (!stat || /^\d+ \(.*\) Z /.test(stat)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

test('a killed import kills its comparison and leaves history.db as it was', async () => {
  const all = rows();
  const child = spawn(
    process.execPath,
    [CLI, 'import', input(2), '--month', month(2), '--keep', '3', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Once the comparison has started (the search build runs beside it), note the children and kill.
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (b) => {
      err += b;
      if (/history: comparing/.test(err)) resolve();
    }),
  );
  const ps = await new Promise<string>((resolve) => {
    const p = spawn('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)]);
    let out = '';
    p.stdout.on('data', (b) => (out += b));
    p.on('close', () => resolve(out));
  });
  // (at this size the comparison may already be done: then only the search builders are listed)
  const pids = ps
    .split('\n')
    .filter((l) => /__import-(history|search)/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
  assert.ok(pids.length >= 1, ps);
  child.kill('SIGTERM');
  assert.equal(await exited, 130, err);
  for (const pid of pids) assert.ok(await gone(pid), `child ${pid} is gone: ${ps}`);
  assert.deepEqual(rows(), all);
});

test('pruning keeps the history; `backup` copies history.db beside app.db', async () => {
  const all = rows();
  const s = await importMonth(2, { keep: 1 });
  assert.ok(s.pruned.length >= 2, JSON.stringify(s.pruned));
  assert.deepEqual(rows(), all);
  assert.ok(all.some((r) => r.month === month(1)) && all.some((r) => r.month === month(2)));

  const file = join(dir, 'app-copy.db');
  const b = await runCli(['backup', file, '--data-dir', dataDir]);
  assert.equal(b.code, 0, b.err);
  assert.match(
    b.out,
    /^backup written to .*app-copy\.db .*\nhistory backup written to .*app-copy\.history\.db \(\d+\.\d MB, \d+ bytes\)\n$/,
  );
  const copy = openSqlite(join(dir, 'app-copy.history.db'), { readonly: true, fileMustExist: true });
  try {
    assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete');
    assert.deepEqual(
      copy.prepare('SELECT month, cnpj, tipo, campo, antes, depois FROM changes ORDER BY month, cnpj, campo').all(),
      all,
    );
    assert.equal((copy.prepare('SELECT count(*) AS n FROM history_months').get() as { n: number }).n, 2);
  } finally {
    copy.close();
  }
  // Neither file is replaced without --force: the app.db copy is not written when the history's name is taken.
  rmSync(file);
  const again = await runCli(['backup', file, '--data-dir', dataDir]);
  assert.equal(again.code, 1);
  assert.match(again.err, /app-copy\.history\.db already exists; pass --force to replace it/);
  assert.ok(!existsSync(file));
  assert.equal((await runCli(['backup', file, '--force', '--data-dir', dataDir])).code, 0);
});
