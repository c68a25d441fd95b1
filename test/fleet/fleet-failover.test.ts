// A fleet node through a PostgreSQL failover, as operators run one (issue "fleet failover"): a
// primary with a synchronous standby on two loopback ports, a node whose URL names both with
// target_session_attrs=read-write, under load. `kill -9` of the primary's postmaster, `pg_ctl
// promote` of the standby: the node finds the new primary by itself, answers 200 again without a
// restart, and every call it answered 200 is counted there (the standby was synchronous).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { openAppStore, type OpenAppStore } from '../../src/storage/app/store.ts';
import { addAccount, addToken, monthCalls } from '../domain/metering/helpers/access-backends.ts';
import { freePorts } from '../helpers/ports.ts';
import { startPgCluster, startStandby, type PgCluster } from '../helpers/postgres.ts';
import { fixture, SERPRO_FILIAL } from '../server/fixtures.ts';
import {
  killServe,
  publish,
  sleep,
  spawnServe,
  tempDataDir,
  waitFor,
  writeSnapshot,
  type ServeProcess,
} from '../server/helpers.ts';

let primary: PgCluster;
let standby: PgCluster;
let node: ServeProcess | undefined;
let admin: OpenAppStore | undefined;

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

before(async () => {
  const [p1, p2] = await freePorts(2);
  primary = await startPgCluster({ port: p1 });
  await primary.createDatabase('fleet');
  standby = await startStandby(primary, p2);
  // Synchronous from here on: a commit on the primary returns once the standby has it.
  await sql(primary.tcpUrl('postgres'), "ALTER SYSTEM SET synchronous_standby_names = '*'");
  await sql(primary.tcpUrl('postgres'), 'SELECT pg_reload_conf()');
  await waitFor('a synchronous standby', async () => {
    const rows = await sql<{ sync_state: string }>(
      primary.tcpUrl('postgres'),
      'SELECT sync_state FROM pg_stat_replication',
    );
    return rows[0]?.sync_state === 'sync' || undefined;
  });
});

after(async () => {
  if (node) await killServe(node);
  await admin?.close();
  await standby?.stop();
  await primary?.stop();
});

test('kill -9 of the primary, promote of the standby: the node answers 200 again by itself and loses no answered call', async () => {
  const hosts = [primary, standby].map((c) => new URL(c.tcpUrl('fleet')).host).join(',');
  const url = `postgres://postgres@${hosts}/fleet?target_session_attrs=read-write`;

  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  node = await spawnServe(dataDir, ['--database-url', url]);
  const pid = node.child.pid;
  // The operator's side uses the same URL (and so also follows the failover).
  admin = await openAppStore(tempDataDir(), url);
  const account = await addAccount(admin, 'Acme', 'Ouro');
  const { token } = await addToken(admin, account);

  // Four clients, one lookup at a time each, until told to stop; every answer's time and status.
  const answers: { at: number; status: number }[] = [];
  let stop = false;
  const client = async () => {
    while (!stop) {
      const r = await fetch(`${node!.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, {
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => null);
      await r?.arrayBuffer();
      answers.push({ at: Date.now(), status: r?.status ?? 0 });
      if (r?.status !== 200) await sleep(50); // as a client backing off would
    }
  };
  const clients = Array.from({ length: 4 }, client);
  const ok = () => answers.filter((a) => a.status === 200).length;

  await waitFor('load', async () => ok() >= 50 || undefined);
  const killedAt = Date.now();
  primary.kill();
  // What a failover manager does once it has decided the primary is gone.
  await sleep(1000);
  await standby.promote();
  const promotedAt = Date.now();
  await waitFor(
    '200 after the failover',
    async () => answers.some((a) => a.at > promotedAt && a.status === 200) || undefined,
    { ms: 20_000, context: () => node!.stderr() },
  );
  await sleep(500);
  stop = true;
  await Promise.all(clients);

  const lastBefore = Math.max(...answers.filter((a) => a.status === 200 && a.at <= killedAt + 1000).map((a) => a.at));
  const firstAfter = Math.min(...answers.filter((a) => a.status === 200 && a.at > lastBefore).map((a) => a.at));
  const statuses = [...new Set(answers.map((a) => a.status))].sort();
  const counted = await monthCalls(admin, account);
  console.log(
    `failover: last 200 at +${lastBefore - killedAt} ms, promoted at +${promotedAt - killedAt} ms, first 200 after at ` +
      `+${firstAfter - killedAt} ms (${firstAfter - promotedAt} ms after the promotion); ${answers.length} answers, ` +
      `statuses ${statuses.join('/')}; ${ok()} answered 200, ${counted} counted on the new primary`,
  );
  assert.ok(firstAfter - killedAt < 20_000, 'answers 200 again within 20 s');
  assert.deepEqual(
    statuses.filter((s) => s !== 200 && s !== 503),
    [],
    'nothing but 200 and 503 database_unavailable',
  );
  assert.equal(node.child.pid, pid);
  assert.equal(node.child.exitCode, null, 'the node was not restarted');

  // Every call answered 200 is counted on the new primary; at most the ones in flight at the crash more.
  assert.ok(counted >= ok(), `counted ${counted} < answered ${ok()}: an answered call was lost`);
  assert.ok(counted <= ok() + 4, `counted ${counted}, answered ${ok()}`);
});
