// The test lanes (docs/testing.md). `npm test` runs them all: first the unit lane with a coverage
// summary (c8), then everything else. `npm run test:unit` runs the unit lane alone: no browser, no
// PostgreSQL, no child process, so it runs in seconds on a machine with nothing but `npm ci`.
//
// A file belongs to the unit lane unless its text names one of the heavy parts below or it is on
// the list of slow files. Files that
// run on both app-state backends (forBackends) run their SQLite half in the unit lane and their
// PostgreSQL half in the full lane (CNPJ_TEST_BACKENDS), so nothing runs twice.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleCli } from './binary/bundle.ts';

/** What a unit test never does: start PostgreSQL, a browser, nginx, Swift, a child process. */
const HEAVY =
  /startPgCluster|startStandby|freshDatabaseUrl|fileCluster|playwright|spawnServe|runCli|child_process|helpers\/(?:nginx|swift|postgres|tcp-proxy)\.ts/;

/**
 * Files that need none of that but take seconds of their own (a real import, the golden trees, a
 * search index, servers under load): measured above about 5 s each, they go to the full lane.
 */
const SLOW = new Set([
  'test/domain/compat/minha-receita-golden.test.ts',
  'test/domain/compat/opencnpj-golden.test.ts',
  'test/domain/compat/receitaws-golden.test.ts',
  'test/domain/search/availability.test.ts',
  'test/domain/search/filters.test.ts',
  'test/domain/search/partners.test.ts',
  'test/domain/search/words.test.ts',
  'test/importer/download/update.test.ts',
  'test/importer/history/record.test.ts',
  'test/importer/partner-duplicates.test.ts',
  'test/importer/served-values.test.ts',
  'test/server/api/batch.test.ts',
  'test/server/api/changes.test.ts',
  'test/server/api/compat-clients.test.ts',
  'test/server/api/compat.test.ts',
  'test/server/api/establishments.test.ts',
  'test/server/api/golden.test.ts',
  'test/server/api/partners.test.ts',
  'test/server/api/search.test.ts',
  'test/server/readyz.test.ts',
  'test/server/web/consulta.test.ts',
  'test/server/web/login-throttle.test.ts',
  'test/server/web/monitoramento.test.ts',
  'test/server/web/pages.test.ts',
  'test/server/web/proxy.test.ts',
]);

function testFiles(dir = 'test'): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort();
}

export function lanes(): { unit: string[]; both: string[]; rest: string[] } {
  const unit: string[] = [];
  const both: string[] = [];
  const rest: string[] = [];
  const files = testFiles();
  // A slow file renamed or removed must leave the list, or it would join the unit lane unnoticed.
  const gone = [...SLOW].filter((f) => !files.includes(f));
  if (gone.length > 0) throw new Error(`scripts/test.ts lists slow test files that do not exist: ${gone.join(', ')}`);
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    if (SLOW.has(file) || HEAVY.test(text)) rest.push(file);
    else {
      unit.push(file);
      if (text.includes('forBackends')) both.push(file);
    }
  }
  return { unit, both, rest };
}

/**
 * `node --test files` with `env`; with `coverage`, under c8, which prints the summary of the lines
 * of src/ and importer/ the files ran (its raw data goes to a temp dir, removed after). Its exit status.
 */
function run(files: string[], env: NodeJS.ProcessEnv, coverage = false): number {
  if (files.length === 0) return 0;
  const node = ['--import', 'tsx', '--test', ...files];
  const tmp = coverage ? fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-coverage-')) : '';
  const argv = coverage
    ? [
        path.join('node_modules', 'c8', 'bin', 'c8.js'),
        '--include=src/**',
        '--include=importer/**',
        '--all',
        '--reporter=text-summary',
        `--temp-directory=${path.join(tmp, 'raw')}`,
        `--reports-dir=${path.join(tmp, 'report')}`,
        process.execPath,
        ...node,
      ]
    : node;
  try {
    const r = spawnSync(process.execPath, argv, { stdio: 'inherit', env: { ...process.env, ...env } });
    return r.status ?? 1;
  } finally {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args.includes('--list')) {
  const l = lanes();
  console.log(JSON.stringify({ unit: l.unit.length, postgresHalf: l.both.length, rest: l.rest.length }));
  process.exit(0);
}
const { unit, both, rest } = lanes();
const started = Date.now();
const statuses = [run(unit, { CNPJ_TEST_BACKENDS: 'sqlite' }, !args.includes('--no-coverage'))];
console.log(`unit lane: ${unit.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (!args.includes('--unit')) {
  // The full lane starts the CLI hundreds of times. From source, tsx loads each of its modules at
  // every start; the CLI bundled once into one CommonJS file (as the standalone binary bundles it)
  // starts about three times faster (docs/architecture.md, "Test lanes"). It lives under
  // node_modules/ (where its require('better-sqlite3') finds the package) in a folder of this
  // run's own, removed after.
  const cliDir = path.join('node_modules', '.cache', `cnpj-api-test-cli-${process.pid}`);
  try {
    const cli = await bundleCli(path.resolve(cliDir, 'cnpj-api.cjs'), process.versions.node.split('.')[0]!, [
      'better-sqlite3',
    ]);
    const env = { CNPJ_TEST_CLI: cli.file };
    // Every lane runs even when one failed: CI shows all the failures at once.
    statuses.push(run(rest, { ...env, CNPJ_TEST_BACKENDS: '' }), run(both, { ...env, CNPJ_TEST_BACKENDS: 'postgres' }));
  } finally {
    fs.rmSync(cliDir, { recursive: true, force: true });
  }
}
process.exit(statuses.find((s) => s !== 0) ?? 0);
