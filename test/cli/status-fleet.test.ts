// `cnpj-api status --database-url`: the shared database and the nodes whose heartbeats it holds,
// with real servers on one PostgreSQL and the real program reading it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { openAppPostgres } from '../../src/storage/app/postgres.ts';
import { postgresMigrations } from '../../src/storage/app/migrations/postgres/index.ts';
import { freshDatabaseUrl, tempDataDir } from '../helpers/app-backends.ts';
import { runCli } from '../helpers/cli.ts';
import { fixture } from '../server/fixtures.ts';
import { killServe, publish, serve, sleep, spawnServe, writeSnapshot, type TestServer } from '../server/helpers.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function node(month: string, url: string): Promise<{ dir: string; server: TestServer }> {
  const dir = tempDataDir();
  writeSnapshot(dir, `s${month}`, fixture());
  await publish(dir, `s${month}`, month, fixture());
  const server = await serve(dir, { databaseUrl: url, heartbeatMs: 100 });
  servers.push(server);
  return { dir, server };
}

async function status(dir: string, args: string[]) {
  const r = await runCli(['status', '--data-dir', dir, ...args]);
  assert.equal(r.code, 0, r.err);
  return r.out;
}

async function until(what: string, fn: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await fn()) return;
    await sleep(50);
  }
  assert.fail(`timed out waiting for ${what}`);
}

test('status --database-url lists the nodes serving from it, with their months', async () => {
  const url = await freshDatabaseUrl();
  const a = await node('2026-03', url);
  const b = await node('2026-04', url);
  const port = (s: TestServer) => new URL(s.url).port;

  let out = await status(a.dir, ['--database-url', url]);
  // This node's own part first, as without the option.
  assert.match(out, /^data dir: .*\nactive snapshot: s2026-03 \(month 2026-03\)/);
  // The schema version: the last migration, whichever that is by now.
  const latest = Object.keys(postgresMigrations).sort().at(-1)!;
  assert.ok(out.includes(` (reachable, schema ${latest})\n`), out);
  assert.match(out, /fleet database: postgres:\/\/postgres@\/t\d+_\d+\?host=\S+ \(reachable/);
  assert.match(out, /nodes seen in the last 2 minutes: 2 serving\n/);
  assert.match(out, /NODE\s+LISTENS ON\s+MONTH\s+SERVES\s+STAGED\s+VERSION\s+STARTED\s+LAST SEEN\s+STATE/);
  const line = (dir: string) => out.split('\n').find((l) => l.includes(`:${dir} `)) ?? '';
  assert.match(
    line(a.dir),
    new RegExp(`:${port(a.server)}\\s+2026-03\\s+-\\s+not following\\s+\\S+\\s+\\S+ \\S+\\s+\\d+ s ago\\s+-$`),
  );
  assert.match(line(b.dir), new RegExp(`:${port(b.server)}\\s+2026-04\\s`));
  assert.match(out, /the serving nodes do not serve the same month \(2026-03, 2026-04\)/);

  // B switches to the next month: its next beat says so.
  writeSnapshot(b.dir, 's2026-05', fixture());
  await publish(b.dir, 's2026-05', '2026-05', fixture());
  await until('the switch in the heartbeat', async () =>
    /:\d+\s+2026-05\s/.test(await status(a.dir, ['--database-url', url])),
  );

  const json = JSON.parse(await status(a.dir, ['--database-url', url, '--json'])) as {
    fleet: { reachable: boolean; nodes: { dataDir: string; month: string; stoppedAt: string | null }[] };
  };
  assert.equal(json.fleet.reachable, true);
  assert.deepEqual(
    json.fleet.nodes.map((n) => [n.dataDir, n.month, n.stoppedAt]).sort(),
    [
      [a.dir, '2026-03', null],
      [b.dir, '2026-05', null],
    ].sort(),
  );

  // A node stopped cleanly is shown as stopped, not as serving.
  await a.server.close();
  out = await status(b.dir, ['--database-url', url]);
  assert.match(out, /nodes seen in the last 2 minutes: 1 serving, 1 stopped/);
  assert.match(out.split('\n').find((l) => l.includes(`:${a.dir} `)) ?? '', /stopped \d{4}-\d\d-\d\d/);
  assert.doesNotMatch(out, /do not serve the same month/);

  // Without the option, status is what it always was.
  out = await status(b.dir, []);
  assert.doesNotMatch(out, /fleet|nodes seen/);
  assert.match(out, /active snapshot: s2026-05/);
});

test('a heartbeat that fails is logged once and the node keeps serving; status says when the database is unreachable', async () => {
  const url = await freshDatabaseUrl();
  const { dir, server } = await node('2026-03', url);
  const pg = await openAppPostgres(url);
  try {
    await sql`ALTER TABLE fleet_nodes RENAME TO fleet_nodes_away`.execute(pg.db);
    await sleep(600); // several beats
    const failures = server.lines.filter((l) => l.startsWith('fleet heartbeat failed'));
    assert.equal(failures.length, 1, server.lines.join('\n'));
    assert.match(failures[0], /serving goes on; retried every 0.1 s, logged once/);
    assert.equal((await fetch(`${server.url}/api/v1/status`)).status, 200);
    await sql`ALTER TABLE fleet_nodes_away RENAME TO fleet_nodes`.execute(pg.db);
    await until('the recovery line', async () => server.lines.includes('fleet heartbeat: recorded again'));
  } finally {
    await pg.close();
  }

  const out = await status(dir, ['--database-url', 'postgres://nobody@/nothing?host=/nonexistent-dir']);
  assert.match(
    out,
    /fleet database: postgres:\/\/nobody@\/nothing\?host=\/nonexistent-dir \(UNREACHABLE\)\n {2}cannot connect: /,
  );
  assert.match(out, /active snapshot: s2026-03/);
});

test('serve --workers 2 on PostgreSQL: one node, one row', async () => {
  const url = await freshDatabaseUrl();
  const dir = tempDataDir();
  writeSnapshot(dir, 's1', fixture());
  await publish(dir, 's1', '2026-03', fixture());
  const proc = await spawnServe(dir, ['--workers', '2', '--database-url', url]);
  try {
    let out = '';
    await until('the node in status', async () => /1 serving/.test((out = await status(dir, ['--database-url', url]))));
    const rows = out.split('\n').filter((l) => l.includes(`:${dir} `));
    assert.equal(rows.length, 1, out);
    assert.match(rows[0], new RegExp(`:${new URL(proc.url).port}\\s+2026-03\\s`));
  } finally {
    await killServe(proc);
  }
});
