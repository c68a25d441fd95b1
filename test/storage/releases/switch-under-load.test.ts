// A release pulled while a real `cnpj-api serve` answers lookups: 16 client loops look up random
// known CNPJs on data dir B (serving month 1, itself pulled from a release) for the whole
// duration, while `cnpj-api release pull` fetches month 2 as a child process and switches the
// server over; the loops go on for 2 s after the first month-2 answer. Not one answer may be
// anything but a 200, answers come from both months, each names its month's release, and a
// request sent after the switch was seen is never answered from the old month.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runImport } from '../../../importer/run.ts';
import { generateDump } from '../../../src/demo/generate.ts';
import { dataPaths } from '../../../src/lib/config.ts';
import { listSnapshots } from '../../../src/storage/snapshots/records.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { runCli } from '../../helpers/cli.ts';
import { killServe, makeAccount, sleep, spawnServe, withAppDb, type ServeProcess } from '../../server/helpers.ts';

const M1 = '2026-09';
const M2 = '2026-10';
const LOOPS = 16;
/** How long the loops go on after the first answer from month 2. */
const AFTER_SWITCH_MS = 2_000;
/** Load on month 1 alone before the pull starts. */
const BEFORE_PULL_MS = 1_000;
/** The loops stop by themselves at the latest this long after they started. */
const HARD_LIMIT_MS = 180_000;

let tmp: string;
let server: ServeProcess | undefined;
let token: string;
const releases: Record<string, string> = {};
/** CNPJs of establishments present in both months. */
let known: string[];
const dirA = () => path.join(tmp, 'A');
const dirB = () => path.join(tmp, 'B');
const pubDir = (month: string) => path.join(tmp, `pub-${month}`);
const pubKey = () => path.join(tmp, 'keys', 'release.pub');

function cnpjsOf(snapshotDir: string): string[] {
  const db = openSqlite(path.join(snapshotDir, 'establishments.db'), { readonly: true });
  try {
    return db.prepare('SELECT cnpj FROM establishments').pluck().all() as string[];
  } finally {
    db.close();
  }
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-release-switch-'));
  await generateDump({ companies: 3000, out: path.join(tmp, 'm0'), seed: 31, month: M1 });
  await generateDump({ companies: 0, out: path.join(tmp, 'm1'), evolveFrom: path.join(tmp, 'm0') });
  for (const m of ['m0', 'm1']) await runImport({ dataDir: dirA(), inputs: [path.join(tmp, m)], log: () => {} });
  for (const m of ['m0', 'm1']) fs.rmSync(path.join(tmp, m), { recursive: true, force: true });

  const snaps = await withAppDb(dirA(), (sqlite) => listSnapshots(sqlite, dataPaths(dirA()).registryDir));
  const snapOf = (month: string) => snaps.find((s) => s.month === month && s.status !== 'deleted')!;
  assert.ok(snapOf(M1) && snapOf(M2), snaps.map((s) => `${s.id} ${s.status}`).join(', '));
  const second = new Set(cnpjsOf(snapOf(M2).dir));
  known = cnpjsOf(snapOf(M1).dir).filter((c) => second.has(c));
  assert.ok(known.length > 1000, `${known.length} CNPJs in both months`);

  const keys = await runCli(['release', 'keygen', '--out', path.join(tmp, 'keys')]);
  assert.equal(keys.code, 0, keys.err);
  // Each month published to a folder of its own, so each folder's latest.json names that month.
  for (const month of [M1, M2]) {
    const pub = await runCli([
      'release',
      'publish',
      '--to',
      pubDir(month),
      '--key',
      path.join(tmp, 'keys', 'release.key'),
      '--snapshot',
      snapOf(month).id,
      '--data-dir',
      dirA(),
    ]);
    assert.equal(pub.code, 0, pub.err);
    releases[month] = pub.out.trim();
    assert.match(releases[month], new RegExp(`^${month}-[0-9a-f]{16}$`));
  }

  const first = await runCli(['release', 'pull', '--from', pubDir(M1), '--trust', pubKey(), '--data-dir', dirB()]);
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, new RegExp(`switched to release ${releases[M1]}`));
  token = (await makeAccount(dirB(), 'load', { quota: 100_000_000 })).token;
  server = await spawnServe(dirB());
});

