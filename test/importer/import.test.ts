import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import { listSnapshots } from '../../src/storage/snapshots/records.ts';
import { runImport } from '../../importer/run.ts';
import { MAX_REJECT_LINES } from '../../importer/writer.ts';
import { RECEITA_MINI } from '../fixtures/index.ts';
import { active, copySamples, estabelecimento, querySnapshot, rec, tempDir, writeZip } from './helpers.ts';
import { CLI } from '../helpers/cli.ts';

const BIN = CLI;

function buildingDirs(dataDir: string): string[] {
  const reg = path.join(dataDir, 'registry');
  return fs.existsSync(reg) ? fs.readdirSync(reg).filter((n) => n.startsWith('.building-')) : [];
}

test('imports the real Receita sample: SERPRO branch, partners, capital, regime, lookups', async () => {
  const dataDir = tempDir();
  const s = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09' });
  assert.equal(s.month, '2026-09');
  const t = s.stats.tables;
  assert.equal(t.establishments.rows, 1);
  assert.equal(t.companies.rows, 2);
  assert.equal(t.partners.rows, 7);
  assert.equal(t.simples.rows, 1);
  assert.equal(t.regimes.rows, 4);
  assert.equal(t.cnaes.rows, 6);
  for (const name of Object.keys(t)) assert.equal(t[name].rejected, 0, `${name} rejected`);
  assert.ok(s.stats.missingFiles.includes('Estabelecimentos9.zip'));
  assert.ok(!s.stats.missingFiles.includes('Lucro Presumido.zip'));

  const [{ digest, ...e }] = querySnapshot<Record<string, unknown>>(
    s.dir,
    'establishments.db',
    'SELECT * FROM establishments WHERE cnpj = ?',
    '33683111000280',
  );
  assert.ok(Number.isSafeInteger(digest), 'the row digest follows the columns');
  assert.deepEqual(e, {
    cnpj: '33683111000280',
    matriz_filial: 2,
    nome_fantasia: 'REGIONAL BRASILIA-DF',
    situacao_cadastral: 2,
    data_situacao_cadastral: 20040522,
    motivo_situacao_cadastral: 0,
    nome_cidade_exterior: null,
    pais: null,
    data_inicio_atividade: 19670630,
    cnae_fiscal: 6204000,
    cnaes_secundarios: '6201501,6202300,6203100,6209100,6311900',
    tipo_logradouro: 'AVENIDA',
    logradouro: 'L2 SGAN',
    numero: '601',
    complemento: 'MODULO G',
    bairro: 'ASA NORTE',
    cep: 70836900,
    uf: 'DF',
    municipio: 9701,
    ddd_1: null,
    telefone_1: null,
    ddd_2: null,
    telefone_2: null,
    ddd_fax: null,
    fax: null,
    email: null,
    situacao_especial: null,
    data_situacao_especial: null,
  });
  const [c] = querySnapshot<Record<string, unknown>>(
    s.dir,
    'companies.db',
    'SELECT * FROM companies WHERE basico = ?',
    '33683111',
  );
  assert.equal(c.razao_social, 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)');
  assert.equal(c.capital_social_cents, 106100482923);
  assert.equal(c.natureza_juridica, 2011);
  assert.equal(c.porte, 5);
  const partners = querySnapshot<{ nome: string }>(
    s.dir,
    'companies.db',
    'SELECT nome FROM partners WHERE basico = ?',
    '33683111',
  );
  assert.equal(partners.length, 6);
  const regime = querySnapshot<Record<string, unknown>>(
    s.dir,
    'companies.db',
    'SELECT * FROM regimes WHERE basico = ?',
    '33683111',
  );
  assert.ok(
    regime.every((r) => Number.isSafeInteger(r.digest)),
    'the row digest follows the columns',
  );
  assert.deepEqual(
    regime.map(({ digest: _, ...r }) => r),
    [
      {
        basico: '33683111',
        cnpj: '33683111000280',
        ano: 2018,
        cnpj_scp: null,
        forma: 'LUCRO PRESUMIDO',
        escrituracoes: 1,
      },
    ],
  );
  const [cnae] = querySnapshot<{ description: string }>(
    s.dir,
    'companies.db',
    'SELECT description FROM cnaes WHERE code = 6204000',
  );
  assert.equal(cnae.description, 'Consultoria em tecnologia da informação');
  const [motivo] = querySnapshot<{ description: string }>(
    s.dir,
    'companies.db',
    'SELECT description FROM motivos WHERE code = 0',
  );
  assert.equal(motivo.description, 'SEM MOTIVO', 'repeated internal spaces collapsed');

  const out = execFileSync(process.execPath, [BIN, 'status', '--data-dir', dataDir], { encoding: 'utf8' });
  assert.match(out, /month 2026-09/);
  assert.match(out, /establishments\s+1 rows/);
});

