// Relevance benchmark of the name search (issue #46): labelled queries built from companies drawn
// by a fixed seed, in the variants people type, scored by where their company comes.
//   npm run bench:relevance -- --data-dir /path/to/data [--companies 1000] [--seed 1] [--http] [--order cnpj]
// --http: the queries go to the real server over loopback (one at a time: latency, not load), and
// a typeahead row measures suggest on each razão social cut inside its last word.
// A query is right at rank k when the k-th distinct company (CNPJ root) of its first page is the
// drawn one, or one whose establishment listed has the same normalised name (razão social, or
// nome fantasia for that variant): identical names are equally right. "first (core)" also counts
// a first company whose name has the same core words (legal forms and connectors left out:
// name-key.ts), which is all a query without a legal form can tell apart. The relevance order is
// asked with group=company, a page of 20; --order cnpj asks today's order, 100 establishments, and
// groups the roots here. Prints, per variant, the queries made, the shares, and the page's p50/p99.
import path from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { dataPaths } from '../src/lib/config.ts';
import { CompanyRegistry } from '../src/domain/company/lookup.ts';
import { SearchIndex, type CompanyFilters } from '../src/domain/search/index.ts';
import { NAME_STOP_WORDS, normalizeText } from '../src/domain/search/normalize.ts';
import { coreWords } from '../src/domain/search/name-key.ts';
import { Rng } from '../src/demo/prng.ts';
import { openSqlite } from '../src/storage/sqlite.ts';
import { attachSnapshot } from '../src/storage/snapshots/attach.ts';
import { killChildren, startServer, stopServer } from './bench-api/children.ts';
import { benchToken } from './bench-api/registry.ts';
import { quantile } from './stats.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .option('data-dir', { type: 'string', demandOption: true })
  .option('companies', numberOption('companies', { integer: true, min: 1 }, { default: 1000 }))
  .option('seed', numberOption('seed', { integer: true }, { default: 1 }))
  .option('order', {
    choices: ['relevance', 'cnpj'] as const,
    default: 'relevance' as const,
    describe:
      "relevance: the engine's order, group=company, first page of 20; cnpj: today's order, 100 establishments grouped here",
  })
  .option('http', {
    type: 'boolean',
    default: false,
    describe:
      'ask the real server (a child on loopback, --workers 1, a bench token) over HTTP, one request at a time; also measures suggest',
  })
  .option('verbose', { type: 'boolean', default: false, describe: 'print every query that is not right first' })
  .option(
    'slowest',
    numberOption('slowest', { integer: true, min: 0 }, { default: 0, describe: 'print the N slowest queries' }),
  )
  .strict()
  .parse();

const registry = new CompanyRegistry({ dataDir: argv['data-dir'], contacts: () => [], pollMs: 0, log: () => {} });
if (registry.snapshot?.search == null) throw new Error('no snapshot with a search index in this data dir');
const search = new SearchIndex(registry.snapshot);
const data = openSqlite(':memory:');
attachSnapshot(data, path.join(dataPaths(argv['data-dir']).registryDir, registry.info!.id));
const rng = new Rng(argv.seed);

interface Drawn {
  basico: string;
  razao: string;
  fantasia: string | null;
  uf: string | null;
}

/** Companies drawn by rowid (seeded), each with its head office's nome fantasia and UF. */
function draw(n: number): Drawn[] {
  const max = data.prepare('SELECT max(rowid) FROM reg.companies').pluck().get() as number;
  const company = data.prepare('SELECT basico, razao_social FROM reg.companies WHERE rowid = ?');
  const office = data.prepare(
    `SELECT nome_fantasia, uf FROM est.establishments WHERE cnpj >= ? AND cnpj < ? ORDER BY matriz_filial, cnpj LIMIT 1`,
  );
  const out: Drawn[] = [];
  const seen = new Set<string>();
  while (out.length < n) {
    const c = company.get(1 + rng.int(max)) as { basico: string; razao_social: string | null } | undefined;
    if (c === undefined || c.razao_social === null || seen.has(c.basico) || normalizeText(c.razao_social) === '')
      continue;
    seen.add(c.basico);
    const e = office.get(c.basico, `${c.basico}~`) as { nome_fantasia: string | null; uf: string | null } | undefined;
    out.push({ basico: c.basico, razao: c.razao_social, fantasia: e?.nome_fantasia ?? null, uf: e?.uf ?? null });
  }
  return out;
}