after(async () => {
  if (server) await killServe(server);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

interface Answer {
  /** performance.now() when the request was sent and when its answer was read whole. */
  sent: number;
  received: number;
  status: number;
  month: string | null;
  release: string | null;
  /** What went wrong: a network error, or a body that is not the company asked for. */
  problem?: string;
}

test('a pull switches a serving process under 16 concurrent lookup loops without one failed answer', async (t) => {
  const answers: Answer[] = [];
  const started = performance.now();
  let stopAt = started + HARD_LIMIT_MS;
  let switchSeen: number | undefined;
  const url = `${server!.url}/api/v1/brazilian_companies/`;
  const headers = { Authorization: `Bearer ${token}` };

  const loop = async () => {
    while (performance.now() < stopAt) {
      const cnpj = known[Math.floor(Math.random() * known.length)];
      const sent = performance.now();
      const a: Answer = { sent, received: 0, status: 0, month: null, release: null };
      try {
        const res = await fetch(`${url}${cnpj}/company`, { headers });
        const body = await res.text();
        a.status = res.status;
        a.month = res.headers.get('x-registry-month');
        a.release = res.headers.get('x-registry-release');
        if (res.status === 200 && (JSON.parse(body) as { company?: { cnpj?: string } }).company?.cnpj !== cnpj)
          a.problem = `${cnpj}: the body is not this company's: ${body.slice(0, 200)}`;
        else if (res.status !== 200) a.problem = `${cnpj}: ${body.slice(0, 200)}`;
      } catch (err) {
        a.problem = `${cnpj}: ${(err as Error).message}`;
      }
      a.received = performance.now();
      answers.push(a);
      if (a.month === M2 && switchSeen === undefined) {
        switchSeen = a.received;
        stopAt = Math.min(stopAt, switchSeen + AFTER_SWITCH_MS);
      }
    }
  };
  const loops = Array.from({ length: LOOPS }, loop);

  await sleep(BEFORE_PULL_MS);
  const pullStarted = performance.now();
  const pull = await runCli(['release', 'pull', '--from', pubDir(M2), '--trust', pubKey(), '--data-dir', dirB()]);
  const pullEnded = performance.now();
  // A failed pull, or a server that never follows, ends the loops early (the checks below fail).
  if (pull.code !== 0) stopAt = Math.min(stopAt, pullEnded);
  else if (switchSeen === undefined) stopAt = Math.min(stopAt, pullEnded + 10_000);
  await Promise.all(loops);

  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const afterSwitch = switchSeen === undefined ? [] : answers.filter((x) => x.sent >= switchSeen!);
  const lateOld = answers.filter((x) => switchSeen !== undefined && x.received > switchSeen && x.month === M1).length;
  t.diagnostic(`${answers.length} requests by ${LOOPS} loops in ${s(performance.now() - started)}`);
  t.diagnostic(`pull: ${s(pullEnded - pullStarted)} (exit ${pull.code}); ${pull.out.trim()}`);
  if (switchSeen !== undefined) {
    t.diagnostic(
      `switch seen ${s(switchSeen - pullStarted)} after the pull started, ${s(switchSeen - pullEnded)} after it ended`,
    );
    t.diagnostic(
      `${afterSwitch.length} requests sent after the switch was seen; ` +
        `${lateOld} month-1 answers to requests in flight at the switch arrived after it`,
    );
  }

  assert.equal(pull.code, 0, pull.err);
  assert.match(pull.out, new RegExp(`switched to release ${releases[M2]}`));
  const bad = answers.filter((x) => x.status !== 200 || x.problem !== undefined);
  assert.deepEqual(
    bad.slice(0, 5).map((x) => `${x.status} ${x.problem}`),
    [],
    `${bad.length} of ${answers.length} answers were not the company's 200`,
  );
  for (const x of answers) {
    assert.ok(x.month === M1 || x.month === M2, `an answer names month ${x.month}`);
    assert.equal(x.release, releases[x.month!], `a month-${x.month} answer names release ${x.release}`);
  }
  assert.ok(switchSeen !== undefined, 'no answer came from month 2 (the server did not follow the pull)');
  assert.ok(
    answers.some((x) => x.month === M1 && x.sent > pullStarted),
    'month 1 answered while the pull ran',
  );
  const stale = afterSwitch.filter((x) => x.month !== M2);
  assert.equal(stale.length, 0, `${stale.length} requests sent after the switch was seen answered from month 1`);
  assert.ok(afterSwitch.length > LOOPS, `only ${afterSwitch.length} requests after the switch`);
  const last = Math.max(...answers.map((x) => x.received));
  assert.ok(last - switchSeen >= AFTER_SWITCH_MS, `the loops stopped ${s(last - switchSeen)} after the switch`);
});
