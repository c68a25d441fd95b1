// Shared by the webhook and watchlist tests: an app store (app.db or PostgreSQL) with an account,
// recorded history months in the store's data dir, and a webhook receiver on loopback whose
// answers a test scripts. Accounts and plans are written with plain inserts: these tests are about
// watchlists and webhooks, not the accounts domain.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppStore, OpenAppStore } from '../../../src/storage/app/store.ts';
import { openHistoryDb, writeMonth } from '../../../src/storage/history/db.ts';

export interface Env {
  dataDir: string;
  app: OpenAppStore;
  accountId: number;
}

/** An account on `plan` (one of the seeded plans, or one made with insertPlan). */
export async function insertAccount(app: AppStore, name: string, plan = 'Ouro'): Promise<number> {
  const row = await app.db
    .insertInto('accounts')
    .values({ name, plan, created_at: new Date().toISOString(), suspended_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A plan with this watchlist limit (created, or its limit changed). */
export async function setWatchlistLimit(app: AppStore, plan: string, limit: number): Promise<void> {
  await app.db
    .insertInto('plans')
    .values({ name: plan, monthly_quota: 10, api_included: 1, watchlist_limit: limit })
    .onConflict((oc) => oc.column('name').doUpdateSet({ watchlist_limit: limit }))
    .execute();
}

/** A fresh store (from forBackends' `open`) with an account on Ouro. */
export async function makeEnv(open: () => Promise<OpenAppStore>): Promise<Env> {
  const app = await open();
  const accountId = await insertAccount(app, 'Acme');
  return { dataDir: app.dataDir, app, accountId };
}

export async function watch(env: Env, cnpjs: string[]): Promise<void> {
  for (let i = 0; i < cnpjs.length; i += 500) {
    await env.app.db
      .insertInto('watchlist')
      .values(
        cnpjs.slice(i, i + 500).map((cnpj) => ({ account_id: env.accountId, cnpj, added_at: '2026-01-01T00:00:00Z' })),
      )
      .execute();
  }
}

/** The deliveries in the order they were queued (rowid on app.db, seq on PostgreSQL). */
export async function deliveriesInOrder(app: AppStore) {
  return app.db.selectFrom('webhook_deliveries').selectAll().orderBy('seq').execute();
}

/** Records `month` with a situacao_cadastral change for each CNPJ given. */
export function recordMonth(dataDir: string, month: string, cnpjs: string[]): void {
  const db = openHistoryDb(dataDir);
  try {
    writeMonth(db, month, 'prev', (insert) => {
      for (const c of cnpjs) insert(c, 'alteracao', 'situacao_cadastral', '"ATIVA"', '"INAPTA"');
      return { alteracao: cnpjs.length };
    });
  } finally {
    db.close();
  }
}

/** n distinct 14-digit CNPJs (not checked, the history does not care). */
export const cnpjs = (n: number, base = 10_000_000) =>
  Array.from({ length: n }, (_, i) => String(base + i).padStart(8, '0') + '000100');

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** How the receiver answers one request: a status, or 'hang' (never answers). */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Called per request (0-based count); default 200. */
  answer: (n: number, r: Received) => Answer;
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const r: Receiver = {
    url: '',
    received,
    answer,
    async waitFor(n, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${n} requests`);
        await new Promise((res) => setTimeout(res, 20));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    },
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const got: Received = {
        id: String(req.headers['x-cnpj-api-delivery']),
        timestamp: String(req.headers['x-cnpj-api-timestamp']),
        signature: String(req.headers['x-cnpj-api-signature']),
        body,
      };
      const a = r.answer(received.length, got);
      received.push(got);
      if (a === 'hang') return void hanging.add(res);
      res.writeHead(a).end('ok');
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}

/** The receiver's check, as docs/webhooks.md shows it. */
export function verifies(secret: string, r: Received): boolean {
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${r.timestamp}.${r.body}`).digest('hex');
  return expected === r.signature;
}
