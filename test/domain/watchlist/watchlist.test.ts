// The watchlist's domain on a real app.db: adding one or many against the plan's limit (all or
// nothing, how many remain), concurrent processes never passing the limit, removing, paging by
// CNPJ with opaque cursors, and the CNPJ rules of the POST (formatted or bare, invalid reported).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { formatCnpj, makeCnpj } from '../../../src/domain/cnpj.ts';
import { addWatched } from '../../../src/domain/watchlist/add.ts';
import { watchlistUsage } from '../../../src/domain/watchlist/limit.ts';
import { addAnswer, planAdd } from '../../../src/domain/watchlist/many.ts';
import { readWatchlistCursor, watchedPage, watchlistCursor } from '../../../src/domain/watchlist/page.ts';
import { watchedCnpjs } from '../../../src/domain/watchlist/read.ts';
import { removeWatched } from '../../../src/domain/watchlist/remove.ts';
import { encodeCursor } from '../../../src/domain/cursor.ts';
import { tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'add-worker.ts');
const NOW = new Date('2026-11-20T15:00:00Z');
const list = (n: number, base = 11_000_000) => Array.from({ length: n }, (_, i) => makeCnpj(String(base + i), '0001'));

async function setup(limit: number) {
  const db = await tempAppDb();
  await setPlan(sqliteStore(db.app), 'Teste', { monthlyQuota: 10, watchlistLimit: limit });
  const acc = await createAccount(sqliteStore(db.app), { name: 'Acme', plan: 'Teste' });
  return { ...db, sqlite: db.app.sqlite, accountId: acc.id };
}

test('the seeded plans carry the limits of migration 0007', async () => {
  const { sqlite, cleanup } = await tempAppDb().then((d) => ({ ...d, sqlite: d.app.sqlite }));
  try {
    const rows = sqlite.prepare('SELECT name, watchlist_limit FROM plans ORDER BY sort_order').all();
    assert.deepEqual(rows, [
      { name: 'Bronze', watchlist_limit: 100 },
      { name: 'Prata', watchlist_limit: 500 },
      { name: 'Ouro', watchlist_limit: 2000 },
      { name: 'Diamante', watchlist_limit: 10000 },
      { name: 'Black', watchlist_limit: 50000 },
    ]);
  } finally {
    await cleanup();
  }
});

test('add one, add again (kept with its first date), remove, remove again', async () => {
  const { sqlite, accountId, cleanup } = await setup(5);
  try {
    const [c] = list(1);
    let r = addWatched(sqlite, accountId, [c!], NOW);
    assert.ok(r.ok);
    assert.deepEqual(r.rows.get(c!), { cnpj: c, added_at: NOW.toISOString(), added: true });
    r = addWatched(sqlite, accountId, [c!], new Date('2026-12-01T00:00:00Z'));
    assert.ok(r.ok);
    assert.deepEqual(r.rows.get(c!), { cnpj: c, added_at: NOW.toISOString(), added: false });
    assert.deepEqual(watchlistUsage(sqlite, accountId), { used: 1, limit: 5, plan: 'Teste' });
    assert.equal(removeWatched(sqlite, accountId, c!), true);
    assert.equal(removeWatched(sqlite, accountId, c!), false);
    assert.deepEqual(watchedCnpjs(sqlite, accountId), []);
  } finally {
    await cleanup();
  }
});

test('the limit: a list that does not fit adds nothing and says how many remain; repeats and watched ones cost nothing', async () => {
  const { sqlite, app, accountId, cleanup } = await setup(5);
  try {
    const l = list(8);
    assert.ok(addWatched(sqlite, accountId, l.slice(0, 3), NOW).ok);
    const r = addWatched(sqlite, accountId, [...l.slice(0, 3), ...l.slice(3, 6)], NOW);
    assert.deepEqual(r, { ok: false, needed: 3, remaining: 2, used: 3, limit: 5, plan: 'Teste' });
    assert.deepEqual(watchedCnpjs(sqlite, accountId), l.slice(0, 3));
    // Two new ones (one given twice) and three already watched: fits exactly.
    const ok = addWatched(sqlite, accountId, [l[3]!, l[3]!, l[4]!, ...l.slice(0, 3)], NOW);
    assert.ok(ok.ok);
    assert.equal(ok.used, 5);
    assert.equal(addWatched(sqlite, accountId, [l[0]!], NOW).ok, true, 'a watched CNPJ at the limit is fine');
    assert.deepEqual(addWatched(sqlite, accountId, [l[7]!], NOW), {
      ok: false,
      needed: 1,
      remaining: 0,
      used: 5,
      limit: 5,
      plan: 'Teste',
    });
    // A limit lowered under the usage: nothing removed, remaining 0 (never negative).
    await setPlan(sqliteStore(app), 'Teste', { watchlistLimit: 2 });
    assert.deepEqual(addWatched(sqlite, accountId, [l[7]!], NOW), {
      ok: false,
      needed: 1,
      remaining: 0,
      used: 5,
      limit: 2,
      plan: 'Teste',
    });
    assert.equal(watchedCnpjs(sqlite, accountId).length, 5);
  } finally {
    await cleanup();
  }
});