test('every quirk of the dump: quarantined lines, duplicates, dates, CEP, capital, alphanumeric CNPJ, encodings', async () => {
  const dataDir = tempDir();
  const dump = tempDir('dump-');
  writeZip(
    path.join(dump, 'Estabelecimentos0.zip'),
    'K3241.K03200Y0.D60913.ESTABELE',
    estabelecimento('11222333', '0001', '81', { 4: 'SWEET HOME II\nINCORPORADORA' }) +
      estabelecimento('11444777', '0001', '61', { 16: 'EDIF HORTO;BLOCO 2;ANDAR 805', 4: 'POLI BRILHO\\' }) +
      estabelecimento('11444777', '0002', '42', { 16: 'SALA\u0000 1', 5: '2', 6: '0', 10: '2021221', 18: '1001000' }) +
      estabelecimento('11444777', '0003', '23', {
        6: '00000000',
        10: '20230231',
        18: 'DE 19805',
        21: '011',
        22: '3333-4444',
        23: '0',
        24: '12345678901234567',
      }) +
      '"11222333";"0002";"62";"too";"few"\n' +
      estabelecimento('11222333', '0001', '99') + // wrong check digits
      estabelecimento('12ABC345', '01DE', '35', { 4: 'ALFANUMERICA' }) +
      estabelecimento('11222333', '0002', '62', { 4: 'FIRST VERSION' }) +
      '\n',
  );
  writeZip(
    path.join(dump, 'Estabelecimentos5.zip'),
    'K3241.K03200Y5.D60913.ESTABELE',
    estabelecimento('11222333', '0002', '62', { 4: 'SECOND VERSION' }),
  );
  writeZip(
    path.join(dump, 'Empresas0.zip'),
    'K3241.K03200Y0.D60913.EMPRECSV',
    rec('11222333', 'EMPRESA   UM  LTDA ', '2062', '49', '000000018000,00', '01', '') +
      rec('11444777', 'EMPRESA DOIS', '2062', '49', '999999999999,00', '05', '') +
      rec('11444777', 'EMPRESA DOIS', '2062', '49', '999999999999,00', '05', '') +
      rec('12ABC345', 'ALFA SA', '2054', '10', '1.234,56', '3', ''),
  );
  // "Secretário" stored as UTF-8 bytes inside the Latin-1 file (the 2021 QUALSCSV does this).
  writeZip(
    path.join(dump, 'Qualificacoes.zip'),
    'F.K03200$Z.D60913.QUALSCSV',
    rec('18', Buffer.from('Secretário', 'utf8').toString('latin1')) + rec('49', 'Sócio-Administrador'),
  );

  // A handful of hand-made files, not a month: published only with allowPartial.
  const s = await runImport({ dataDir, inputs: [dump], allowPartial: true });
  assert.equal(s.month, '2026-09', 'month read from the D60913 extraction date');
  const t = s.stats.tables;
  assert.equal(t.establishments.rejected, 2, 'short line and bad check digits quarantined');
  assert.equal(t.establishments.duplicates, 1);
  assert.equal(t.establishments.rows, 6);
  assert.equal(t.companies.duplicates, 1);
  assert.equal(t.companies.rows, 3);

  const rows = querySnapshot<Record<string, unknown>>(
    s.dir,
    'establishments.db',
    'SELECT * FROM establishments ORDER BY cnpj',
  );
  const by = Object.fromEntries(rows.map((r) => [r.cnpj as string, r]));
  assert.equal(
    by['11222333000181'].nome_fantasia,
    'SWEET HOME II INCORPORADORA',
    'quoted newline kept inside the field',
  );
  assert.equal(by['11444777000161'].complemento, 'EDIF HORTO;BLOCO 2;ANDAR 805');
  assert.equal(by['11444777000161'].nome_fantasia, 'POLI BRILHO\\');
  assert.equal(by['11444777000161'].email, 'a@B.com');
  assert.equal(by['11444777000242'].complemento, 'SALA 1', 'NUL stripped');
  assert.equal(by['11444777000242'].situacao_cadastral, 2);
  assert.equal(by['11444777000242'].data_situacao_cadastral, null);
  assert.equal(by['11444777000242'].data_inicio_atividade, null, '7-digit date');
  assert.equal(by['11444777000242'].cep, 1001000, '7-digit CEP: an INTEGER, padded back to 01001000 by the reader');
  assert.equal(by['11444777000323'].data_inicio_atividade, null, 'impossible date');
  assert.equal(by['11444777000323'].cep, 'DE 19805');
  // Phones: an INTEGER when it gives the same digits back, else the digit string, exactly.
  assert.equal(by['11444777000161'].ddd_1, 11);
  assert.equal(by['11444777000161'].telefone_1, 999999999);
  assert.equal(by['11444777000323'].ddd_1, '011', 'leading zero kept');
  assert.equal(by['11444777000323'].telefone_1, 33334444, 'punctuation dropped');
  assert.equal(by['11444777000323'].ddd_2, '0');
  assert.equal(by['11444777000323'].telefone_2, '12345678901234567', 'too long for an exact integer');
  assert.equal(by['11222333000262'].nome_fantasia, 'SECOND VERSION', 'last one wins across shards');
  assert.equal(by['12ABC34501DE35'].nome_fantasia, 'ALFANUMERICA');

  const comps = querySnapshot<{ basico: string; razao_social: string; capital_social_cents: number; porte: number }>(
    s.dir,
    'companies.db',
    'SELECT * FROM companies ORDER BY basico',
  );
  assert.deepEqual(
    comps.map((c) => [c.basico, c.razao_social, c.capital_social_cents, c.porte]),
    [
      ['11222333', 'EMPRESA UM LTDA', 1800000, 1],
      ['11444777', 'EMPRESA DOIS', 99999999999900, 5],
      ['12ABC345', 'ALFA SA', 123456, 3],
    ],
  );
  const [q] = querySnapshot<{ description: string }>(
    s.dir,
    'companies.db',
    'SELECT description FROM qualificacoes WHERE code = 18',
  );
  assert.equal(q.description, 'Secretário');

  assert.equal(s.rejectsFiles.length, 1);
  const rejects = fs.readFileSync(s.rejectsFiles[0], 'utf8').trim().split('\n');
  assert.equal(rejects.length, 3, 'header + 2 rejects');
  assert.equal(rejects[0], 'file\trecord\tline\treason\tcontent');
  assert.match(rejects[1], /^Estabelecimentos0\.zip:K3241\.K03200Y0\.D60913\.ESTABELE\t5\t6\t.*30/);
  assert.match(rejects[2], /wrong CNPJ check digits/);
});

