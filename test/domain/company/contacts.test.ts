// Extra contacts: the CSV, storing it on both app-state backends, and the API's in-memory copy (app.db).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ContactsCopy } from '../../../src/domain/company/contacts-copy.ts';
import {
  loadContactsFile,
  parseContactsCsv,
  storeContacts,
  storedContactsFor,
} from '../../../src/domain/company/contacts.ts';
import { hasWebsite } from '../../../src/domain/company/map.ts';
import { AccountsError } from '../../../src/domain/accounts/errors.ts';
import { forBackends } from '../../helpers/app-backends.ts';
import { tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';
import { SqliteMetering } from '../../../src/storage/app/metering-sqlite.ts';

const CSV = `\uFEFFcnpj,tipo_contato,tipo_website,contato
33.683.111/0002-80,Website,site,https://example.com.br
33683111000280,email,,contato@example.com.br
12abc34501de35,website,linkedin,"https://linkedin.com/company/x,y"

33683111000280,email,,contato@example.com.br
`;

forBackends('extra contacts', ({ open }) => {
  test('loads a CSV (BOM, header, punctuated and lowercase CNPJs, quotes, blank lines, duplicates)', async () => {
    const app = await open();
    const file = path.join(app.dataDir, 'c.csv');
    fs.writeFileSync(file, CSV);
    const r = await loadContactsFile(app, file);
    assert.deepEqual([r.mode, r.rows, r.cnpjs, r.duplicatesSkipped, r.before, r.after], ['replace', 3, 2, 1, 0, 3]);
    const c = await storedContactsFor(app, '33683111000280');
    assert.deepEqual(c, [
      { tipo_contato: 'website', tipo_website: 'site', contato: 'https://example.com.br' },
      { tipo_contato: 'email', tipo_website: '', contato: 'contato@example.com.br' },
    ]);
    assert.ok(hasWebsite(c));
    assert.equal((await storedContactsFor(app, '12ABC34501DE35'))[0].contato, 'https://linkedin.com/company/x,y');
    assert.deepEqual(await storedContactsFor(app, '00000000000191'), []);

    // per-cnpj: only the CNPJs in the file change.
    const per = await storeContacts(
      app,
      await parseContactsCsv('33683111000280,email,,novo@example.com.br\n'),
      'per-cnpj',
    );
    assert.equal(per.after, 2);
    assert.deepEqual(
      (await storedContactsFor(app, '33683111000280')).map((x) => x.contato),
      ['novo@example.com.br'],
    );
    assert.equal((await storedContactsFor(app, '12ABC34501DE35')).length, 1);
    // replace: the file becomes the whole set.
    await storeContacts(app, await parseContactsCsv('00000000000191,email,,a@b.com.br\n'), 'replace');
    assert.deepEqual(await storedContactsFor(app, '12ABC34501DE35'), []);
    assert.equal((await storedContactsFor(app, '00000000000191')).length, 1);
    await assert.rejects(storeContacts(app, [], 'merge' as 'replace'), /replace or per-cnpj/);
  });

  test('a large file is stored whole and in file order; the contacts epoch moves', async () => {
    const app = await open();
    const epoch = async () => (await app.db.selectFrom('contacts_epoch').select('n').executeTakeFirstOrThrow()).n;
    const before = await epoch();
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      cnpj: i % 2 ? '33683111000280' : '00000000000191',
      contact: { tipo_contato: 'email', tipo_website: '', contato: `c${i}@example.com.br` },
    }));
    const r = await storeContacts(app, rows);
    assert.deepEqual([r.rows, r.cnpjs, r.after], [2500, 2, 2500]);
    const odd = (await storedContactsFor(app, '33683111000280')).map((c) => c.contato);
    assert.deepEqual(
      odd,
      rows.filter((_, i) => i % 2).map((x) => x.contact.contato),
    );
    assert.notEqual(await epoch(), before);
    const p = await storeContacts(app, rows.slice(0, 1), 'per-cnpj');
    assert.deepEqual([p.before, p.after], [2500, 1251]);
  });

  test('two replace loads at once: the set is one file or the other, never both merged', async () => {
    const app = await open();
    const file = (tag: string) =>
      Array.from({ length: 300 }, (_, i) => ({
        cnpj: '33683111000280',
        contact: { tipo_contato: 'email', tipo_website: '', contato: `${tag}${i}@example.com.br` },
      }));
    for (let round = 0; round < 5; round++) {
      await Promise.all([storeContacts(app, file('a')), storeContacts(app, file('b'))]);
      const tags = new Set((await storedContactsFor(app, '33683111000280')).map((c) => c.contato[0]));
      assert.equal((await storedContactsFor(app, '33683111000280')).length, 300, `round ${round}`);
      assert.equal(tags.size, 1, `round ${round}`);
    }
  });

  test('a bad line names its line number and changes nothing', async () => {
    const app = await open();
    const dir = app.dataDir;
    await storeContacts(app, await parseContactsCsv('00000000000191,email,,a@b.com.br\n'));
    const cases: [string, RegExp][] = [
      [
        'cnpj,tipo_contato,tipo_website,contato\n33683111000280,email,,x@y.com\n33683111000281,email,,x@y.com\n',
        /Line 3 .*invalid CNPJ "33683111000281"/,
      ],
      ['33683111000280,email,x@y.com\n', /Line 1 .*4 columns/],
      ['33683111000280,email,,x@y.com\n\n33683111000280,,,x@y.com\n', /Line 3 .*empty tipo_contato/],
      ['33683111000280,email,,\n', /Line 1 .*empty contato/],
      ['33683111000280,email,,x@y.com\n33683111000280,email,,"unclosed\n', /Line \d+ of the contacts CSV/],
      ['cnpj,contato,tipo,x\n', /Line 1 .*header/],
    ];
    for (const [csv, re] of cases) {
      const file = path.join(dir, 'bad.csv');
      fs.writeFileSync(file, csv);
      await assert.rejects(
        loadContactsFile(app, file),
        (e: AccountsError) => e.code === 'invalid_csv' && re.test(e.message),
        csv,
      );
    }
    assert.equal((await storedContactsFor(app, '00000000000191')).length, 1);
    await assert.rejects(loadContactsFile(app, path.join(dir, 'missing.csv')), /Cannot read the file/);
  });
});

