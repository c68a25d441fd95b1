// What the search and partner endpoint tests share: the demo-400 month imported for real with
// its oracle, an account and a server; and walking a paged answer to its last page.
import assert from 'node:assert/strict';
import { runImport } from '../../../importer/run.ts';
import { DEMO_400 } from '../../fixtures/index.ts';
import { Oracle } from '../../domain/search/oracle.ts';
import { makeAccount, serve, tempDataDir, type TestAccount, type TestServer } from '../helpers.ts';

export interface Demo400 {
  dataDir: string;
  oracle: Oracle;
  acct: TestAccount;
  server: TestServer;
}

export async function startDemo400(): Promise<Demo400> {
  const dataDir = tempDataDir();
  const summary = await runImport({ dataDir, inputs: [DEMO_400], month: '2026-09', allowPartial: true });
  const oracle = new Oracle(summary.dir);
  const acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
  return { dataDir, oracle, acct, server: await serve(dataDir) };
}

export async function stopDemo400(d: Demo400 | undefined): Promise<void> {
  d?.oracle.close();
  await d?.server.close();
}

type Answer = { status: number; body: any; headers: Headers };

/** Every page of `qs` with `limit` through `fetch`: the items, the pages, and the calls they cost. */
export async function walkPages<T>(
  fetch: (qs: string) => Promise<Answer>,
  qs: string,
  limit: number,
  checkItem?: (item: unknown) => void,
): Promise<{ items: T[]; pages: number; calls: number }> {
  const remaining = (r: Answer) => Number(r.headers.get('x-ratelimit-remaining'));
  const items: T[] = [];
  let r = await fetch(`${qs}&limit=${limit}`);
  const first = remaining(r) + 1;
  let pages = 0;
  for (;;) {
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ['data', 'next_cursor']);
    for (const item of r.body.data) checkItem?.(item);
    items.push(...r.body.data);
    pages++;
    if (r.body.next_cursor === null) break;
    r = await fetch(`${qs}&limit=${limit}&cursor=${r.body.next_cursor}`);
  }
  return { items, pages, calls: first - remaining(r) };
}
