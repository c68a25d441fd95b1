// The Monitoramento page in a real browser on a 390 px phone (and a desktop): reach it from the
// navigation, add a CNPJ with the form, see it listed and the limit used, read the month's changes
// (long values wrap, nothing wider than the screen), remove it with its button.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { addWatched } from '../../../src/domain/watchlist/add.ts';
import { openHistoryDb, writeMonth } from '../../../src/storage/history/db.ts';
import { launchBrowser } from './chromium.ts';
import { PASSWORD, seedAccount, startTestServer, type TestServer } from './helpers.ts';

// The evaluate callbacks run in the browser; the project compiles without the DOM library.
declare const document: any, window: any;

const shotsDir = process.env.WEB_SCREENSHOTS_DIR;
const WATCHED = makeCnpj('11222333', '0001');
let server: TestServer;
let browser: Browser;

before(async () => {
  server = await startTestServer();
  const acme = await seedAccount(server.app, 'Acme Dados e Serviços Ltda', 'Bronze');
  await acme.user('membro.com.um.email.comprido@acme.com.br', 'member');
  await addWatched({ backend: 'sqlite', db: server.app.db }, acme.account.id, [WATCHED], new Date());
  const db = openHistoryDb(server.dataDir);
  writeMonth(db, '2026-10', '2026-09', (insert) => {
    insert(WATCHED, 'alteracao', 'situacao_cadastral', '"ATIVA"', '"INAPTA"');
    insert(
      WATCHED,
      'alteracao',
      'logradouro',
      '"AVENIDA PRESIDENTE JUSCELINO KUBITSCHEK DE OLIVEIRA"',
      '"RUA DOUTOR ANTONIO BENTO DE ALMEIDA PRADO FILHO"',
    );
    insert(WATCHED, 'alteracao', 'email', '"contato.financeiro.departamento@empresa-muito-comprida.com.br"', '""');
    insert(
      '11222333',
      'alteracao',
      'socios',
      '[]',
      '[{"nome_socio":"MARIA DAS GRAÇAS DOS SANTOS OLIVEIRA DE ALBUQUERQUE","qualificacao_socio":"Sócio-Administrador"}]',
    );
    return { alteracao: 4 };
  });
  db.close();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function fits(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${label}: page is ${scrollWidth} px wide in ${innerWidth} px`);
  const hidden = await page.evaluate(() =>
    [...document.querySelectorAll('.table-wrap')]
      .filter((e: any) => e.scrollWidth > e.clientWidth)
      .map((e: any) => `${e.scrollWidth} > ${e.clientWidth}`),
  );
  assert.deepEqual(hidden, [], `${label}: a table hidden sideways`);
}

for (const vp of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
]) {
  test(`${vp.name} (${vp.width} px): add, see the changes, remove`, async () => {
    const ctx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, locale: 'pt-BR' });
    try {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/login`);
      await page.getByLabel('E-mail').fill('membro.com.um.email.comprido@acme.com.br');
      await page.getByLabel('Senha').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${server.url}/api-de-cnpj`);
      await fits(page, 'home with the longer navigation');

      await page.getByRole('link', { name: 'Monitoramento' }).click();
      await page.waitForURL(`${server.url}/api-de-cnpj/monitoramento`);
      assert.equal(await page.locator('#uso-lista').textContent(), '1 de 100 CNPJs');
      assert.equal(await page.locator('#mudancas tbody tr').count(), 4);
      assert.match(
        (await page.locator('#mudancas').textContent()) ?? '',
        /Situação cadastral\s*ATIVA\s*→\s*passou a\s*INAPTA/,
      );
      await fits(page, 'with the changes');

      await page.getByRole('textbox', { name: 'CNPJ' }).fill('33.683.111/0002-80');
      await page.getByRole('button', { name: 'Monitorar' }).click();
      await page.waitForURL(`${server.url}/api-de-cnpj/monitoramento`);
      assert.match(
        (await page.locator('#aviso').textContent()) ?? '',
        /CNPJ 33\.683\.111\/0002-80 adicionado à lista\./,
      );
      assert.equal(await page.locator('#uso-lista').textContent(), '2 de 100 CNPJs');
      assert.equal(await page.locator('#lista tbody tr').count(), 2);
      await fits(page, 'after adding');
      if (shotsDir)
        await page.screenshot({ path: path.join(shotsDir, `monitoramento-${vp.name}.png`), fullPage: true });

      await page.getByRole('button', { name: 'Remover 33.683.111/0002-80 da lista' }).click();
      await page.waitForURL(`${server.url}/api-de-cnpj/monitoramento`);
      assert.match((await page.locator('#aviso').textContent()) ?? '', /removido da lista/);
      assert.equal(await page.locator('#lista tbody tr').count(), 1);
    } finally {
      await ctx.close();
    }
  });
}
