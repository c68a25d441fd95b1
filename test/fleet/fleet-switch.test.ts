// A fleet follows one release (issue "fleet switch"): three real `serve --follow` nodes on
// loopback with empty data dirs, one PostgreSQL, release folders as sources, and one importing
// machine publishing with --database-url. The nodes become ready from the fleet's release; a new
// month is served by all three within 2 s of each other while 8 clients per node look CNPJs up
// (no answer other than 200); a node whose source lacks the new release holds the others only
// until --switch-after, then answers /readyz 503 behind_fleet until its source has it; a fourth
// node joins by itself and answers as the others do; `release activate` moves every node back.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDump } from '../../src/demo/generate.ts';
import { runImport } from '../../importer/run.ts';
import { openSqlite } from '../../src/storage/sqlite.ts';
import { runCli } from '../helpers/cli.ts';
import { startPgCluster, type PgCluster } from '../helpers/postgres.ts';
import { killServe, sleep, spawnServe, waitFor as waitUntil, type ServeProcess } from '../server/helpers.ts';

interface Answer {
  status: number;
  month: string | null;
  release: string | null;
  body: string;
}

async function get(base: string, p: string, token?: string): Promise<Answer> {
  try {
    const res = await fetch(`${base}${p}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(20_000),
    });
    return {
      status: res.status,
      month: res.headers.get('x-registry-month'),
      release: res.headers.get('x-registry-release'),
      body: await res.text(),
    };
  } catch (err) {
    return { status: 0, month: null, release: null, body: String(err) };
  }
}

async function cli(args: string[]): Promise<{ out: string; err: string }> {
  const r = await runCli(args);
  assert.equal(r.code, 0, `cnpj-api ${args.join(' ')} failed: ${r.err}`);
  return { out: r.out.trim(), err: r.err };
}

describe('fleet switch: nodes follow the fleet release and switch together', () => {
  let tmp: string;
  let pgc: PgCluster;
  let url: string;
  let token: string;
  const nodes = new Map<string, { proc: ServeProcess; dir: string; source: string }>();
  const dir = (name: string) => path.join(tmp, name);
  const releases: string[] = [];

  /** Imports a month on the importing machine (A). */
  const importMonth = (m: string) => runImport({ dataDir: dir('A'), inputs: [dir(m)], log: () => {} });

  /** Publishes A's active month to `to`; with the fleet's database when `fleet` is set. */
  async function publishTo(to: string, fleet: { switchAfter?: string } | null): Promise<string> {
    const args = ['release', 'publish', '--to', dir(to), '--key', dir('keys/release.key'), '--data-dir', dir('A')];
    if (fleet) args.push('--database-url', url, ...(fleet.switchAfter ? ['--switch-after', fleet.switchAfter] : []));
    return (await cli(args)).out;
  }

  async function startNode(name: string, source: string, extra: string[] = []): Promise<ServeProcess> {
    const d = dir(`node-${name}`);
    const proc = await spawnServe(d, [
      ...extra,
      '--database-url',
      url,
      '--follow',
      dir(source),
      '--trust',
      dir('keys/release.pub'),
      '--follow-interval',
      '1s',
    ]);
    nodes.set(name, { proc, dir: d, source });
    return proc;
  }

  const waitFor = <T>(what: string, probe: () => Promise<T | undefined>) =>
    waitUntil(what, probe, {
      context: () => [...nodes].map(([n, x]) => `--- node ${n}\n${x.proc.stderr().slice(-3000)}`).join('\n'),
    });

  /** `status --database-url` from node n1's machine; its fleet part is printed (the closing note quotes it). */
  async function fleetStatus(step: string): Promise<string> {
    const s = await cli(['status', '--data-dir', nodes.get('n1')!.dir, '--database-url', url]);
    const fleetPart = s.out.slice(s.out.indexOf('fleet database:')).replaceAll(tmp, '…');
    console.log(`status, ${step}:\n${fleetPart}`);
    return s.out;
  }

  const ready = (name: string) => get(nodes.get(name)!.proc.url, '/readyz');
  const monthOf = async (name: string) => (await get(nodes.get(name)!.proc.url, '/api/v1/status', token)).month;

  /** Some CNPJs of the importing machine's active snapshot. */
  function cnpjs(n: number): string[] {
    const registry = path.join(dir('A'), 'registry');
    const snap = fs
      .readdirSync(registry)
      .filter((d) => /^\d{4}-\d{2}_/.test(d))
      .sort()
      .pop()!;
    const db = openSqlite(path.join(registry, snap, 'establishments.db'), { readonly: true });
    try {
      return db.prepare('SELECT cnpj FROM establishments ORDER BY cnpj LIMIT ?').pluck().all(n) as string[];
    } finally {
      db.close();
    }
  }

  /**
   * 8 clients per node looking CNPJs up until `until` resolves: every answer's status, and the
   * time each node first answered with `month`.
   */
  async function underLoad(names: string[], month: string, until: () => Promise<void>) {
    const list = cnpjs(200);
    const firstAt = new Map<string, number>();
    const bad: string[] = [];
    let stop = false;
    let answers = 0;
    const clients = names.flatMap((name) =>
      Array.from({ length: 8 }, async (_, c) => {
        for (let i = c; !stop; i += 8) {
          const r = await get(
            nodes.get(name)!.proc.url,
            `/api/v1/brazilian_companies/${list[i % list.length]}/company`,
            token,
          );
          const at = performance.now();
          answers++;
          if (r.status !== 200) bad.push(`${name}: ${r.status} ${r.body.slice(0, 200)}`);
          if (r.month === month && !firstAt.has(name)) firstAt.set(name, at);
        }
      }),
    );
    try {
      await until();
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    return { firstAt, bad, answers };
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-fleet-switch-'));
    pgc = await startPgCluster();
    url = await pgc.createDatabase('fleet');
    await generateDump({ companies: 1500, out: dir('m0'), seed: 11, month: '2026-09' });
    await generateDump({ companies: 0, out: dir('m1'), evolveFrom: dir('m0') });
    await generateDump({ companies: 0, out: dir('m2'), evolveFrom: dir('m1') });
    await cli(['release', 'keygen', '--out', dir('keys')]);
    await importMonth('m0');
    // The lagging node's source gets each release without the fleet; the main source with it.
    await publishTo('pub-lag', null);
    releases.push(await publishTo('pub', {}));
    // Accounts and tokens live in the fleet's database.
    const at = ['--data-dir', dir('A'), '--database-url', url];
    await cli(['plans', 'set', 'Frota', '--quota', '10000000', '--api', 'yes', ...at]);
    await cli(['accounts', 'create', '--name', 'frota', '--plan', 'Frota', ...at]);
    token = JSON.parse((await cli(['tokens', 'create', '--account', 'frota', '--name', 't', '--json', ...at])).out)
      .token as string;
  });

  after(async () => {
    for (const n of nodes.values()) await killServe(n.proc);
    await pgc?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('three empty nodes become ready from the fleet release', async () => {
    await Promise.all([
      startNode('n1', 'pub', ['--metrics-port', '0']),
      startNode('n2', 'pub'),
      startNode('n3', 'pub-lag'),
    ]);
    // Until it has pulled, a node says why it is out of rotation.
    const early = await ready('n1');
    if (early.status !== 200) {
      assert.equal(early.status, 503);
      assert.equal(JSON.parse(early.body).reason, 'no_snapshot');
    }
    for (const n of ['n1', 'n2', 'n3']) {
      await waitFor(`${n} ready`, async () => ((await ready(n)).status === 200 ? true : undefined));
      assert.equal(await monthOf(n), '2026-09');
    }
    // Each node's next heartbeat (every 10 s) reports what it serves.
    const status = await waitFor('status: 3 nodes in step', async () => {
      const s = await cli(['status', '--data-dir', nodes.get('n1')!.dir, '--database-url', url]);
      return (s.out.match(/in step/g) ?? []).length === 3 ? s : undefined;
    });
    await fleetStatus('three nodes ready');
    // The metrics name the release served and the one staged (the same, once switched).
    const metricsUrl = /metrics on (http:\/\/\S+)/.exec(nodes.get('n1')!.proc.stderr())![1];
    const metrics = await (await fetch(metricsUrl)).text();
    assert.match(metrics, new RegExp(`^cnpj_api_release_served_info\\{release="${releases[0]}"\\} 1$`, 'm'));
    assert.match(metrics, new RegExp(`^cnpj_api_release_staged_info\\{release="${releases[0]}"\\} 1$`, 'm'));
    assert.match(status.out, new RegExp(`fleet release: ${releases[0]} \\(month 2026-09\\)`));
    assert.match(status.out, /NODE\s+LISTENS ON\s+MONTH\s+SERVES\s+STAGED/);
  });

  test('a new month is served by all three within 2 s of each other, under load, with no non-200', async () => {
    await importMonth('m1');
    await publishTo('pub-lag', null);
    const { firstAt, bad, answers } = await underLoad(['n1', 'n2', 'n3'], '2026-10', async () => {
      releases.push(await publishTo('pub', {}));
      await waitFor('every node on 2026-10', async () =>
        (await Promise.all(['n1', 'n2', 'n3'].map(monthOf))).every((m) => m === '2026-10') ? true : undefined,
      );
      await sleep(300);
    });
    assert.deepEqual(bad.slice(0, 5), [], `${bad.length} non-200 answers of ${answers}`);
    assert.equal(firstAt.size, 3);
    const times = [...firstAt.values()];
    const skew = Math.max(...times) - Math.min(...times);
    console.log(`switch skew over 3 nodes: ${skew.toFixed(0)} ms (${answers} lookups during the switch)`);
    assert.ok(skew < 2000, `skew ${skew} ms`);
  });

  test('a node whose source lacks the release holds the fleet only until --switch-after, then is behind', async () => {
    await importMonth('m2');
    // Not published to pub-lag: n3 cannot stage it.
    const t0 = Date.now();
    releases.push(await publishTo('pub', { switchAfter: '4s' }));
    await waitFor('n1 and n2 on 2026-11', async () =>
      (await monthOf('n1')) === '2026-11' && (await monthOf('n2')) === '2026-11' ? true : undefined,
    );
    assert.ok(Date.now() - t0 >= 3500, 'the ready nodes waited for the lagging one until --switch-after');
    assert.equal(await monthOf('n3'), '2026-10');
    const behind = await waitFor('n3 behind_fleet', async () => {
      const r = await ready('n3');
      return r.status === 503 ? r : undefined;
    });
    assert.equal(JSON.parse(behind.body).reason, 'behind_fleet');
    assert.equal(JSON.parse(behind.body).error, 'not_ready');
    // It still answers what it has, for whoever still asks it.
    assert.equal((await get(nodes.get('n3')!.proc.url, '/api/v1/status', token)).status, 200);
    assert.match(await fleetStatus('n3 behind'), /BEHIND FLEET/);
    // Its source gets the release: it catches up by itself.
    await publishTo('pub-lag', null);
    await waitFor('n3 ready on 2026-11', async () =>
      (await ready('n3')).status === 200 && (await monthOf('n3')) === '2026-11' ? true : undefined,
    );
  });

  test('a fourth node joins with an empty data dir and answers as the others do', async () => {
    const t0 = Date.now();
    await startNode('n4', 'pub');
    await waitFor('n4 ready', async () => ((await ready('n4')).status === 200 ? true : undefined));
    console.log(`an empty node serving the fleet's month: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const n1 = nodes.get('n1')!.proc.url;
    const n4 = nodes.get('n4')!.proc.url;
    const same = async (p: string) => {
      const [a, b] = await Promise.all([get(n1, p, token), get(n4, p, token)]);
      assert.equal(b.status, a.status, p);
      assert.equal(b.body, a.body, p);
      assert.equal(b.release, releases[2], p);
      assert.equal(a.release, releases[2], p);
      return a;
    };
    for (const c of cnpjs(20)) assert.equal((await same(`/api/v1/brazilian_companies/${c}/company`)).status, 200);
    assert.equal((await same('/api/v1/brazilian_companies?uf=SP&limit=50')).status, 200);
    const feed = await same('/api/v1/changes?limit=50');
    assert.equal(feed.status, 200, feed.body);
    const item = (JSON.parse(feed.body) as { data: { cnpj: string }[] }).data[0];
    assert.ok(item, 'the feed has changes');
    assert.equal((await same(`/api/v1/brazilian_companies/${item.cnpj}/history`)).status, 200);
  });

  test('release activate of the previous release moves every node back together', async () => {
    const names = ['n1', 'n2', 'n3', 'n4'];
    const { firstAt, bad } = await underLoad(names, '2026-10', async () => {
      const r = await cli(['release', 'activate', releases[1], '--database-url', url]);
      assert.match(r.err, /now targets it/);
      await waitFor('every node back on 2026-10', async () =>
        (await Promise.all(names.map(monthOf))).every((m) => m === '2026-10') ? true : undefined,
      );
      await sleep(300);
    });
    assert.deepEqual(bad.slice(0, 5), []);
    const times = [...firstAt.values()];
    const skew = Math.max(...times) - Math.min(...times);
    console.log(`rollback skew over 4 nodes: ${skew.toFixed(0)} ms`);
    assert.ok(skew < 2000, `skew ${skew} ms`);
    for (const n of names) assert.equal((await ready(n)).status, 200);
    const unknown = await runCli(['release', 'activate', '2026-01-0000000000000000', '--database-url', url]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /was never published to this fleet/);
  });
});
