// The change feed and company history benchmark (domain/history, no HTTP), on a data dir whose
// history.db has recorded months:
//   npm run bench:changes -- --data-dir D [--month YYYY-MM] [--runs 200] [--limit 100]
// Prints, per recorded month, its size (history.db's table pages shared pro rata by rows: the
// month's changes, subjects and their indexes), changes, bytes per change and the seconds its
// recording took; then p50/p99 (warm) of the feed's first page for each filter shape, of a deep
// page and of the company history. Values are drawn from the month itself (the busiest UF,
// municipality and CNAE division among its subjects), so every shape has something to find.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { historyItems } from '../src/domain/history/company-history.ts';
import { feedPage, type FeedKey } from '../src/domain/history/feed.ts';
import type { FeedFilters } from '../src/domain/history/feed-filters.ts';
import { changesOf, openHistoryReader } from '../src/storage/history/db.ts';
import { historyMonths } from '../src/storage/history/db.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .option('data-dir', { type: 'string', demandOption: true })
  .option('month', { type: 'string', describe: 'the month to page (default: the newest recorded)' })
  .option('runs', numberOption('runs', { integer: true, min: 1 }, { default: 200 }))
  .option('limit', numberOption('limit', { integer: true, min: 1, max: 100 }, { default: 100 }))
  .strict()
  .parse();

const db = openHistoryReader(argv['data-dir']);
if (db === null) throw new Error('no history.db in this data dir (record a month first: npm run bench:history)');
const months = historyMonths(db);
if (!months.length) throw new Error('no recorded month');

// Size per month: each table's (and index's) pages, shared among months by their rows.
const pages = new Map(
  (
    db.prepare(`SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name`).all() as { name: string; bytes: number }[]
  ).map((r) => [r.name, r.bytes]),
);
const owner: Record<string, string> = {
  changes: 'changes',
  changes_by_cnpj: 'changes',
  subjects: 'subjects',
  subjects_by_uf: 'subjects',
  subjects_by_municipio: 'subjects',
  subjects_by_cnae: 'subjects',
};
const rowsOf = (table: string) =>
  new Map(
    (
      db.prepare(`SELECT month, count(*) AS n FROM ${table} GROUP BY month`).all() as { month: string; n: number }[]
    ).map((r) => [r.month, r.n]),
  );
const rows = { changes: rowsOf('changes'), subjects: rowsOf('subjects') };
const total = (t: 'changes' | 'subjects') => [...rows[t].values()].reduce((a, b) => a + b, 0);
console.log(
  `history.db: ${(db.prepare('PRAGMA page_count').pluck().get() as number) * (db.prepare('PRAGMA page_size').pluck().get() as number)} bytes`,
);
for (const m of [...months].reverse()) {
  let bytes = 0;
  for (const [name, b] of pages) {
    const t = owner[name] as 'changes' | 'subjects' | undefined;
    if (t) bytes += (b * (rows[t].get(m.month) ?? 0)) / total(t);
  }
  const n = rows.changes.get(m.month) ?? 0;
  const s = rows.subjects.get(m.month) ?? 0;
  console.log(
    `${m.month} (from ${m.fromMonth}): ${Math.round(bytes)} bytes, ${n} changes, ${s} subjects, ${(bytes / n).toFixed(0)} B/change, recorded in ${m.seconds.toFixed(1)} s`,
  );
}

const month = argv.month ?? months[0].month;
const top = (column: string, expr = column) =>
  db
    .prepare(
      `SELECT ${expr} FROM subjects WHERE month = ? AND ${column} IS NOT NULL GROUP BY ${expr} ORDER BY count(*) DESC LIMIT 1`,
    )
    .pluck()
    .get(month);
