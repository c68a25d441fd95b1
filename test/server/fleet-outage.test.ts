// Fleet mode (--database-url): a real server on loopback with its app state in PostgreSQL. Lookups
// are counted there; while PostgreSQL is down no lookup answers 200 (503 database_unavailable with
// Retry-After, and /readyz 503), and once it is back the same server answers again by itself.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { generateToken } from '../../src/domain/metering/token-format.ts';
import { openAppStore } from '../../src/storage/app/store.ts';
import { addAccount, addToken, monthCalls } from '../domain/metering/helpers/access-backends.ts';
import { startPgCluster } from '../helpers/postgres.ts';
import { fixture, SERPRO_FILIAL } from './fixtures.ts';
import { bearer, get, publish, serve, sleep, tempDataDir, writeSnapshot } from './helpers.ts';

const cluster = await startPgCluster();
after(() => cluster.stop());

async function waitFor<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

test('PostgreSQL stops: 503 database_unavailable and /readyz 503; it starts again: 200 without restarting the server', async () => {
  const url = await cluster.createDatabase('fleet');
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const server = await serve(dataDir, { databaseUrl: url });
  const admin = await openAppStore(tempDataDir(), url);
  try {
    const acc = await addAccount(admin, 'Acme', 'Ouro');
    const t = await addToken(admin, acc);
    const fresh = await addToken(admin, acc); // never used before the outage: not in memory
    const lookup = (token: string) =>
      get(`${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(token));
    const readyz = () => get(`${server.url}/readyz`).then((r) => r.status);

    assert.equal((await lookup(t.token)).status, 200);
    assert.equal(await waitFor('readyz', readyz, (s) => s === 200), 200);
    let answered = 1;

    await cluster.stopServer();
    for (const token of [t.token, fresh.token]) {
      const r = await lookup(token);
      assert.equal(r.status, 503, `token ${token === t.token ? 'in memory' : 'not in memory'}`);
      assert.equal(r.body.error, 'database_unavailable');
      assert.match(r.body.message, /temporariamente indisponível/);
      assert.equal(r.headers.get('retry-after'), '2');
    }
    // Many calls at once: none hangs, none answers 200.
    const burst = await Promise.all(Array.from({ length: 20 }, () => lookup(t.token)));
    assert.deepEqual([...new Set(burst.map((r) => r.status))], [503]);
    assert.equal(await waitFor('readyz', readyz, (s) => s === 503), 503);
    assert.ok(server.lines.some((l) => /database_unavailable|shared database is unavailable/.test(l)));

    await cluster.startServer();
    const back = await waitFor(
      'lookup',
      () => lookup(t.token),
      (r) => r.status === 200,
    );
    answered++;
    assert.ok(back.headers.get('x-ratelimit-remaining'));
    assert.equal((await lookup(fresh.token)).status, 200);
    answered++;
    assert.equal(await waitFor('readyz', readyz, (s) => s === 200), 200);
    // Every answered lookup is counted; the 503s counted nothing (PostgreSQL was gone).
    assert.equal(await monthCalls(admin, acc), answered);
  } finally {
    await admin.close();
    await server.close();
  }
});

test('a node started while PostgreSQL is down: /healthz 200, lookups and /readyz 503; once it is up it migrates and serves, without a restart', async () => {
  const url = await cluster.createDatabase('fleet_late'); // never migrated: the node does it
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  await cluster.stopServer();
  const server = await serve(dataDir, { databaseUrl: url });
  let admin: Awaited<ReturnType<typeof openAppStore>> | undefined;
  try {
    const lookup = (token: string) =>
      get(`${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(token));
    assert.equal((await get(`${server.url}/healthz`)).status, 200);
    const down = await lookup(generateToken()); // well formed: only the database could refuse it
    assert.equal(down.status, 503);
    assert.equal(down.body.error, 'database_unavailable');
    const readyz = await get(`${server.url}/readyz`);
    assert.equal(readyz.status, 503);
    assert.equal(readyz.body.reason, 'shared_db');
    assert.ok(
      server.lines.some((l) => /shared database unreachable at start/.test(l)),
      server.lines.join('\n'),
    );

    await cluster.startServer();
    await waitFor(
      'readyz',
      () => get(`${server.url}/readyz`).then((r) => r.status),
      (s) => s === 200,
    );
    assert.ok(server.lines.some((l) => /app schema migrated, serving/.test(l)));
    admin = await openAppStore(tempDataDir(), url);
    const t = await addToken(admin, await addAccount(admin, 'Acme', 'Ouro'));
    assert.equal((await lookup(t.token)).status, 200);
  } finally {
    await admin?.close();
    await server.close();
  }
});