const LEGAL = /(\s+(LTDA|LIMITADA|S\/A|S\.A\.?|SA|ME|EPP|EIRELI|CIA))+\.?\s*$/i;
const stripAccents = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '');
const content = (s: string) => s.split(/\s+/).filter((w) => w !== '' && !NAME_STOP_WORDS.has(normalizeText(w)));

/** One letter of the first content word of 6+ letters changed (seeded), or null. */
function typo(s: string): string | null {
  const ws = s.split(/\s+/);
  const i = ws.findIndex((w) => /^[A-Za-zÀ-ÿ]{6,}$/.test(w) && !NAME_STOP_WORDS.has(normalizeText(w)));
  if (i < 0) return null;
  const w = ws[i];
  const at = 1 + rng.int(w.length - 2);
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.replace(w[at].toUpperCase(), '');
  ws[i] = w.slice(0, at) + letters[rng.int(letters.length)] + w.slice(at + 1);
  return ws.join(' ');
}

/** Two adjacent content words joined into one, or null. */
function joined(s: string): string | null {
  const ws = content(s);
  if (ws.length < 2) return null;
  const i = rng.int(ws.length - 1);
  return [...ws.slice(0, i), ws[i] + ws[i + 1], ...ws.slice(i + 2)].join(' ');
}

/** The content words in another order (reversed), or null for one word. */
function outOfOrder(s: string): string | null {
  const ws = content(s);
  return ws.length < 2 ? null : [...ws].reverse().join(' ');
}

type Variant = [string, (d: Drawn) => CompanyFilters | null];
/** A variant's query text as filters; each variant's text is drawn once (typo and joined draw from the seed). */
const query = (q: string | null): CompanyFilters | null => (q === null ? null : { q });
const VARIANTS: Variant[] = [
  ['exact razão social', (d) => ({ q: d.razao })],
  ['without legal form', (d) => (LEGAL.test(d.razao) ? { q: d.razao.replace(LEGAL, '') } : null)],
  ['nome fantasia', (d) => (d.fantasia && normalizeText(d.fantasia) ? { q: d.fantasia } : null)],
  ['accents dropped', (d) => (stripAccents(d.razao) !== d.razao ? { q: stripAccents(d.razao) } : null)],
  ['one letter changed', (d) => query(typo(d.razao))],
  ['two words joined', (d) => query(joined(d.razao))],
  ['words out of order', (d) => query(outOfOrder(d.razao))],
  [
    'first two words + uf',
    (d) => {
      const ws = content(d.razao);
      return ws.length < 2 || d.uf === null ? null : { q: ws.slice(0, 2).join(' '), uf: [d.uf] };
    },
  ],
];

const namesOf = data.prepare(
  'SELECT c.razao_social, e.nome_fantasia FROM est.establishments e LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) WHERE e.cnpj = ?',
);
/**
 * The 1-based rank of the first right company among the page's distinct roots, or null: the
 * drawn one, or one whose establishment listed has the same normalised name (`name`: the razão
 * social, or the nome fantasia for that variant).
 */
