import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import {
  databaseUrlProblem,
  isUniqueViolation,
  lockFor,
  redactDatabaseUrl,
  writeTransaction,
} from '../../../src/storage/app/store.ts';
import { forBackends } from '../../helpers/app-backends.ts';

test('database URLs: only postgres schemes; the password never printed', () => {
  assert.equal(databaseUrlProblem('postgres://u:p@db:5432/cnpj'), null);
  assert.equal(databaseUrlProblem('postgresql://db/cnpj'), null);
  assert.match(databaseUrlProblem('mysql://db/x')!, /unsupported scheme "mysql"/);
  assert.match(databaseUrlProblem('db:5432')!, /unsupported scheme|not a URL/);
  assert.equal(redactDatabaseUrl('postgres://u:secret@db:5432/cnpj'), 'postgres://u:***@db:5432/cnpj');
  assert.equal(redactDatabaseUrl('postgres://db/cnpj'), 'postgres://db/cnpj');
});

forBackends('app store', ({ backend, open }) => {
  test('a write transaction commits all or nothing', async () => {
    const app = await open();
    await assert.rejects(
      writeTransaction(app, async (tx) => {
        await tx.db.insertInto('plans').values({ name: 'x1', monthly_quota: 5, api_included: 1 }).execute();
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(
      await app.db.selectFrom('plans').select('name').where('name', '=', 'x1').executeTakeFirst(),
      undefined,
    );
    await writeTransaction(app, async (tx) => {
      await tx.db.insertInto('plans').values({ name: 'x2', monthly_quota: 5, api_included: 1 }).execute();
      // nested: the same transaction
      await writeTransaction(tx, async (inner) => {
        assert.equal(inner, tx);
      });
    });
    assert.ok(await app.db.selectFrom('plans').select('name').where('name', '=', 'x2').executeTakeFirst());
  });

  test('a unique violation is recognised', async () => {
    const app = await open();
    const row = { name: 'dup', monthly_quota: 1, api_included: 1 as const };
    await app.db.insertInto('plans').values(row).execute();
    const err = await app.db
      .insertInto('plans')
      .values(row)
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(isUniqueViolation(err), String(err));
  });

  test('lockFor serializes read-then-write transactions on the same key', async () => {
    const app = await open();
    await app.db.insertInto('plans').values({ name: 'ctr', monthly_quota: 0, api_included: 1 }).execute();
    // 20 concurrent read-increment-write transactions: with the lock none is lost.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        writeTransaction(app, async (tx) => {
          await lockFor(tx, 'test-counter');
          const r = await tx.db
            .selectFrom('plans')
            .select('monthly_quota')
            .where('name', '=', 'ctr')
            .executeTakeFirstOrThrow();
          await sql`SELECT 1`.execute(tx.db); // another round trip between read and write
          await tx.db
            .updateTable('plans')
            .set({ monthly_quota: r.monthly_quota + 1 })
            .where('name', '=', 'ctr')
            .execute();
        }),
      ),
    );
    const r = await app.db
      .selectFrom('plans')
      .select('monthly_quota')
      .where('name', '=', 'ctr')
      .executeTakeFirstOrThrow();
    assert.equal(r.monthly_quota, 20, `${backend}: no increment lost`);
  });
});
