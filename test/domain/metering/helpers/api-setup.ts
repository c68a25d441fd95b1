// The server's arrangement for the access tests, and assertions on access results.
import assert from 'node:assert/strict';
import path from 'node:path';
import { createAccount } from '../../../../src/domain/accounts/accounts.ts';
import { Meter } from '../../../../src/domain/metering/meter.ts';
import { SqliteMetering } from '../../../../src/storage/app/metering-sqlite.ts';
import { type AccessDenied, type AccessIdentity, type AccessResult } from '../../../../src/domain/metering/access.ts';
import { createToken } from '../../../../src/domain/accounts/tokens.ts';
import { openAppSqlite } from '../../../../src/storage/app/sqlite.ts';
import { WalSync } from '../../../../src/storage/app/wal-sync.ts';
import type { Sqlite } from '../../../../src/storage/sqlite.ts';
import type { Clock } from '../../../../src/domain/metering/time.ts';
import { tempAppDb } from '../../accounts/helpers/setup.ts';
import { sqliteStore } from '../../../helpers/sqlite-store.ts';

export function denied(r: AccessResult | AccessIdentity | AccessDenied) {
  assert.equal(r.ok, false, 'expected a denial');
  return r as Extract<AccessResult, { ok: false }>;
}

export function granted<R extends AccessResult | AccessIdentity | AccessDenied>(r: R): Extract<R, { ok: true }> {
  assert.ok(r.ok, `expected access, got ${JSON.stringify(r)}`);
  return r as Extract<R, { ok: true }>;
}

/**
 * The server's arrangement: the metering on a connection of its own (optionally with the WAL flush),
 * while the web app, the CLI and other processes change rows through another one (`app`).
 */
export async function apiSetup(opts: { walSync?: boolean } = {}) {
  const { app, dir, cleanup } = await tempAppDb();
  const apiConn = openAppSqlite(dir);
  let walSync: WalSync | undefined;
  if (opts.walSync) {
    apiConn.pragma('synchronous = NORMAL');
    walSync = new WalSync(path.join(dir, 'app.db-wal'));
  }
  const access = new Meter(new SqliteMetering(apiConn, walSync));
  const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Ouro' });
  const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'prod', createdBy: 'cli' });
  return {
    app,
    apiConn,
    access,
    acc,
    t,
    async cleanup() {
      walSync?.close();
      apiConn.close();
      await cleanup();
    },
  };
}

/** The metering over app.db on `sqlite`, as the server arranges it (optionally with the WAL flush). */
export function sqliteMeter(sqlite: Sqlite, opts: { now?: Clock; walSync?: WalSync } = {}): Meter {
  return new Meter(new SqliteMetering(sqlite, opts.walSync), { now: opts.now });
}
