import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import {
  bearer,
  get,
  makeAccount,
  publish,
  serve,
  sleep,
  tempDataDir,
  withAppDb,
  writeSnapshot,
  type TestServer,
} from './helpers.ts';

describe('snapshot swap and quota under concurrency', () => {
  const servers: TestServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test('publishing a new snapshot under load: zero failed requests, new data without restart', async () => {
    const dataDir = tempDataDir();
    const v1 = fixture();
    writeSnapshot(dataDir, 'v1', v1);
    await publish(dataDir, 'v1', '2026-03', v1);
    const a = await makeAccount(dataDir, 'Carga', { plan: 'Black' });
    const server = await serve(dataDir, { pollMs: 10 });
    servers.push(server);
    const url = `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;

    const v2 = fixture();
    v2.establishments[0] = { ...v2.establishments[0], nome_fantasia: 'REGIONAL BRASILIA-DF NOVO' };
    writeSnapshot(dataDir, 'v2', v2);

    const seen: { status: number; name: string; t: number }[] = [];
    let stop = false;
    let publishedAt = Infinity;
    const worker = async () => {
      while (!stop) {
        const r = await get(url, bearer(a.token));
        seen.push({
          status: r.status,
          name: r.body?.company?.nome_fantasia ?? JSON.stringify(r.body),
          t: performance.now(),
        });
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    // Enough answers on each side of the publish, however busy the machine (time alone is not).
    const answers = async (n: number, atLeastMs: number) => {
      const from = seen.length;
      const since = performance.now();
      while (seen.length - from <= n || performance.now() - since < atLeastMs) await sleep(20);
    };
    await answers(20, 400);
    await publish(dataDir, 'v2', '2026-04', v2);
    publishedAt = performance.now();
    await sleep(200);
    await answers(20, 400);
    stop = true;
    await Promise.all(workers);

    const failed = seen.filter((s) => s.status !== 200);
    assert.deepEqual(failed, [], 'no failed request');
    const before = seen.filter((s) => s.t < publishedAt);
    const late = seen.filter((s) => s.t > publishedAt + 200);
    assert.ok(before.length > 20 && late.length > 20, `${before.length} before, ${late.length} late`);
    assert.ok(before.every((s) => s.name === 'REGIONAL BRASILIA-DF'));
    assert.ok(late.every((s) => s.name === 'REGIONAL BRASILIA-DF NOVO'));
    const st = await get(`${server.url}/api/v1/status`);
    assert.equal(st.body.registry.month, '2026-04');
    assert.ok(server.lines.some((l) => /serving snapshot v2 .*replaced v1/.test(l)));
  });

  test('exactly N of M concurrent calls get through, across two server processes sharing app.db', async () => {
    const dataDir = tempDataDir();
    const data = fixture();
    writeSnapshot(dataDir, 's', data);
    await publish(dataDir, 's', '2026-04', data);
    const N = 37;
    const M = 150;
    const a = await makeAccount(dataDir, 'Exata', { quota: N });
    const s1 = await serve(dataDir);
    const s2 = await serve(dataDir);
    servers.push(s1, s2);
    const results = await Promise.all(
      Array.from({ length: M }, (_, i) =>
        get(`${(i % 2 ? s1 : s2).url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(a.token)),
      ),
    );
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429);
    assert.equal(ok, N);
    assert.equal(limited.length, M - N);
    for (const r of limited) {
      assert.equal(r.body.error, 'quota_exceeded');
      assert.ok(Number(r.headers.get('retry-after')) > 0);
      assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    }
    const remaining = results
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    assert.deepEqual(
      [...remaining].sort((x, y) => x - y),
      Array.from({ length: N }, (_, i) => i),
      'each counted call saw a distinct remainder',
    );
    const calls = await withAppDb(
      dataDir,
      (s) =>
        (s.prepare('SELECT calls FROM usage_monthly WHERE account_id = ?').get(a.accountId) as { calls: number }).calls,
    );
    assert.equal(calls, N);
  });
});