test('the in-memory copy follows contacts_epoch; past its row limit it reads per lookup', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const epoch = () => (app.sqlite.prepare('SELECT n FROM contacts_epoch').get() as { n: number }).n;
    const store = new SqliteMetering(app.sqlite);
    const small = new ContactsCopy(store);
    const tiny = new ContactsCopy(store, 1);
    // The metering brings the copies to the epoch each count reads, before the lookups that follow.
    const sync = () => Promise.all([small.sync(epoch()), tiny.sync(epoch())]);
    const row = (contato: string) => ({
      cnpj: '33683111000280',
      contact: { tipo_contato: 'email', tipo_website: '', contato },
    });
    await sync();
    for (const cache of [small, tiny]) assert.deepEqual(cache.get('33683111000280'), []);
    await storeContacts(sqliteStore(app), [row('a@example.com.br'), row('b@example.com.br')]);
    await sync();
    for (const cache of [small, tiny])
      assert.deepEqual(
        cache.get('33683111000280').map((c) => c.contato),
        ['a@example.com.br', 'b@example.com.br'],
      );
    await storeContacts(sqliteStore(app), [row('c@example.com.br')], 'per-cnpj');
    await sync();
    for (const cache of [small, tiny])
      assert.deepEqual(
        cache.get('33683111000280').map((c) => c.contato),
        ['c@example.com.br'],
      );
    assert.throws(
      () => (small.get('33683111000280') as unknown as unknown[]).push({}),
      TypeError,
      'shared lists are frozen',
    );
    // Token, account and plan changes move auth_epoch only: the copy is not reloaded for them.
    const before = epoch();
    app.sqlite.prepare("UPDATE plans SET monthly_quota = 1 WHERE name = 'Ouro'").run();
    assert.equal(epoch(), before);
  } finally {
    await cleanup();
  }
});
