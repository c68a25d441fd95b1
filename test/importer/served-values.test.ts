// Values the Receita writes in an unusual shape, followed from a real month's zips (the committed
// sample plus hand-written rows in the Receita's own format: Latin-1, every field quoted, `;`,
// real member names) through `runImport` to what the API serves (docs/receita-dump.md §7).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { makeCnpj } from '../../src/domain/cnpj.ts';
import { runImport } from '../../importer/run.ts';
import { RECEITA_MINI } from '../fixtures/index.ts';
import { bearer, get, makeAccount, serve, type TestServer } from '../server/helpers.ts';
import { estabelecimento, querySnapshot, rec, tempDir, writeZip } from './helpers.ts';

/** An Estabelecimentos record: head office, active, in São Paulo, with this CEP and phone, no e-mail. */
function est(base: string, cep: string, fantasia: string): string {
  const dv = makeCnpj(base, '0001').slice(12);
  return estabelecimento(base, '0001', dv, { 4: fantasia, 18: cep, 22: '33334444', 27: '' });
}

/** An Empresas record (7 fields) with this capital, as the Receita writes it. */
const empresa = (base: string, capital: string) => rec(base, `EMPRESA ${base} LTDA`, '2062', '49', capital, '05', '');

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** The sample plus `establishments` and `companies` records, imported as a whole month into `dataDir`. */
async function importMonth(dataDir: string, establishments: string, companies: string, month = '2026-09') {
  const extra = tempDir('dump-');
  // Extracted on the 13th of the month (the next month's files must not carry this one's date).
  const d = `D${month[3]}${month.slice(5, 7)}13`;
  writeZip(path.join(extra, 'Estabelecimentos1.zip'), `K3241.K03200Y1.${d}.ESTABELE`, establishments);
  writeZip(path.join(extra, 'Empresas1.zip'), `K3241.K03200Y1.${d}.EMPRECSV`, companies);
  return runImport({ dataDir, inputs: [RECEITA_MINI, extra], month, log: () => {} });
}

