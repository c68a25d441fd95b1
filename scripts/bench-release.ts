// Releases, measured: publish a registry to a folder, serve that folder with nginx on loopback,
// fetch its files with curl, then `cnpj-api release pull` the same files from the same server in
// the same run (MB/s side by side), then the time from an empty data dir to a server answering
// /readyz 200 with `serve --follow`.
//
//   npm run bench:release -- [--companies 200000 | --data-dir A] [--work DIR] [--parallel 4]
//                            [--curl-to disk|null] [--drop-source] [--skip-serving] [--keep-work]
//                            [--fleet]
//
// --data-dir publishes that data dir's active snapshot (a full-size month imported beforehand);
// otherwise a synthetic month of --companies is generated and imported first. --drop-source deletes
// that snapshot folder once published (a full-size run cannot hold three copies on one disk);
// --curl-to null sends curl's bytes to /dev/null instead of files (again for disk space);
// --skip-serving leaves out the empty-data-dir-to-serving run (a second whole pull). --fleet makes
// that run a fleet node's: a throwaway PostgreSQL, the release recorded as the fleet's
// (`release publish --database-url`), the node started with `--database-url` beside `--follow`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateDump } from '../src/demo/generate.ts';
import { runImport } from '../importer/run.ts';
import { startNginx } from '../test/helpers/nginx.ts';
import { startPgCluster, type PgCluster } from '../test/helpers/postgres.ts';