test('a write that fails half-way leaves the list as it was (one transaction)', async () => {
  const { sqlite, accountId, cleanup } = await setup(100);
  try {
    // The table's CHECK refuses a 13-character key: the rows before it are rolled back.
    assert.throws(() => addWatched(sqlite, accountId, [...list(3), '1234567890123'], NOW), /CHECK/);
    assert.deepEqual(watchedCnpjs(sqlite, accountId), []);
  } finally {
    await cleanup();
  }
});

function worker(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const done = new Promise<number>((resolve, reject) =>
    child.once('exit', (code) => {
      const m = /added (\d+)/.exec(out);
      return code === 0 && m ? resolve(Number(m[1])) : reject(new Error(`worker exited ${code}: ${out}`));
    }),
  );
  const ready = async () => {
    while (!out.includes('ready')) await new Promise((r) => setTimeout(r, 10));
  };
  return { done, ready };
}

test('concurrent processes never pass the limit: one at a time and whole lists', async () => {
  const { sqlite, accountId, dir, cleanup } = await setup(12);
  try {
    // 3 processes × 10 single adds of distinct CNPJs, then 3 processes each adding a list of 5.
    const singles = [0, 1, 2].map((i) => worker([dir, String(accountId), 'one', String(20_000_000 + i * 100), '10']));
    await Promise.all(singles.map((w) => w.ready()));
    fs.writeFileSync(path.join(dir, 'go'), '');
    const counts = await Promise.all(singles.map((w) => w.done));
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      12,
    );
    assert.equal(watchedCnpjs(sqlite, accountId).length, 12);

    fs.rmSync(path.join(dir, 'go'));
    sqlite.prepare('DELETE FROM watchlist').run();
    const lists = [0, 1, 2].map((i) => worker([dir, String(accountId), 'list', String(30_000_000 + i * 100), '5']));
    await Promise.all(lists.map((w) => w.ready()));
    fs.writeFileSync(path.join(dir, 'go'), '');
    const added = (await Promise.all(lists.map((w) => w.done))).sort();
    assert.deepEqual(added, [0, 5, 5], 'two lists fit whole, the third adds nothing');
    assert.equal(watchedCnpjs(sqlite, accountId).length, 10);
  } finally {
    await cleanup();
  }
});

test('pages by CNPJ: limit+1 read, no empty last page, cursors bound to the listing', async () => {
  const { sqlite, accountId, cleanup } = await setup(100);
  try {
    const l = list(7).sort();
    addWatched(sqlite, accountId, l, NOW);
    const p1 = watchedPage(sqlite, accountId, 3, null);
    assert.deepEqual(
      p1.data.map((d) => d.cnpj),
      l.slice(0, 3),
    );
    const after1 = readWatchlistCursor(p1.next_cursor!);
    assert.equal(after1, l[2]);
    const p2 = watchedPage(sqlite, accountId, 4, after1);
    assert.deepEqual(
      p2.data.map((d) => d.cnpj),
      l.slice(3),
    );
    assert.equal(p2.next_cursor, null);
    assert.equal(readWatchlistCursor('garbage'), null);
    assert.equal(readWatchlistCursor(encodeCursor('establishments:11000000', l[2]!)), null, "another listing's cursor");
    assert.equal(readWatchlistCursor(encodeCursor('watchlist', 'not-a-cnpj')), null);
    assert.equal(readWatchlistCursor(watchlistCursor(l[0]!)), l[0]);
  } finally {
    await cleanup();
  }
});

test('POST plan: formatted, lowercase and bare are one CNPJ; invalid ones reported in place', async () => {
  const { sqlite, accountId, cleanup } = await setup(100);
  try {
    const alnum = makeCnpj('12ABC345', '01DE');
    const [c] = list(1);
    const plan = planAdd([formatCnpj(c!), alnum.toLowerCase(), c!, '00000000000000', '']);
    assert.deepEqual(plan.valid, [c, alnum]);
    const r = addWatched(sqlite, accountId, plan.valid, NOW);
    assert.ok(r.ok);
    const answer = addAnswer(plan, r);
    assert.deepEqual(
      answer.results.map((x) => [x.cnpj, x.status]),
      [
        [c, 201],
        [alnum, 201],
        [c, 200],
        ['00000000000000', 400],
        ['', 400],
      ],
    );
    assert.equal(answer.added, 2);
  } finally {
    await cleanup();
  }
});