/** The API on `dataDir`: a server and a token. */
async function apiOf(dataDir: string) {
  const server = await serve(dataDir);
  servers.push(server);
  const acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
  const api = (p: string, init: RequestInit = {}) =>
    get(`${server.url}/api/v1/${p}`, { ...init, headers: { ...bearer(acct.token).headers, ...init.headers } });
  const lookup = async (cnpj: string) => {
    const r = await api(`brazilian_companies/${cnpj}/company`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.company as Record<string, unknown>;
  };
  return { api, lookup };
}

/** The sample month plus `establishments` and `companies` records, imported; the API on it. */
async function month(establishments: string, companies: string) {
  const dataDir = tempDir();
  const summary = await importMonth(dataDir, establishments, companies);
  return { summary, ...(await apiOf(dataDir)) };
}

test('a CEP written as printed (01001-000, 01.001-000) is served as its 8 digits and found by the cep filter', async () => {
  const [hyphen, dotted, plain, foreign] = ['11111111', '22222222', '33333333', '44444444'];
  const { summary, api, lookup } = await month(
    est(hyphen, '01001-000', 'HIFEN') +
      est(dotted, '01.001-000', 'PONTO') +
      est(plain, '01001000', 'SIMPLES') +
      est(foreign, '1234-567', 'EXTERIOR'),
    [hyphen, dotted, plain, foreign].map((b) => empresa(b, '1000,00')).join(''),
  );
  assert.equal(summary.stats.tables.establishments.rejected, 0);
  // Stored as the usual 8-digit CEP is: an INTEGER.
  const stored = [hyphen, dotted, plain, foreign].map(
    (b) =>
      querySnapshot<{ cep: unknown }>(
        summary.dir,
        'establishments.db',
        'SELECT cep FROM establishments WHERE cnpj = ?',
        makeCnpj(b, '0001'),
      )[0].cep,
  );
  assert.deepEqual(stored, [1001000, 1001000, 1001000, '1234-567']);

  for (const base of [hyphen, dotted, plain])
    assert.equal((await lookup(makeCnpj(base, '0001'))).cep, '01001000', base);
  // 4-3 digits is no CEP as printed (a Portuguese postal code is written so): kept as published.
  assert.equal((await lookup(makeCnpj(foreign, '0001'))).cep, '1234-567');

  const found = await api('brazilian_companies?cep=01001000&limit=10');
  assert.equal(found.status, 200, JSON.stringify(found.body));
  assert.deepEqual(
    (found.body.data as { cnpj: string }[]).map((c) => c.cnpj).sort(),
    [hyphen, dotted, plain].map((b) => makeCnpj(b, '0001')),
  );
});

test('a capital social past 2^53 cents, past int64 too, imports, is served exactly, and the capital filters find it', async () => {
  // 2^53 + 1 cents (read back as a JS number: ...992), 2^63 cents (past int64), 10^19 - 1 cents, 26 digits.
  const amounts: Record<string, [string, string]> = {
    '51111111': ['90071992547409,93', '90071992547409.93'],
    '52222222': ['92233720368547758,08', '92233720368547758.08'],
    '53333333': ['99999999999999999,99', '99999999999999999.99'],
    '54444444': ['123456789012345678901234,56', '123456789012345678901234.56'],
    '55555555': ['000000018000,00', '18000.00'],
  };
  const bases = Object.keys(amounts);
  const { summary, api, lookup } = await month(
    bases.map((b) => est(b, '01001000', `CAPITAL ${b}`)).join(''),
    bases.map((b) => empresa(b, amounts[b][0])).join(''),
  );
  // The month is published, nothing rejected.
  assert.equal(summary.month, '2026-09');
  assert.equal(summary.stats.tables.companies.rejected, 0);
  const stored = bases.map(
    (b) =>
      querySnapshot<{ t: string; v: unknown }>(
        summary.dir,
        'companies.db',
        'SELECT typeof(capital_social_cents) t, capital_social_cents v FROM companies WHERE basico = ?',
        b,
      )[0],
  );
  assert.deepEqual(stored, [
    { t: 'text', v: '9007199254740993' },
    { t: 'text', v: '9223372036854775808' },
    { t: 'text', v: '9999999999999999999' },
    { t: 'text', v: '12345678901234567890123456' },
    { t: 'integer', v: 1800000 },
  ]);
  const [serpro] = querySnapshot<{ t: string }>(
    summary.dir,
    'companies.db',
    `SELECT typeof(capital_social_cents) t FROM companies WHERE basico = '33683111'`,
  );
  assert.equal(serpro.t, 'integer', 'a usual amount stays INTEGER cents');

  for (const b of bases) assert.equal((await lookup(makeCnpj(b, '0001'))).capital_social, amounts[b][1], b);
  assert.equal((await lookup('33683111000280')).capital_social, '1061004829.23');

  // The batch, the search and its CSV give the same text.
  const listed = await api('brazilian_companies?cep=01001000&limit=10');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.deepEqual(
    Object.fromEntries(
      (listed.body.data as { cnpj: string; capital_social: string }[]).map((c) => [
        c.cnpj.slice(0, 8),
        c.capital_social,
      ]),
    ),
    Object.fromEntries(bases.map((b) => [b, amounts[b][1]])),
  );
  const batch = await api('brazilian_companies/batch', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cnpjs: bases.map((b) => makeCnpj(b, '0001')) }),
  });
  assert.equal(batch.status, 200, JSON.stringify(batch.body));
  assert.deepEqual(
    batch.body.results.map((r: { data: { company: { capital_social: string } } }) => r.data.company.capital_social),
    bases.map((b) => amounts[b][1]),
  );
  const csv = await api('brazilian_companies?cep=01001000&format=csv&limit=10');
  assert.equal(csv.status, 200);
  for (const b of bases) assert.ok((csv.body as string).includes(`;${amounts[b][1]};`), `${b} in the CSV`);

  const cnpjs = async (qs: string) => {
    const r = await api(`brazilian_companies?cep=01001000&limit=10&${qs}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const c = await api(`brazilian_companies/count?cep=01001000&${qs}`);
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const found = (r.body.data as { cnpj: string }[]).map((x) => x.cnpj.slice(0, 8)).sort();
    assert.equal(c.body.count, found.length, `count of ${qs}`);
    return found;
  };
  // Found by a lower bound, excluded by an upper bound (the API takes bounds of up to 15 integer
  // digits: 999,999,999,999,999 reais); by one cent at 2^53 + 1 cents, where a number is no longer exact.
  const [a2, b2, c2, d2, e2] = bases;
  assert.deepEqual(await cnpjs('capital_social_min=1000000000000'), [a2, b2, c2, d2]);
  assert.deepEqual(await cnpjs('capital_social_min=100000000000000'), [b2, c2, d2]);
  assert.deepEqual(await cnpjs('capital_social_max=100000000000000'), [a2, e2]);
  assert.deepEqual(await cnpjs('capital_social_max=90071992547409.92'), [e2]);
  assert.deepEqual(await cnpjs('capital_social_min=90071992547409.9&capital_social_max=999999999999999'), [a2]);
});

test('the change feed compares capitals past 2^53 cents exactly: one cent changed is a change, the same digits none', async () => {
  const [same, cent, drop] = ['61111111', '62222222', '63333333'];
  const establishments = [same, cent, drop].map((b) => est(b, '01001000', `CAPITAL ${b}`)).join('');
  const dataDir = tempDir();
  await importMonth(
    dataDir,
    establishments,
    empresa(same, '99999999999999999,99') +
      empresa(cent, '123456789012345678901234,56') +
      empresa(drop, '92233720368547758,08'),
  );
  const next = await importMonth(
    dataDir,
    establishments,
    empresa(same, '99999999999999999,99') + empresa(cent, '123456789012345678901234,57') + empresa(drop, '1000,00'),
    '2026-10',
  );
  assert.equal(next.month, '2026-10');
  const { api } = await apiOf(dataDir);
  const feed = await api('changes?month=2026-10&campo=capital_social');
  assert.equal(feed.status, 200, JSON.stringify(feed.body));
  const changes = (feed.body.data as { cnpj: string; campo: string; antes: unknown; depois: unknown }[]).map((c) => [
    c.cnpj.slice(0, 8),
    c.antes,
    c.depois,
  ]);
  assert.deepEqual(changes, [
    [cent, '123456789012345678901234.56', '123456789012345678901234.57'],
    [drop, '92233720368547758.08', '1000.00'],
  ]);
  // The feed's capital filter reads the new month's capital.
  const big = await api('changes?month=2026-10&capital_social_min=100000000000000');
  assert.equal(big.status, 200, JSON.stringify(big.body));
  assert.deepEqual([...new Set((big.body.data as { cnpj: string }[]).map((c) => c.cnpj.slice(0, 8)))], [cent]);
});