const uf = top('uf') as string;
const municipio = top('municipio') as number;
const division = String(top('cnae', 'cnae / 100000')).padStart(2, '0');
const n = rows.changes.get(month) ?? 0;
const mid = db
  .prepare('SELECT cnpj FROM subjects WHERE month = ? ORDER BY cnpj LIMIT 1 OFFSET ?')
  .pluck()
  .get(month, Math.floor((rows.subjects.get(month) ?? 0) / 2)) as string;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
console.log(
  `load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
function measure(label: string, run: (i: number) => number) {
  const ms: number[] = [];
  const cpu: number[] = [];
  let items = 0;
  for (let i = 0; i < argv.runs; i++) {
    const t = process.hrtime.bigint();
    const c = process.cpuUsage();
    items = run(i);
    const u = process.cpuUsage(c);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    cpu.push((u.user + u.system) / 1e3);
  }
  const f = (x: number) => x.toFixed(2).padStart(7);
  // CPU time beside wall time: on a shared, loaded machine the wall p99 is mostly waiting for a core.
  console.log(
    `${label.padEnd(56)} p50 ${f(pct(ms, 50))} ms  p99 ${f(pct(ms, 99))} ms   cpu p50 ${f(pct(cpu, 50))} ms  p99 ${f(pct(cpu, 99))} ms   (${items} items)`,
  );
}
const page =
  (f: FeedFilters, after: FeedKey | null = null) =>
  () => {
    const p = feedPage(db, month, f, after, argv.limit);
    JSON.stringify({ month, data: p.items, next_cursor: p.next });
    return p.items.length;
  };

console.log(`\n${month}: ${n} changes; first page, limit ${argv.limit}, ${argv.runs} runs, warm (page read + JSON)`);
measure('no filter', page({}));
measure(`tipo=abertura&uf=${uf}`, page({ tipo: ['abertura'], uf: [uf] }));
measure(
  `campo=situacao_cadastral&municipio=${municipio}`,
  page({ campo: ['situacao_cadastral'], municipio: [municipio] }),
);
measure(`cnae=${division}&uf=${uf}`, page({ cnae: [division], uf: [uf] }));
measure('campo=natureza_juridica (rare, no attribute filter)', page({ campo: ['natureza_juridica'] }));
// The filters checked on the row only (no index): a common name word, a CEP prefix, a range.
const wordCounts = new Map<string, number>();
for (const names of db
  .prepare(`SELECT names FROM subjects WHERE month = ? AND names IS NOT NULL LIMIT 5000`)
  .pluck()
  .all(month) as string[]) {
  for (const w of new Set(names.split(' '))) if (w.length >= 4) wordCounts.set(w, (wordCounts.get(w) ?? 0) + 1);
}
// The most common word of the names: the page's matches are dense (a rare word is bounded by the scan budget, like a rare campo).
const word = [...wordCounts].sort((a, b) => b[1] - a[1])[0]?.[0];
if (word) measure(`q=${word}&uf=${uf}`, page({ q: word, uf: [uf] }));
const cep = db
  .prepare(`SELECT substr(cep, 1, 3) FROM subjects WHERE month = ? AND uf = ? AND cep IS NOT NULL LIMIT 1`)
  .pluck()
  .get(month, uf) as string | undefined;
if (cep) measure(`cep=${cep}&has_email=true`, page({ cep: [cep], has_email: true }));
measure(
  `capital_social_min=100000&inicio_atividade_min=2020-01-01&uf=${uf}`,
  page({ capital_social_min: 100000, inicio_atividade_min: '2020-01-01', uf: [uf] }),
);
measure(`deep page (after ${mid}, half the month in)`, page({}, [mid, '~']));
const sample = db
  .prepare('SELECT cnpj FROM subjects WHERE month = ? ORDER BY cnpj LIMIT 1000')
  .pluck()
  .all(month) as string[];
measure('company history (changesOf + items + JSON), 1,000 CNPJs', (i) => {
  const cnpj = sample[i % sample.length];
  const data = historyItems(changesOf(db, cnpj), cnpj);
  JSON.stringify({ cnpj, data });
  return data.length;
});
db.close();
