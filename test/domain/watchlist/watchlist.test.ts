// The watchlist's domain on both backends (app.db and PostgreSQL): adding one or many against the
// plan's limit (all or nothing, how many remain), concurrent processes and nodes never passing the
// limit, removing, paging by CNPJ with opaque cursors, and the CNPJ rules of the POST (formatted or
// bare, invalid reported).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { formatCnpj, makeCnpj } from '../../../src/domain/cnpj.ts';
import { addWatched } from '../../../src/domain/watchlist/add.ts';
import { watchlistUsage } from '../../../src/domain/watchlist/limit.ts';
import { addAnswer, planAdd } from '../../../src/domain/watchlist/many.ts';
import { readWatchlistCursor, watchedPage, watchlistCursor } from '../../../src/domain/watchlist/page.ts';
import { watchedCnpjs } from '../../../src/domain/watchlist/read.ts';
import { removeWatched } from '../../../src/domain/watchlist/remove.ts';
import { encodeCursor } from '../../../src/domain/cursor.ts';
import { openAppStore, type OpenAppStore } from '../../../src/storage/app/store.ts';
import { forBackends, freshDatabaseUrl, tempDataDir } from '../../helpers/app-backends.ts';
import { insertAccount, setWatchlistLimit } from '../webhooks/helpers.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'add-worker.ts');
const NOW = new Date('2026-11-20T15:00:00Z');
const list = (n: number, base = 11_000_000) => Array.from({ length: n }, (_, i) => makeCnpj(String(base + i), '0001'));

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

