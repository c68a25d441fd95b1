// Web sessions in the app state, on both backends: created through one store and read, given a
// flash, taken and ended through another store on the same database, as two nodes behind one
// load balancer would (on PostgreSQL; on SQLite two connections to one app.db).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { createUserSync } from '../../../src/domain/accounts/users.ts';
import { openAppStore } from '../../../src/storage/app/store.ts';
import {
  createSession,
  destroySession,
  loadSession,
  SESSION_TTL_MS,
  setFlash,
  takeFlash,
} from '../../../src/server/web/session.ts';
import { forBackends, freshDatabaseUrl, tempDataDir } from '../../helpers/app-backends.ts';

forBackends('web sessions', ({ backend }) => {
  test('a session made on one node is read, flashed and ended on another', async () => {
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const dir = tempDataDir();
    // SQLite: two stores on the same data dir; PostgreSQL: two nodes with their own data dirs.
    const a = await openAppStore(dir, url);
    const b = await openAppStore(url ? tempDataDir() : dir, url);
    try {
      const now = new Date('2026-04-01T12:00:00Z');
      const acc = await createAccount(a, { name: 'Acme', plan: 'Ouro' });
      const user = await createUserSync(a, {
        accountId: acc.id,
        email: 'ana@acme.com.br',
        password: 'senha-muito-boa',
        role: 'billing_admin',
      });
      const cookie = await createSession(a.db, user.id, now);
      const onB = await loadSession(b.db, cookie, now);
      assert.equal(onB?.userId, user.id);
      await setFlash(b.db, onB!, { kind: 'token', token: 'cnpj_x', name: 'prod' });
      // The flash is sealed with the cookie: the other node opens it, and only once.
      const onA = (await loadSession(a.db, cookie, now))!;
      const again = (await loadSession(b.db, cookie, now))!;
      assert.deepEqual(await takeFlash(a.db, onA), { kind: 'token', token: 'cnpj_x', name: 'prod' });
      assert.equal(await takeFlash(b.db, again), null);
      assert.equal(await loadSession(b.db, cookie, new Date(now.getTime() + SESSION_TTL_MS)), null);
      await destroySession(b.db, onA);
      assert.equal(await loadSession(a.db, cookie, now), null);
      assert.equal(await loadSession(a.db, 'not-a-cookie', now), null);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
