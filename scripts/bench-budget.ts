// Bounded work under abuse (issue #46 point 5): many clients send the slowest shapes a token can
// ask (broad counts over filters the count tables do not cover, one-letter prefixes, names of
// common words, an exhausted token) while one more client asks /healthz in a loop. Every search,
// count, suggest and partner query has a work budget (docs/search.md: PAGE_MS, COUNT_MS), so no request
// holds a worker's event loop for long: /healthz keeps answering.
//   npm run bench:budget -- --data-dir /path/to/data [--clients 16] [--seconds 60] [--workers 2]
// Prints /healthz p50/p99/max; per shape the answers, their statuses, the client's p50/p99/max
// (queueing behind the other clients included) and the counts answered `exact: false`; and, from
// the server's own duration histogram (--metrics), how many answers took more than 250 ms of the
// worker's time per route. Values are drawn from the data (seeded), as bench:search does.
import path from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { dataPaths } from '../src/lib/config.ts';
import { Rng } from '../src/demo/prng.ts';
import { openSqlite } from '../src/storage/sqlite.ts';
import { attachSnapshot } from '../src/storage/snapshots/attach.ts';
import { CompanyRegistry } from '../src/domain/company/lookup.ts';
import { killChildren, startServer, stopServer } from './bench-api/children.ts';
import { benchToken } from './bench-api/registry.ts';
import { quantile } from './stats.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .option('data-dir', { type: 'string', demandOption: true })
  .option('clients', numberOption('clients', { integer: true, min: 1 }, { default: 16 }))
  .option('seconds', numberOption('seconds', { min: 1 }, { default: 60 }))
  .option('workers', numberOption('workers', { integer: true, min: 1 }, { default: 2 }))
  .option('seed', numberOption('seed', { integer: true }, { default: 1 }))
  .strict()
  .parse();

const dataDir = argv['data-dir'];
const rng = new Rng(argv.seed);

/** CEP prefixes (5 digits) of establishments drawn from the data: 50, the most a `cep` list takes. */
function cepPrefixes(): string[] {
  const registry = new CompanyRegistry({ dataDir, contacts: () => [], pollMs: 0, log: () => {} });
  if (registry.info === null) throw new Error('no active snapshot in this data dir');
  const db = openSqlite(':memory:');
  attachSnapshot(db, path.join(dataPaths(dataDir).registryDir, registry.info.id));
  const max = db.prepare('SELECT max(rowid) FROM est.establishments').pluck().get() as number;
  const cep = db.prepare('SELECT cep FROM est.establishments WHERE rowid = ?').pluck();
  const out = new Set<string>();
  for (let i = 0; i < 10_000 && out.size < 50; i++) {
    const c = cep.get(1 + rng.int(max)) as string | null | undefined;
    if (typeof c === 'string' && /^\d{8}$/.test(c)) out.add(c.slice(0, 5));
  }
  db.close();
  registry.close();
  return [...out];
}

interface Shape {
  name: string;
  path: string;
  exhausted?: boolean;
}

const ceps = cepPrefixes().map((c) => `cep=${c}`);
const SHAPES: Shape[] = [
  {
    name: 'count, e-mail + 50 CEP prefixes',
    path: `/api/v1/brazilian_companies/count?has_email=true&${ceps.join('&')}`,
  },
  {
    name: 'count, phone + active + CNAE 47',
    path: '/api/v1/brazilian_companies/count?has_telefone=true&situacao_cadastral=ativa&cnae=47',
  },
  { name: 'count, q=a', path: '/api/v1/brazilian_companies/count?q=a' },
  { name: 'search, q=a (relevance, grouped)', path: '/api/v1/brazilian_companies?q=a&group=company&limit=100' },
  { name: 'search, q=m, order=cnpj', path: '/api/v1/brazilian_companies?q=m&order=cnpj&limit=100' },
  {
    name: 'search, common words, relevance',
    path: `/api/v1/brazilian_companies?q=${encodeURIComponent('comercio de alimentos silva')}&group=company&limit=100`,
  },
  {
    name: 'search, e-mail + 50 CEP prefixes',
    path: `/api/v1/brazilian_companies?has_email=true&${ceps.join('&')}&limit=100`,
  },
  { name: 'suggest, q=s', path: '/api/v1/brazilian_companies/suggest?q=s&limit=20' },
  { name: 'partners, nome=j', path: '/api/v1/partners?nome=j&limit=100' },
  { name: 'search, exhausted token', path: '/api/v1/brazilian_companies?q=silva', exhausted: true },
];