function rankOf(d: Drawn, name: string, cnpjs: readonly string[], core = false): number | null {
  const same = (n: string) => (core ? coreWords(n).join(' ') : normalizeText(n));
  const want = same(name);
  const seen = new Set<string>();
  for (const c of cnpjs) {
    const root = c.slice(0, 8);
    if (seen.has(root)) continue;
    seen.add(root);
    if (root === d.basico) return seen.size;
    const row = namesOf.get(c) as { razao_social: string | null; nome_fantasia: string | null } | undefined;
    if (row !== undefined && [row.razao_social, row.nome_fantasia].some((n) => n !== null && same(n) === want))
      return seen.size;
  }
  return null;
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)} %` : '-');

/** The server over HTTP (--http): a child process on loopback and a token of a plan without a practical quota. */
async function httpClient() {
  const server = await startServer('server', argv['data-dir'], 1);
  const headers = { authorization: `Bearer ${await benchToken(argv['data-dir'])}` };
  const call = async (route: string, f: CompanyFilters, extra: Record<string, string>): Promise<string[]> => {
    const qs = new URLSearchParams(extra);
    for (const [k, v] of Object.entries(f)) qs.set(k, Array.isArray(v) ? v.join(',') : String(v));
    const r = await fetch(`${server.url}${route}?${qs}`, { headers });
    const body = (await r.json()) as { data?: { cnpj: string }[] };
    return r.ok ? (body.data ?? []).map((c) => c.cnpj) : [];
  };
  return {
    search: (f: CompanyFilters) =>
      call(
        '/api/v1/brazilian_companies',
        f,
        argv.order === 'cnpj' ? { limit: '100', order: 'cnpj' } : { limit: '20', group: 'company' },
      ),
    suggest: (f: CompanyFilters) => call('/api/v1/brazilian_companies/suggest', f, { limit: '10' }),
    close: () => stopServer(server.child),
  };
}
const http = argv.http ? await httpClient() : null;
process.on('exit', killChildren);

const drawn = draw(argv.companies);
console.log(
  `${drawn.length} companies drawn (seed ${argv.seed}) from ${registry.info!.id}; ` +
    (argv.order === 'cnpj'
      ? 'order=cnpj, first page of 100 establishments, roots grouped by the client'
      : 'relevance order, group=company, first page of 20'),
);
console.log(
  `${'variant'.padEnd(24)} ${'queries'.padStart(8)} ${'first'.padStart(8)} ${'top 5'.padStart(8)} ${'first (core)'.padStart(12)}   page p50 / p99`,
);
let total = 0;
const timed: [number, string, string][] = [];
for (const [name, make] of VARIANTS) {
  let n = 0;
  let first = 0;
  let firstCore = 0;
  let top5 = 0;
  const ms: number[] = [];
  for (const d of drawn) {
    const f = make(d);
    if (f === null) continue;
    let cnpjs: string[] = [];
    const t = performance.now();
    if (http !== null) cnpjs = await http.search(f);
    else
      try {
        cnpjs =
          argv.order === 'cnpj'
            ? search.search(f, { limit: 100 }).cnpjs
            : search.ranked(f, { limit: 20, group: true }).items.map((i) => i.cnpj);
      } catch (e) {
        if (!(e instanceof Error && e.name === 'InvalidFilter')) throw e;
      }
    ms.push(performance.now() - t);
    timed.push([ms[ms.length - 1], name, JSON.stringify(f)]);
    const target = name === 'nome fantasia' ? d.fantasia! : d.razao;
    const rank = rankOf(d, target, cnpjs);
    n++;
    if (rank === 1) first++;
    if (rankOf(d, target, cnpjs, true) === 1) firstCore++;
    if (rank !== null && rank <= 5) top5++;
    if (argv.verbose && rank !== 1) console.log(`  ${name}: ${JSON.stringify(f)} → ${rank ?? 'not in the page'}`);
  }
  total += n;
  console.log(
    `${name.padEnd(24)} ${String(n).padStart(8)} ${pct(first, n).padStart(8)} ${pct(top5, n).padStart(8)} ${pct(firstCore, n).padStart(12)}   ${quantile(ms, 0.5).toFixed(2)} / ${quantile(ms, 0.99).toFixed(2)} ms`,
  );
}
console.log(`${total} labelled queries`);
if (argv.slowest > 0) {
  console.log(`the ${argv.slowest} slowest:`);
  for (const [t, name, f] of timed.sort((a, b) => b[0] - a[0]).slice(0, argv.slowest))
    console.log(`  ${t.toFixed(1).padStart(8)} ms  ${name}: ${f}`);
}

/** Typeahead: the razão social cut inside its last content word (at least 4 characters typed), suggest's top 1 / top 5. */
if (http !== null) {
  let n = 0;
  let first = 0;
  let top5 = 0;
  const ms: number[] = [];
  for (const d of drawn) {
    const ws = content(d.razao);
    if (!ws.length) continue;
    const last = ws[ws.length - 1];
    const typed = [...ws.slice(0, -1), last.slice(0, Math.max(2, Math.ceil(last.length / 2)))].join(' ');
    if (typed.length < 4) continue;
    const t = performance.now();
    const cnpjs = await http.suggest({ q: typed });
    ms.push(performance.now() - t);
    const rank = rankOf(d, d.razao, cnpjs);
    n++;
    if (rank === 1) first++;
    if (rank !== null && rank <= 5) top5++;
    if (argv.verbose && rank !== 1) console.log(`  suggest: ${JSON.stringify(typed)} → ${rank ?? 'not in the 10'}`);
  }
  console.log(
    `${'suggest (typed prefix)'.padEnd(24)} ${String(n).padStart(8)} ${pct(first, n).padStart(8)} ${pct(top5, n).padStart(8)}   ${quantile(ms, 0.5).toFixed(2)} / ${quantile(ms, 0.99).toFixed(2)} ms (HTTP)`,
  );
  await http.close();
}
registry.close();
data.close();
