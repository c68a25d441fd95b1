import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { findPgBin, startPgCluster, type PgCluster } from './postgres.ts';

const clusters: PgCluster[] = [];
after(async () => {
  for (const c of clusters) await c.stop();
});

test('no PostgreSQL installed: a clear error naming the package, never a skip', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-pg-'));
  try {
    assert.throws(() => findPgBin(empty), /PostgreSQL is not installed.*"postgresql" package/);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

test('a cluster starts on a socket in its own dir, serves two separate databases, and stop removes the dir', async (t) => {
  const cluster = await startPgCluster();
  clusters.push(cluster);
  t.diagnostic(`PostgreSQL ${cluster.version}: initdb + start in ${Math.round(cluster.startupMs)} ms`);
  assert.ok(fs.statSync(cluster.dir).isDirectory());
  if (process.getuid?.() === 0)
    assert.notEqual(fs.statSync(cluster.dir).uid, 0, 'initdb refuses root: the dir is postgres-owned');
  assert.ok(fs.existsSync(path.join(cluster.dir, '.s.PGSQL.5432')), 'a Unix socket, no TCP port');

  const urls = [await cluster.createDatabase('first'), await cluster.createDatabase('second')];
  const [a, b] = urls.map((url) => new pg.Client({ connectionString: url }));
  await a.connect();
  await b.connect();
  try {
    await a.query('CREATE TABLE only_here (x int)');
    const seen = async (c: pg.Client) =>
      (await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'only_here'")).rows[0].n;
    assert.equal(await seen(a), '1');
    assert.equal(await seen(b), '0');
    assert.equal((await a.query<{ db: string }>('SELECT current_database() AS db')).rows[0].db, 'first');
  } finally {
    await a.end();
    await b.end();
  }
  await assert.rejects(cluster.createDatabase('first'), /already exists/);
  await assert.rejects(cluster.createDatabase('Bad-Name'), /not a plain database name/);

  await cluster.stop();
  assert.ok(!fs.existsSync(cluster.dir), 'the dir is gone');
  await cluster.stop(); // twice is fine (the file's after hook calls it again)
  const late = new pg.Client({ connectionString: cluster.url('first') });
  await assert.rejects(late.connect(), 'the server is gone too');
});