const ms = (x: number) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(0));

process.on('exit', killChildren);
const token = await benchToken(dataDir);
const exhausted = await benchToken(dataDir, 0);
const { child, url, metricsUrl } = await startServer('server', dataDir, argv.workers, undefined, true);
console.log(
  `server on ${url} (--workers ${argv.workers}); ${argv.clients} clients for ${argv.seconds} s, ${SHAPES.length} shapes, /healthz in a loop`,
);

const until = performance.now() + argv.seconds * 1000;
const seen = SHAPES.map(() => ({ times: [] as number[], statuses: new Map<number, number>(), inexact: 0 }));
const health: number[] = [];

async function client(i: number): Promise<void> {
  for (let n = i; performance.now() < until; n++) {
    const at = n % SHAPES.length;
    const shape = SHAPES[at];
    const t = performance.now();
    const res = await fetch(url + shape.path, {
      headers: { Authorization: `Bearer ${shape.exhausted ? exhausted : token}` },
    });
    const body = await res.text();
    const s = seen[at];
    s.times.push(performance.now() - t);
    s.statuses.set(res.status, (s.statuses.get(res.status) ?? 0) + 1);
    if (res.status === 200 && body.startsWith('{"count"') && body.includes('"exact":false')) s.inexact++;
  }
}

async function prober(): Promise<void> {
  while (performance.now() < until) {
    const t = performance.now();
    const res = await fetch(`${url}/healthz`);
    await res.arrayBuffer();
    health.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
}

await Promise.all([prober(), ...Array.from({ length: argv.clients }, (_, i) => client(i))]);
const metrics = metricsUrl ? await (await fetch(metricsUrl)).text() : '';
await stopServer(child);

console.log(
  `\n/healthz: ${health.length} answers, p50 ${ms(quantile(health, 0.5))} ms, p99 ${ms(quantile(health, 0.99))} ms, max ${ms(Math.max(...health))} ms`,
);
console.log(
  `\n${'shape'.padEnd(36)} ${'answers'.padStart(7)}  statuses          p50 / p99 / max (client, queued)   exact:false`,
);
SHAPES.forEach((shape, i) => {
  const s = seen[i];
  const statuses = [...s.statuses.entries()].map(([k, v]) => `${k}×${v}`).join(' ');
  console.log(
    `${shape.name.padEnd(36)} ${String(s.times.length).padStart(7)}  ${statuses.padEnd(16)}  ${`${ms(quantile(s.times, 0.5))} / ${ms(quantile(s.times, 0.99))} / ${ms(Math.max(...s.times))} ms`.padEnd(34)} ${s.inexact || ''}`,
  );
});

// The worker's own time per answer, from the server's histogram: answers above 250 ms per route.
const counts = new Map<string, { total: number; within: number }>();
for (const line of metrics.split('\n')) {
  const m = /_http_request_duration_seconds_bucket\{(.*)\} (\d+)$/.exec(line);
  if (m === null) continue;
  const route = /route="([^"]*)"/.exec(m[1])?.[1] ?? '?';
  const le = /le="([^"]*)"/.exec(m[1])?.[1];
  const c = counts.get(route) ?? { total: 0, within: 0 };
  if (le === '+Inf') c.total += Number(m[2]);
  if (le === '0.25') c.within += Number(m[2]);
  counts.set(route, c);
}
console.log('\nworker time per answer (server histogram): answers over 250 ms by route');
for (const [route, c] of counts) console.log(`  ${route.padEnd(44)} ${c.total - c.within} of ${c.total}`);