test('rejects files keep the first MAX_REJECT_LINES records; the summary counts them all', async () => {
  const dump = copySamples(tempDir('dump-'));
  const dataDir = tempDir();
  try {
    const bad = MAX_REJECT_LINES + 2000;
    const lines = [
      rec('6204000', 'Consultoria em tecnologia da informação'),
      ...Array.from({ length: bad }, (_, i) => rec(`lixo ${i}`)),
    ];
    writeZip(path.join(dump, 'Cnaes.zip'), 'F.K03200$Z.D60913.CNAECSV', lines.join(''));
    const s = await runImport({ dataDir, inputs: [dump], month: '2026-09', allowPartial: true });
    assert.equal(s.stats.tables.cnaes.rows, 1);
    assert.equal(s.stats.tables.cnaes.rejected, bad);
    const written = fs.readFileSync(s.rejectsFiles[0], 'utf8').trim().split('\n');
    assert.equal(written.length, 1 + MAX_REJECT_LINES + 1, 'header, the first rejects, one closing note');
    assert.match(written.at(-2)!, /lixo 9999/);
    assert.match(written.at(-1)!, /only the first 10000 rejected records are written here/);
  } finally {
    for (const d of [dump, dataDir]) fs.rmSync(d, { recursive: true, force: true });
  }
});

test('a corrupt or truncated zip aborts the import and leaves the active snapshot untouched', async () => {
  const dataDir = tempDir();
  const first = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-08' });
  for (const damage of ['flip', 'truncate'] as const) {
    const dump = copySamples(tempDir('dump-'));
    const zip = path.join(dump, 'Socios0.zip');
    const bytes = fs.readFileSync(zip);
    if (damage === 'flip') bytes[120] ^= 0xff; // inside the deflate data
    fs.writeFileSync(zip, damage === 'flip' ? bytes : bytes.subarray(0, bytes.length - 40));
    await assert.rejects(runImport({ dataDir, inputs: [dump], month: '2026-09' }), (e: Error) => {
      assert.match(e.message, /Socios0\.zip/);
      // A truncated zip is caught while listing (before any build); a bad CRC while loading.
      assert.match(e.message, damage === 'flip' ? /active snapshot is unchanged/ : /truncated/);
      return true;
    });
    assert.equal((await active(dataDir))?.id, first.snapshotId);
    assert.deepEqual(buildingDirs(dataDir), []);
  }
});

