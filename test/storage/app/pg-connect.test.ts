// Database URLs read as libpq reads them (several hosts, target_session_attrs), and the one-host
// URL handed to `pg` keeping everything else (user, password, database, ssl parameters).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import pg from 'pg';
import { parseDatabaseUrl } from '../../../src/storage/app/pg-connect.ts';
import { databaseUrlProblem } from '../../../src/storage/app/store.ts';

/** What `pg` itself reads from a URL (a client is not connected by constructing it). */
function parse(url: string) {
  const c = new pg.Client({ connectionString: url }) as pg.Client & {
    connectionParameters: { user: string; password: string; database: string; host: string; ssl: unknown };
  };
  return { ...c.connectionParameters, password: c.password };
}

test('hosts from the authority: ports default to 5432, IPv6 in brackets, target_session_attrs read', () => {
  const t = parseDatabaseUrl('postgres://app:s%40cret@db1:5433,db2,[::1]:6000/cnpj?target_session_attrs=read-write');
  assert.deepEqual(t.hosts, [
    { host: 'db1', port: 5433 },
    { host: 'db2', port: 5432 },
    { host: '::1', port: 6000 },
  ]);
  assert.equal(t.attrs, 'read-write');
  const c = parse(t.baseUrl);
  assert.equal(c.user, 'app');
  assert.equal(c.password, 's@cret');
  assert.equal(c.database, 'cnpj');
  assert.equal(c.host, 'db1');
});

test('hosts and ports from the query, as libpq takes them (one port applies to every host)', () => {
  assert.deepEqual(parseDatabaseUrl('postgresql:///cnpj?host=a,b&port=5433,5434&sslmode=require').hosts, [
    { host: 'a', port: 5433 },
    { host: 'b', port: 5434 },
  ]);
  assert.deepEqual(parseDatabaseUrl('postgres://u@/cnpj?host=/run/pg1,/run/pg2&port=5433').hosts, [
    { host: '/run/pg1', port: 5433 },
    { host: '/run/pg2', port: 5433 },
  ]);
  const c = parse(parseDatabaseUrl('postgresql:///cnpj?host=a,b&sslmode=require').baseUrl);
  assert.ok(c.ssl, 'sslmode=require kept');
  assert.equal(c.database, 'cnpj');
  assert.equal(parseDatabaseUrl('postgres://u@h/db').attrs, 'any');
});

test('URLs that cannot work are refused with the reason, never the password', () => {
  const cases: [string, RegExp][] = [
    ['postgres://u:pw@h1:5432,h2:x/db', /bad port "x"/],
    ['postgres://u:pw@h1:5432,,h2/db', /an empty host/],
    ['postgres://u:pw@/db?host=a,b,c&port=1,2', /3 hosts but 2 ports/],
    ['postgres://u:pw@h/db?target_session_attrs=standby', /standby is not supported \(a node writes/],
    ['postgres://u:pw@h:70000/db', /bad port "70000"/],
  ];
  for (const [url, re] of cases) {
    const problem = databaseUrlProblem(url);
    assert.match(problem ?? '', re, url);
    assert.doesNotMatch(problem ?? '', /pw/, url);
  }
  assert.equal(databaseUrlProblem('postgres://u:pw@h1,h2/db?target_session_attrs=primary'), null);
});

test("docs/fleet.md's URLs are ones a node takes, and its failover section names two hosts and read-write", () => {
  const doc = fs.readFileSync('docs/fleet.md', 'utf8');
  const urls = [...doc.matchAll(/postgres(?:ql)?:\/\/[^\s'"`)]+/g)].map((m) => m[0]).filter((u) => !u.includes('…'));
  assert.ok(urls.length >= 3, urls.join(' '));
  for (const url of urls) assert.equal(databaseUrlProblem(url), null, url);
  const failover = doc.slice(doc.indexOf('### Failover'));
  const [first] = [...failover.matchAll(/postgres:\/\/[^\s'"`]+/g)].map((m) => parseDatabaseUrl(m[0]));
  assert.equal(first.hosts.length, 2);
  assert.equal(first.attrs, 'read-write');
});
