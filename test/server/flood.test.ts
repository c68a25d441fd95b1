// Issue #12 item 1: clients that pipeline lookups on keep-alive connections and never read the
// answers must not grow the server's memory, nor slow down everyone else. 8 such connections for
// 12 s against `cnpj-api serve` (a spawned process, RSS from /proc), once flooding with a token
// that has quota (200s, counted) and once with one whose quota is used up (429s), then against
// `serve --workers 2` with both at once (4 connections each): the server (all its processes)
// grows by less than 150 MB and a polite client's lookups are each answered (200) within 1 s.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import { politeClient, readingLoad, startFlood, treeRss } from './flood.ts';
import {
  childPids,
  killServe,
  makeAccount,
  publish,
  sleep,
  spawnServe,
  tempDataDir,
  writeSnapshot,
  type ServeProcess,
  type TestAccount,
} from './helpers.ts';

const FLOOD_MS = 12_000;
const CONNECTIONS = 8;
/**
 * What a flood grows is V8's old generation, full of parked requests promoted and then dead, not
 * memory the server holds (docs/http-limits.md). With V8's own growing factor (up to 4x the live
 * heap) that garbage made the 429 flood grow by 58-99 MB, sometimes by 160-285 MB; `serve` fixes
 * the factor at 2 (src/server/heap.ts) and the floods grow by 7-43 MB on this 2-core VM. The bound
 * is far below what the flood reached before the limits of #12 (+110-400 MB, and unbounded with
 * the flood's length).
 */
const MAX_GROWTH = 150 * 1024 * 1024;
const MAX_LATENCY_MS = 1000;
/** The flood is cut short past this growth: the test has failed, the machine must not suffer. */
const ABORT_GROWTH = 600 * 1024 * 1024;
const MB = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

const PATH = `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;

interface Outcome {
  growth: number;
  latencies: number[];
  statuses: number[];
  sent: number;
}

/** `flooders`: one token per group of connections, CONNECTIONS in all. */
async function floodRun(server: ServeProcess, flooders: string[], polite: string): Promise<Outcome> {
  const pid = server.child.pid!;
  // The baseline is a server that has served ordinary load (code compiled, heap at its working
  // size), not one fresh from its start: what the flood adds is measured.
  await readingLoad(server.url + PATH, polite, 2000, 64);
  const base = treeRss(pid);
  let peak = base;
  const floods = flooders.map((t) => startFlood(server.url, PATH, t, CONNECTIONS / flooders.length));
  const flood = { stop: () => floods.forEach((f) => f.stop()), sent: () => floods.reduce((n, f) => n + f.sent(), 0) };
  const end = performance.now() + FLOOD_MS;
  let aborted = false;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
    if (peak - base > ABORT_GROWTH && !aborted) {
      aborted = true;
      flood.stop();
    }
  }, 100);
  try {
    // The polite client starts once the flood is on.
    await sleep(500);
    const r = await politeClient(server.url + PATH, polite, end, 100, 5000);
    while (performance.now() < end && !aborted) await sleep(50);
    peak = Math.max(peak, treeRss(pid));
    return { growth: peak - base, ...r, sent: flood.sent() };
  } finally {
    clearInterval(sampler);
    flood.stop();
  }
}

function check(name: string, o: Outcome): void {
  const worst = Math.max(...o.latencies);
  console.log(
    `${name}: RSS +${MB(o.growth)}, polite lookups ${o.latencies.length}, slowest ${worst.toFixed(0)} ms, ` +
      `statuses ${[...new Set(o.statuses)].join('/')}, flood requests written ${o.sent}`,
  );
  assert.ok(o.latencies.length >= 10, `the polite client got only ${o.latencies.length} answers`);
  assert.ok(o.growth < MAX_GROWTH, `${name}: server RSS grew by ${MB(o.growth)}`);
  assert.deepEqual(new Set(o.statuses), new Set([200]), `${name}: polite statuses ${o.statuses.join(',')}`);
  assert.ok(worst < MAX_LATENCY_MS, `${name}: a polite lookup took ${worst.toFixed(0)} ms`);
}

describe('pipelining clients that never read', { timeout: 120_000 }, () => {
  let dataDir: string;
  let rich: TestAccount;
  let broke: TestAccount;
  let polite: TestAccount;

  before(async () => {
    dataDir = tempDataDir();
    const data = fixture();
    writeSnapshot(dataDir, 's1', data);
    await publish(dataDir, 's1', '2026-04', data);
    rich = await makeAccount(dataDir, 'Inundador', { quota: 1_000_000_000 });
    broke = await makeAccount(dataDir, 'Sem cota', { quota: 0 });
    polite = await makeAccount(dataDir, 'Educado', { quota: 1_000_000_000 });
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  describe('serve (one process)', () => {
    let server: ServeProcess;
    before(async () => {
      server = await spawnServe(dataDir);
    });
    after(async () => {
      await killServe(server);
    });

    test('token with quota: memory stays flat, the polite client answered within 1 s', async () => {
      check('quota', await floodRun(server, [rich.token], polite.token));
    });

    test('token without quota (429 answers): same', async () => {
      check('no quota', await floodRun(server, [broke.token], polite.token));
    });
  });

  describe('serve --workers 2', () => {
    let server: ServeProcess;
    before(async () => {
      server = await spawnServe(dataDir, ['--workers', '2'], (pid) => childPids(pid).length === 2);
    });
    after(async () => {
      await killServe(server);
    });

    test('tokens with and without quota at once: each worker bounds itself', async () => {
      check('workers 2', await floodRun(server, [rich.token, broke.token], polite.token));
    });
  });
});
