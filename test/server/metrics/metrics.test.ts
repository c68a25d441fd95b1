// The metrics listener of one process: Prometheus's text format on its own port, the counters
// moving with lookups (labelled by the route's pattern, never the URL), the group commit, quota
// refusals and the snapshot gauges; the public port has no /metrics.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SERPRO_FILIAL, fixture } from '../fixtures.ts';
import { bearer, get, makeAccount, publish, serve, tempDataDir, writeSnapshot } from '../helpers.ts';
import { sampleValue } from './prometheus-text.ts';

const LOOKUP = '/api/v1/brazilian_companies/:cnpj/company';

test('metrics: its own listener, counters by route pattern, group commit, quota refusals, snapshot', async () => {
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const a = await makeAccount(dataDir, 'Metricas', { quota: 5 });
  const server = await serve(dataDir, { metrics: { listen: { host: '127.0.0.1', port: 0 } } });
  try {
    assert.match(server.metricsUrl!, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    assert.notEqual(new URL(server.metricsUrl!).port, new URL(server.url).port);
    const scrape = async () => {
      const r = await fetch(server.metricsUrl!);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
      return r.text();
    };

    const before = await scrape();
    assert.equal(sampleValue(before, 'cnpj_api_http_requests_total', { route: LOOKUP, status: '200' }), undefined);
    assert.equal(sampleValue(before, 'cnpj_api_snapshot_month'), 202604);
    assert.ok(sampleValue(before, 'cnpj_api_snapshot_age_seconds')! >= 0);
    assert.equal(sampleValue(before, 'cnpj_api_webhook_queue_depth'), 0);
    assert.equal(sampleValue(before, 'cnpj_api_quota_refusals_total'), 0);
    // prom-client's default process metrics are there too.
    assert.ok(sampleValue(before, 'process_cpu_user_seconds_total')! > 0);

    const lookup = `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;
    for (let i = 0; i < 3; i++) assert.equal((await get(lookup, bearer(a.token))).status, 200);
    const three = await scrape();
    assert.equal(sampleValue(three, 'cnpj_api_http_requests_total', { route: LOOKUP, status: '200' }), 3);
    assert.equal(sampleValue(three, 'cnpj_api_http_request_duration_seconds_count', { route: LOOKUP }), 3);
    assert.equal(sampleValue(three, 'cnpj_api_group_commit_batch_size_count'), 3);
    assert.equal(sampleValue(three, 'cnpj_api_group_commit_batch_size_sum'), 3);
    assert.equal(sampleValue(three, 'cnpj_api_group_commit_duration_seconds_count'), 3);
    // Never the raw URL: the CNPJ is not a label.
    assert.ok(!three.includes(SERPRO_FILIAL));

    // Two more use the quota of 5, the sixth and seventh are refused.
    const more = await Promise.all(Array.from({ length: 4 }, () => get(lookup, bearer(a.token))));
    assert.deepEqual(more.map((r) => r.status).sort(), [200, 200, 429, 429]);
    await get(`${server.url}/no/such/route`);
    await get(`${server.url}/readyz`);
    const after = await scrape();
    assert.equal(sampleValue(after, 'cnpj_api_http_requests_total', { route: LOOKUP, status: '200' }), 5);
    assert.equal(sampleValue(after, 'cnpj_api_http_requests_total', { route: LOOKUP, status: '429' }), 2);
    assert.equal(sampleValue(after, 'cnpj_api_quota_refusals_total'), 2);
    assert.equal(sampleValue(after, 'cnpj_api_http_requests_total', { route: 'unmatched', status: '404' }), 1);
    assert.equal(sampleValue(after, 'cnpj_api_http_requests_total', { route: '/readyz', status: '200' }), 1);
    assert.ok(sampleValue(after, 'cnpj_api_group_commit_batch_size_sum')! >= 7);

    // The public port serves no metrics: its usual JSON 404.
    const pub = await get(`${server.url}/metrics`);
    assert.equal(pub.status, 404);
    assert.equal(pub.body.error, 'not_found');
    // And the metrics port serves nothing else.
    assert.equal((await fetch(new URL('/api/v1/status', server.metricsUrl))).status, 404);
  } finally {
    await server.close();
  }
});