forBackends('watchlist', ({ backend, open }) => {
  async function setup(limit: number) {
    const app = await open();
    await setWatchlistLimit(app, 'Teste', limit);
    const accountId = await insertAccount(app, 'Acme', 'Teste');
    return { app, accountId };
  }

  test('the seeded plans carry the limits of migration 0007', async () => {
    const app = await open();
    const rows = await app.db.selectFrom('plans').select(['name', 'watchlist_limit']).orderBy('sort_order').execute();
    assert.deepEqual(rows, [
      { name: 'Bronze', watchlist_limit: 100 },
      { name: 'Prata', watchlist_limit: 500 },
      { name: 'Ouro', watchlist_limit: 2000 },
      { name: 'Diamante', watchlist_limit: 10000 },
      { name: 'Black', watchlist_limit: 50000 },
    ]);
  });

  test('add one, add again (kept with its first date), remove, remove again', async () => {
    const { app, accountId } = await setup(5);
    const [c] = list(1);
    let r = await addWatched(app, accountId, [c!], NOW);
    assert.ok(r.ok);
    assert.deepEqual(r.rows.get(c!), { cnpj: c, added_at: NOW.toISOString(), added: true });
    r = await addWatched(app, accountId, [c!], new Date('2026-12-01T00:00:00Z'));
    assert.ok(r.ok);
    assert.deepEqual(r.rows.get(c!), { cnpj: c, added_at: NOW.toISOString(), added: false });
    assert.deepEqual(await watchlistUsage(app, accountId), { used: 1, limit: 5, plan: 'Teste' });
    assert.equal(await watchlistUsage(app, accountId + 1000), null, 'an unknown account');
    assert.equal(await removeWatched(app, accountId, c!), true);
    assert.equal(await removeWatched(app, accountId, c!), false);
    assert.deepEqual(await watchedCnpjs(app, accountId), []);
  });

  test('the limit: a list that does not fit adds nothing and says how many remain; repeats and watched ones cost nothing', async () => {
    const { app, accountId } = await setup(5);
    const l = list(8);
    assert.ok((await addWatched(app, accountId, l.slice(0, 3), NOW)).ok);
    const r = await addWatched(app, accountId, [...l.slice(0, 3), ...l.slice(3, 6)], NOW);
    assert.deepEqual(r, { ok: false, needed: 3, remaining: 2, used: 3, limit: 5, plan: 'Teste' });
    assert.deepEqual(await watchedCnpjs(app, accountId), l.slice(0, 3));
    // Two new ones (one given twice) and three already watched: fits exactly.
    const ok = await addWatched(app, accountId, [l[3]!, l[3]!, l[4]!, ...l.slice(0, 3)], NOW);
    assert.ok(ok.ok);
    assert.equal(ok.used, 5);
    assert.equal((await addWatched(app, accountId, [l[0]!], NOW)).ok, true, 'a watched CNPJ at the limit is fine');
    assert.deepEqual(await addWatched(app, accountId, [l[7]!], NOW), {
      ok: false,
      needed: 1,
      remaining: 0,
      used: 5,
      limit: 5,
      plan: 'Teste',
    });
    // A limit lowered under the usage: nothing removed, remaining 0 (never negative).
    await setWatchlistLimit(app, 'Teste', 2);
    assert.deepEqual(await addWatched(app, accountId, [l[7]!], NOW), {
      ok: false,
      needed: 1,
      remaining: 0,
      used: 5,
      limit: 2,
      plan: 'Teste',
    });
    assert.equal((await watchedCnpjs(app, accountId)).length, 5);
  });

  test('a list larger than one INSERT (1,200 CNPJs) is added whole, in CNPJ order', async () => {
    const { app, accountId } = await setup(2000);
    const l = list(1200);
    const r = await addWatched(app, accountId, l, NOW);
    assert.ok(r.ok);
    assert.equal(r.used, 1200);
    assert.deepEqual(await watchedCnpjs(app, accountId), [...l].sort());
    const again = await addWatched(app, accountId, l, NOW);
    assert.ok(again.ok);
    assert.equal([...again.rows.values()].filter((x) => x.added).length, 0);
  });

  test('a write that fails half-way leaves the list as it was (one transaction)', async () => {
    const { app, accountId } = await setup(100);
    // The table's CHECK refuses a 13-character key: the rows before it are rolled back.
    await assert.rejects(addWatched(app, accountId, [...list(3), '1234567890123'], NOW), /check/i);
    assert.deepEqual(await watchedCnpjs(app, accountId), []);
  });

  test('concurrent processes never pass the limit: one at a time and whole lists', async () => {
    // Each process is a node of its own: on SQLite its own connection to this app.db, on
    // PostgreSQL its own data dir and pool on this database.
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const dir = tempDataDir();
    const app = await openAppStore(dir, url);
    try {
      await setWatchlistLimit(app, 'Teste', 12);
      const accountId = await insertAccount(app, 'Acme', 'Teste');
      const args = (mode: string, base: number, n: number) =>
        [dir, String(accountId), mode, String(base), String(n), ...(url ? [url] : [])] as string[];
      // 3 processes × 10 single adds of distinct CNPJs, then 3 processes each adding a list of 5.
      const singles = [0, 1, 2].map((i) => worker(args('one', 20_000_000 + i * 100, 10)));
      await Promise.all(singles.map((w) => w.ready()));
      fs.writeFileSync(path.join(dir, 'go'), '');
      const counts = await Promise.all(singles.map((w) => w.done));
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        12,
      );
      assert.equal((await watchedCnpjs(app, accountId)).length, 12);

      fs.rmSync(path.join(dir, 'go'));
      await app.db.deleteFrom('watchlist').execute();
      const lists = [0, 1, 2].map((i) => worker(args('list', 30_000_000 + i * 100, 5)));
      await Promise.all(lists.map((w) => w.ready()));
      fs.writeFileSync(path.join(dir, 'go'), '');
      const added = (await Promise.all(lists.map((w) => w.done))).sort();
      assert.deepEqual(added, [0, 5, 5], 'two lists fit whole, the third adds nothing');
      assert.equal((await watchedCnpjs(app, accountId)).length, 10);
    } finally {
      await app.close();
    }
  });

  test('two nodes on one database (SQLite: one store), 40 adds at once: exactly the limit is watched', async () => {
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const dir = tempDataDir();
    const nodes: OpenAppStore[] = [await openAppStore(dir, url)];
    try {
      // The second node: on PostgreSQL another data dir and pool. On SQLite the same store (its
      // one connection takes the transactions in turn): a second connection in this process
      // would wait for the lock on the event loop the first one needs to commit; other
      // processes are the test above.
      if (url) nodes.push(await openAppStore(tempDataDir(), url));
      await setWatchlistLimit(nodes[0]!, 'Teste', 7);
      const accountId = await insertAccount(nodes[0]!, 'Acme', 'Teste');
      const attempts = list(40, 40_000_000).map((c, i) => addWatched(nodes[i % nodes.length]!, accountId, [c], NOW));
      const results = await Promise.all(attempts);
      assert.equal(results.filter((r) => r.ok).length, 7, 'exactly the limit succeeded');
      assert.equal((await watchedCnpjs(nodes[nodes.length - 1]!, accountId)).length, 7);
      for (const r of results.filter((x) => !x.ok))
        assert.deepEqual(r, { ok: false, needed: 1, remaining: 0, used: 7, limit: 7, plan: 'Teste' });
    } finally {
      for (const n of nodes) await n.close();
    }
  });

  test('pages by CNPJ: limit+1 read, no empty last page, cursors bound to the listing', async () => {
    const { app, accountId } = await setup(100);
    const l = list(7).sort();
    await addWatched(app, accountId, l, NOW);
    const p1 = await watchedPage(app, accountId, 3, null);
    assert.deepEqual(
      p1.data.map((d) => d.cnpj),
      l.slice(0, 3),
    );
    const after1 = readWatchlistCursor(p1.next_cursor!);
    assert.equal(after1, l[2]);
    const p2 = await watchedPage(app, accountId, 4, after1);
    assert.deepEqual(
      p2.data.map((d) => d.cnpj),
      l.slice(3),
    );
    assert.equal(p2.next_cursor, null);
    assert.equal(readWatchlistCursor('garbage'), null);
    assert.equal(readWatchlistCursor(encodeCursor('establishments:11000000', l[2]!)), null, "another listing's cursor");
    assert.equal(readWatchlistCursor(encodeCursor('watchlist', 'not-a-cnpj')), null);
    assert.equal(readWatchlistCursor(watchlistCursor(l[0]!)), l[0]);
  });

  test('POST plan: formatted, lowercase and bare are one CNPJ; invalid ones reported in place', async () => {
    const { app, accountId } = await setup(100);
    const alnum = makeCnpj('12ABC345', '01DE');
    const [c] = list(1);
    const plan = planAdd([formatCnpj(c!), alnum.toLowerCase(), c!, '00000000000000', '']);
    assert.deepEqual(plan.valid, [c, alnum]);
    const r = await addWatched(app, accountId, plan.valid, NOW);
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
  });
});
