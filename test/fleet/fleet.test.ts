// Fleet mode end to end: two real `serve` processes on loopback, each with its own data dir and
// snapshot, sharing one real PostgreSQL (a throwaway cluster) for app state. What an operator
// does: plans, accounts and tokens through the CLI with --database-url, then calls to both nodes.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createWebhook } from '../../src/domain/webhooks/webhooks.ts';
import { queueTestEvent } from '../../src/domain/webhooks/queue.ts';
import { openAppStore } from '../../src/storage/app/store.ts';
import { runCli } from '../helpers/cli.ts';
import { startPgCluster, type PgCluster } from '../helpers/postgres.ts';
import { SERPRO_FILIAL, fixture } from '../server/fixtures.ts';
import {
  killServe,
  publish,
  sleep,
  spawnServe,
  tempDataDir,
  writeSnapshot,
  type ServeProcess,
} from '../server/helpers.ts';

const LOOKUP = `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;

/** A GET on a connection of its own (a killed node's keep-alive sockets are dead), never rejecting. */
function call(
  base: string,
  path: string,
  token?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve) => {
    const req = http.get(
      `${base}${path}`,
      { agent: false, headers: token ? { Authorization: `Bearer ${token}` } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.setTimeout(20_000, () => req.destroy());
  });
}

async function cli(args: string[], input = ''): Promise<string> {
  const r = await runCli(args, input);
  assert.equal(r.code, 0, `cnpj-api ${args.join(' ')} failed: ${r.err}`);
  return r.out.trim();
}

describe('fleet: two nodes, one PostgreSQL', () => {
  let cluster: PgCluster;
  let url: string;
  let db: pg.Pool;
  const nodes: ServeProcess[] = [];
  const dirs: string[] = [];

  /** A node: its own data dir with the month published, `serve --database-url`. */
  async function startNode(dir?: string): Promise<ServeProcess> {
    // Webhooks may reach this test's receiver on loopback over http.
    const flags = ['--webhooks-allow-http', '--webhooks-allow-private'];
    const node = await spawnServe(dir ?? newDataDir(), ['--database-url', url, ...flags]);
    nodes.push(node);
    return node;
  }

  function newDataDir(): string {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir;
  }

  /** An account on a plan of its own with `quota` calls a month, and one token (the real CLI). */
  async function account(name: string, quota: number): Promise<{ token: string; id: number }> {
    // Run on node A's machine: its data dir (the CLI opens the node's app.db beside the database).
    const at = ['--data-dir', dirs[0], '--database-url', url];
    await cli(['plans', 'set', `Plano ${name}`, '--quota', String(quota), '--api', 'yes', ...at]);
    await cli(['accounts', 'create', '--name', name, '--plan', `Plano ${name}`, ...at]);
    const created = JSON.parse(await cli(['tokens', 'create', '--account', name, '--name', 'prod', '--json', ...at]));
    return { token: created.token, id: created.id };
  }

  async function monthlyCalls(name: string): Promise<number> {
    const r = await db.query<{ calls: number }>(
      'SELECT coalesce(sum(u.calls), 0)::int AS calls FROM usage_monthly u JOIN accounts a ON a.id = u.account_id WHERE a.name = $1',
      [name],
    );
    return r.rows[0].calls;
  }

  before(async () => {
    cluster = await startPgCluster();
    url = await cluster.createDatabase('fleet');
    db = new pg.Pool({ connectionString: url });
    db.on('error', () => {}); // an idle connection cut by the outage test's stop
    const data = fixture();
    for (let i = 0; i < 2; i++) {
      const dir = newDataDir();
      writeSnapshot(dir, 's', data);
      await publish(dir, 's', '2026-04', data);
    }
  });

  after(async () => {
    for (const n of nodes) await killServe(n);
    await db?.end();
    await cluster?.stop();
  });

  test('100 simultaneous calls spread over both nodes against a quota of 30: exactly 30 answered', async () => {
    const [a, b] = [await startNode(dirs[0]), await startNode(dirs[1])];
    const { token } = await account('Exata', 30);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(i % 2 ? a.url : b.url, LOOKUP, token)),
    );
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok.length, 30, `statuses: ${results.map((r) => r.status).join(',')}`);
    assert.equal(results.filter((r) => r.status === 429).length, 70);
    // Both nodes took part (odd calls went to A, even to B); which of them counted the 30 is a race.
    for (const side of [0, 1]) {
      const answered = results.filter((r, i) => i % 2 === side && (r.status === 200 || r.status === 429)).length;
      assert.equal(answered, 50, `node ${side ? 'A' : 'B'} answered each of its 50 calls`);
    }
    assert.equal(await monthlyCalls('Exata'), 30);
    // The last remaining count is what both nodes say.
    const after = [await call(a.url, LOOKUP, token), await call(b.url, LOOKUP, token)];
    for (const r of after) {
      assert.equal(r.status, 429);
      assert.equal(r.headers['x-ratelimit-remaining'], '0');
    }
  });

  test('a token deactivated through one node is refused by the other on its next call', async () => {
    const [a, b] = nodes;
    const { token, id } = await account('Desligada', 1000);
    assert.equal((await call(b.url, LOOKUP, token)).status, 200, 'node B knows the token (cached)');
    assert.equal((await call(a.url, LOOKUP, token)).status, 200);
    // The operator on node A's machine deactivates it.
    await cli(['tokens', 'deactivate', String(id), '--data-dir', dirs[0], '--database-url', url]);
    const next = await call(b.url, LOOKUP, token);
    assert.equal(next.status, 401, next.body);
    assert.match(next.body, /token_deactivated/);
    assert.equal((await call(a.url, LOOKUP, token)).status, 401);
  });

  test('kill -9 of one node under load: the other keeps answering, no answered call missing from the count', async () => {
    const [a, b] = nodes;
    const { token } = await account('Carga', 100_000);
    let stop = false;
    const answered = { a: 0, b: 0 };
    const failedOnB: number[] = [];
    const load = (node: ServeProcess, key: 'a' | 'b') =>
      (async () => {
        while (!stop) {
          const r = await call(node.url, LOOKUP, token);
          if (r.status === 200) answered[key]++;
          else if (key === 'b') failedOnB.push(r.status);
        }
      })();
    const workers = [
      ...Array.from({ length: 8 }, () => load(a, 'a')),
      ...Array.from({ length: 8 }, () => load(b, 'b')),
    ];
    await sleep(1500);
    const beforeKill = answered.a;
    process.kill(-a.child.pid!, 'SIGKILL');
    await a.exited;
    const bAtKill = answered.b;
    await sleep(1500);
    stop = true;
    await Promise.all(workers);
    assert.ok(beforeKill > 0, 'node A answered before it was killed');
    assert.ok(answered.b > bAtKill, `node B kept answering after the kill (${bAtKill} → ${answered.b})`);
    assert.deepEqual(failedOnB, [], 'node B answered every call');
    const counted = await monthlyCalls('Carga');
    const total = answered.a + answered.b;
    // Every answered call was counted; at most the calls in flight at the kill were counted unanswered.
    assert.ok(counted >= total, `counted ${counted} < answered ${total}`);
    assert.ok(counted - total <= 8, `counted ${counted}, answered ${total}`);
    nodes.splice(nodes.indexOf(a), 1);
  });
  test('PostgreSQL stopped: no 200 and /readyz 503 on both nodes; started again: answers resume without a restart', async () => {
    const b = nodes[nodes.length - 1];
    const a = await startNode(dirs[0]); // the node killed above, back
    const { token } = await account('Queda', 1000);
    for (const n of [a, b]) assert.equal((await call(n.url, LOOKUP, token)).status, 200);
    await cluster.stopServer();
    try {
      const during = await Promise.all([a, b].flatMap((n) => [call(n.url, LOOKUP, token), call(n.url, LOOKUP, token)]));
      for (const r of during) {
        assert.equal(r.status, 503, r.body);
        assert.match(r.body, /database_unavailable/);
        assert.ok(Number(r.headers['retry-after']) > 0, 'Retry-After');
      }
      for (const n of [a, b]) assert.equal((await call(n.url, '/readyz')).status, 503);
    } finally {
      await cluster.startServer();
    }
    // Same processes: each answers again by itself within a few seconds.
    const until200 = async (url: string, path: string, token?: string) => {
      const deadline = Date.now() + 20_000;
      let r = await call(url, path, token);
      while (r.status !== 200 && Date.now() < deadline) {
        await sleep(200);
        r = await call(url, path, token);
      }
      assert.equal(r.status, 200, `${path}: ${r.body}`);
    };
    for (const n of [a, b]) {
      await until200(n.url, LOOKUP, token);
      await until200(n.url, '/readyz'); // its answer is kept for a second
    }
    // Counted: the two calls before, the calls after; none of the refused ones.
    assert.equal(await monthlyCalls('Queda'), 4);
  });

  test('a webhook delivery: sent once while both nodes run; sent by the other node when its node is killed mid-attempt', async () => {
    assert.equal(nodes.length, 2, 'both nodes up');
    const { id: tokenId } = await account('Ganchos', 1000);
    // The receiver: each attempt's delivery id; `hold` leaves an attempt unanswered (the sender hangs).
    const attempts: string[] = [];
    let hold = false;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        attempts.push(String(req.headers['x-cnpj-api-delivery']));
        if (!hold) res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const store = await openAppStore(newDataDir(), url);
    try {
      const accountId = (
        await db.query<{ account_id: number }>('SELECT account_id FROM api_tokens WHERE id = $1', [tokenId])
      ).rows[0].account_id;
      const policy = { allowHttp: true, allowPrivate: true };
      const { webhook } = await createWebhook(store, { accountId, url: hookUrl, createdBy: 'cli' }, policy);
      const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms: number) => {
        const deadline = Date.now() + ms;
        while (!(await ok())) {
          assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
          await sleep(100);
        }
      };
      const status = async (id: string) =>
        (
          await db.query<{ status: string; claimed_by: string | null }>(
            'SELECT status, claimed_by FROM webhook_deliveries WHERE id = $1',
            [id],
          )
        ).rows[0];

      // Once: both nodes' senders poll the same queue; one claims it, the receiver sees it once.
      const first = await queueTestEvent(store, accountId, webhook.id, new Date());
      await waitFor('the first delivery', () => attempts.includes(first), 15_000);
      await waitFor('delivered', async () => (await status(first)).status === 'delivered', 5_000);
      await sleep(5_000); // both nodes polled again meanwhile (every 2 s)
      assert.deepEqual(attempts, [first], 'one attempt, from one node');

      // Killed mid-attempt: the node holding the claim dies while the receiver keeps it waiting.
      hold = true;
      const second = await queueTestEvent(store, accountId, webhook.id, new Date());
      await waitFor('the attempt', () => attempts.includes(second), 15_000);
      const claimant = (await status(second)).claimed_by!;
      const victim = nodes.find((n) => claimant.split(':')[1] === String(n.child.pid));
      assert.ok(victim, `the claim (${claimant}) belongs to one of the nodes`);
      hold = false;
      process.kill(-victim.child.pid!, 'SIGKILL');
      await victim.exited;
      nodes.splice(nodes.indexOf(victim), 1);
      // The other node takes the delivery over when the dead node's lease (45 s) ends.
      await waitFor('the other node to send it', () => attempts.filter((a) => a === second).length === 2, 70_000);
      await waitFor('delivered', async () => (await status(second)).status === 'delivered', 5_000);
      const done = await status(second);
      assert.notEqual(done.claimed_by?.split(':')[1], String(victim.child.pid));
    } finally {
      await store.close();
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