const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '200000' },
    'data-dir': { type: 'string' },
    work: { type: 'string' },
    parallel: { type: 'string', default: '4' },
    'curl-to': { type: 'string', default: 'disk' },
    'drop-source': { type: 'boolean', default: false },
    'keep-work': { type: 'boolean', default: false },
    'skip-serving': { type: 'boolean', default: false },
    fleet: { type: 'boolean', default: false },
  },
});
const work = path.resolve(values.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-release-')));
fs.mkdirSync(work, { recursive: true });
const bin = path.resolve('bin/cnpj-api.js');
const mb = (b: number) => b / 1e6;
const gb = (b: number) => (b / 1e9).toFixed(2);
const now = () => performance.now() / 1000;

/** Runs the CLI, timing it and reading its peak RSS (GNU time when present). */
function cli(args: string[]): { out: string; seconds: number; peakRssMB: number | null } {
  const t0 = now();
  const hasTime = fs.existsSync('/usr/bin/time');
  const rssFile = path.join(work, '.rss');
  const argv = hasTime ? ['-f', '%M', '-o', rssFile, process.execPath, bin, ...args] : [bin, ...args];
  const out = execFileSync(hasTime ? '/usr/bin/time' : process.execPath, argv, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  const peak = hasTime ? Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024 : null;
  return { out, seconds: now() - t0, peakRssMB: peak };
}

/** Ends the measured steps early (--skip-serving). */
class Done extends Error {}

const results: Record<string, unknown> = {
  machine: `${os.cpus().length} vCPU, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
};
const dataA = values['data-dir'] ? path.resolve(values['data-dir']) : path.join(work, 'A');
if (!values['data-dir']) {
  const companies = Number(values.companies);
  const t0 = now();
  await generateDump({ companies, out: path.join(work, 'dump'), seed: 1 });
  const t1 = now();
  await runImport({ dataDir: dataA, inputs: [path.join(work, 'dump')], log: () => {} });
  fs.rmSync(path.join(work, 'dump'), { recursive: true, force: true });
  results.registry = { companies, generateSeconds: +(t1 - t0).toFixed(1), importSeconds: +(now() - t1).toFixed(1) };
}

cli(['release', 'keygen', '--out', path.join(work, 'keys')]);
const pubDir = path.join(work, 'pub');
const publishArgs = ['release', 'publish', '--to', pubDir, '--key', path.join(work, 'keys', 'release.key')];
const publish = cli([...publishArgs, '--data-dir', dataA, '--json']);
const published = JSON.parse(publish.out) as { release: string; bytes: number; files: number; snapshot: string };
results.publish = {
  release: published.release,
  files: published.files,
  bytes: published.bytes,
  seconds: +publish.seconds.toFixed(1),
  MBps: +(mb(published.bytes) / publish.seconds).toFixed(1),
  peakRssMB: publish.peakRssMB,
};
console.error(`published ${gb(published.bytes)} GB in ${publish.seconds.toFixed(1)} s`);
if (values['drop-source']) {
  fs.rmSync(path.join(dataA, 'registry', published.snapshot), { recursive: true, force: true });
}

const nginx = await startNginx(pubDir);
let pg: PgCluster | undefined;
try {
  const base = `${nginx.url}/`;
  const manifest = JSON.parse(
    fs.readFileSync(path.join(pubDir, 'releases', published.release, 'manifest.json'), 'utf8'),
  ) as {
    files: { path: string; size: number }[];
  };
  // curl: the same files, the same parallelism, into files (or /dev/null) like the pull.
  const curlDir = path.join(work, 'curl');
  fs.mkdirSync(curlDir, { recursive: true });
  const curlArgs = ['-sS', '--fail', '--parallel', '--parallel-max', values.parallel!];
  for (const [i, f] of manifest.files.entries())
    curlArgs.push(
      `${base}releases/${published.release}/${f.path}`,
      '-o',
      values['curl-to'] === 'null' ? '/dev/null' : path.join(curlDir, String(i)),
    );
  const c0 = now();
  execFileSync('curl', curlArgs, { stdio: 'inherit' });
  const curlSeconds = now() - c0;
  fs.rmSync(curlDir, { recursive: true, force: true });
  const curlMBps = mb(published.bytes) / curlSeconds;
  console.error(`curl: ${curlMBps.toFixed(1)} MB/s`);

  const dataB = path.join(work, 'B');
  const pull = cli([
    'release',
    'pull',
    '--from',
    base,
    '--trust',
    path.join(work, 'keys', 'release.pub'),
    '--data-dir',
    dataB,
    '--parallel',
    values.parallel!,
    '--json',
  ]);
  const pulled = JSON.parse(pull.out) as { bytes: number; fetched: number; fetchSeconds: number; seconds: number };
  const pullMBps = mb(pulled.fetched) / pulled.fetchSeconds;
  results.pull = {
    bytes: pulled.bytes,
    fetchAndVerifySeconds: +pulled.fetchSeconds.toFixed(1),
    wholeSeconds: +pull.seconds.toFixed(1),
    MBps: +pullMBps.toFixed(1),
    curlMBps: +curlMBps.toFixed(1),
    ratioToCurl: +(pullMBps / curlMBps).toFixed(2),
    peakRssMB: pull.peakRssMB,
  };
  console.error(`pull: ${pullMBps.toFixed(1)} MB/s (${(pullMBps / curlMBps).toFixed(2)}x curl)`);
  fs.rmSync(dataB, { recursive: true, force: true });
  if (values['skip-serving']) throw new Done();

  // From an empty data dir to serving: `serve --follow` pulls first, /readyz turns 200 once it serves.
  const dataC = path.join(work, 'C');
  let fleetArgs: string[] = [];
  if (values.fleet) {
    pg = await startPgCluster();
    const url = await pg.createDatabase('fleet');
    // Publishing again uploads nothing: it records the release as the fleet's.
    cli([...publishArgs, '--data-dir', dataA, '--database-url', url]);
    fleetArgs = ['--database-url', url];
  }
  const s0 = now();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--port',
      String(port),
      '--data-dir',
      dataC,
      '--follow',
      base,
      '--trust',
      path.join(work, 'keys', 'release.pub'),
      ...fleetArgs,
    ],
    { stdio: 'ignore' },
  );
  try {
    let firstHealthy: number | null = null;
    for (;;) {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (r && firstHealthy === null) firstHealthy = now() - s0;
      if (r?.status === 200) break;
      if (now() - s0 > 4 * 3600) throw new Error('the follower did not become ready in 4 hours');
      await new Promise((res) => setTimeout(res, 200));
    }
    results.emptyToServing = {
      fleet: values.fleet,
      seconds: +(now() - s0).toFixed(1),
      listeningAfterSeconds: firstHealthy && +firstHealthy.toFixed(1),
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  console.error(`empty data dir to serving: ${(now() - s0).toFixed(1)} s`);
} catch (err) {
  if (!(err instanceof Done)) throw err;
} finally {
  await nginx.stop();
  await pg?.stop();
  if (!values['keep-work']) fs.rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));