test('a full disk aborts cleanly with a clear error', async () => {
  const dataDir = tempDir();
  await assert.rejects(
    runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09', testHooks: { maxPageCount: 3 } }),
    /disk full during the import/,
  );
  assert.equal(await active(dataDir), null);
  assert.deepEqual(buildingDirs(dataDir), []);
});

test('a killed import (SIGKILL) leaves the old snapshot active; the next import cleans up', async () => {
  const dataDir = tempDir();
  const first = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-08' });
  // A big enough establishments file that the import is still running when it is killed.
  const dump = tempDir('dump-');
  let text = '';
  for (let i = 0; i < 150_000; i++) {
    const base = String(10000000 + i);
    text += rec(
      base,
      '0001',
      '00',
      '1',
      'NOME FANTASIA QUALQUER',
      '02',
      '20200101',
      '00',
      '',
      '',
      '20200101',
      '6204000',
      '6201501,6202300',
      'RUA',
      'DAS FLORES',
      '100',
      'SALA 1',
      'CENTRO',
      '01001000',
      'SP',
      '7107',
      '11',
      '33334444',
      '',
      '',
      '',
      '',
      'x@y.com',
      '',
      '',
    );
  }
  writeZip(path.join(dump, 'Estabelecimentos0.zip'), 'K3241.K03200Y0.D60913.ESTABELE', text);
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [BIN, 'import', dump, '--data-dir', dataDir, '--allow-partial'], {
    stdio: 'ignore',
  });
  // Wait until the build folder exists (up to 30 s: a loaded machine starts the process slowly),
  // then kill the importer hard.
  for (let i = 0; i < 1200 && buildingDirs(dataDir).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.equal(buildingDirs(dataDir).length, 1, 'the import started');
  child.kill('SIGKILL');
  await new Promise((r) => child.on('exit', r));
  assert.equal((await active(dataDir))?.id, first.snapshotId, 'old snapshot still active');
  const second = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09' });
  assert.deepEqual(buildingDirs(dataDir), [], 'stale build removed');
  assert.equal((await active(dataDir))?.id, second.snapshotId);
});

test('re-import of newer months switches the active snapshot and prunes old ones', async () => {
  const dataDir = tempDir();
  const a = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-07' });
  const b = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-08' });
  assert.equal(b.previous, a.snapshotId);
  assert.ok(fs.existsSync(a.dir), 'previous month kept for rollback');
  const c = await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09' });
  assert.deepEqual(c.pruned, [a.snapshotId]);
  assert.ok(!fs.existsSync(a.dir));
  const app = await openAppDb(dataDir);
  const all = listSnapshots(app.sqlite, path.join(dataDir, 'registry'));
  await app.close();
  assert.deepEqual(
    all.map((x) => [x.month, x.status]),
    [
      ['2026-09', 'active'],
      ['2026-08', 'retired'],
      ['2026-07', 'deleted'],
    ],
  );
});

test('bad inputs: unknown files, no month, bad month, missing path', async () => {
  const dataDir = tempDir();
  const dump = tempDir('dump-');
  writeZip(path.join(dump, 'other.zip'), 'readme.txt', 'hello');
  await assert.rejects(runImport({ dataDir, inputs: [dump] }), /no Receita file recognised/);
  writeZip(path.join(dump, 'Empresas0.zip'), 'Empresas0', rec('11222333', 'X', '2062', '49', '0,00', '01', ''));
  await assert.rejects(runImport({ dataDir, inputs: [dump] }), /--month/);
  await assert.rejects(runImport({ dataDir, inputs: [dump], month: '2026-13' }), /invalid month/);
  await assert.rejects(runImport({ dataDir, inputs: [path.join(dump, 'nope')] }), /not found/);
  const r = await runImport({
    dataDir,
    inputs: [path.join(dump, 'Empresas0.zip')],
    month: '2026-09',
    allowPartial: true,
  });
  assert.equal(r.stats.tables.companies.rows, 1, 'a subset is imported with allowPartial');
  assert.ok(r.stats.missingFiles.includes('Estabelecimentos0.zip'));
});
