// Values the Receita writes in an unusual shape, followed from a real month's zips (the committed
// sample plus hand-written rows in the Receita's own format: Latin-1, every field quoted, `;`,
// real member names) through `runImport` to what the API serves (docs/receita-dump.md §7).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { makeCnpj } from '../../src/domain/cnpj.ts';
import { runImport } from '../../src/importer/run.ts';
import { RECEITA_MINI } from '../fixtures/index.ts';
import { bearer, get, makeAccount, serve, type TestServer } from '../server/helpers.ts';
import { querySnapshot, rec, tempDir, writeZip } from './helpers.ts';

/** An Estabelecimentos record (30 fields): head office, active, in São Paulo, with this CEP. */
function est(base: string, cep: string, fantasia: string): string {
  const dv = makeCnpj(base, '0001').slice(12);
  return rec(base, '0001', dv, '1', fantasia, '02', '20200101', '00', '', '', '20200101', '6204000', '', 'RUA', 'A', '1', '', 'CENTRO', cep, 'SP', '7107', '11', '33334444', '', '', '', '', '', '', '');
}

/** An Empresas record (7 fields) with this capital, as the Receita writes it. */
const empresa = (base: string, capital: string) => rec(base, `EMPRESA ${base} LTDA`, '2062', '49', capital, '05', '');

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** The sample month plus `establishments` and `companies` records, imported as a whole month; a server on it. */
async function month(establishments: string, companies: string) {
  const dataDir = tempDir();
  const extra = tempDir('dump-');
  writeZip(path.join(extra, 'Estabelecimentos1.zip'), 'K3241.K03200Y1.D60913.ESTABELE', establishments);
  writeZip(path.join(extra, 'Empresas1.zip'), 'K3241.K03200Y1.D60913.EMPRECSV', companies);
  const summary = await runImport({ dataDir, inputs: [RECEITA_MINI, extra], month: '2026-09', history: false, log: () => {} });
  const server = await serve(dataDir);
  servers.push(server);
  const acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
  const api = (p: string, init: RequestInit = {}) => get(`${server.url}/api/v1/${p}`, { ...init, headers: { ...bearer(acct.token).headers, ...init.headers } });
  const lookup = async (cnpj: string) => {
    const r = await api(`brazilian_companies/${cnpj}/company`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.company as Record<string, unknown>;
  };
  return { summary, api, lookup };
}

test('a CEP written as printed (01001-000, 01.001-000) is served as its 8 digits and found by the cep filter', async () => {
  const [hyphen, dotted, plain, foreign] = ['11111111', '22222222', '33333333', '44444444'];
  const { summary, api, lookup } = await month(
    est(hyphen, '01001-000', 'HIFEN') + est(dotted, '01.001-000', 'PONTO') + est(plain, '01001000', 'SIMPLES') + est(foreign, '1234-567', 'EXTERIOR'),
    [hyphen, dotted, plain, foreign].map((b) => empresa(b, '1000,00')).join(''),
  );
  assert.equal(summary.stats.tables.establishments.rejected, 0);
  // Stored as the usual 8-digit CEP is: an INTEGER.
  const stored = [hyphen, dotted, plain, foreign].map((b) => querySnapshot<{ cep: unknown }>(summary.dir, 'establishments.db', 'SELECT cep FROM establishments WHERE cnpj = ?', makeCnpj(b, '0001'))[0].cep);
  assert.deepEqual(stored, [1001000, 1001000, 1001000, '1234-567']);

  for (const base of [hyphen, dotted, plain]) assert.equal((await lookup(makeCnpj(base, '0001'))).cep, '01001000', base);
  // 4-3 digits is no CEP as printed (a Portuguese postal code is written so): kept as published.
  assert.equal((await lookup(makeCnpj(foreign, '0001'))).cep, '1234-567');

  const found = await api('brazilian_companies?cep=01001000&limit=10');
  assert.equal(found.status, 200, JSON.stringify(found.body));
  assert.deepEqual(
    (found.body.data as { cnpj: string }[]).map((c) => c.cnpj).sort(),
    [hyphen, dotted, plain].map((b) => makeCnpj(b, '0001')),
  );
});
