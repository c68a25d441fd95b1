// The Consulta page in a real browser on a 390 px phone, against demo-400 imported for real: fill
// the form, submit, see rows, nothing wider than the screen, follow a row to the record, the
// "Baixar CSV" link present and downloading the page as CSV.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { createUser } from '../../../src/domain/accounts/users.ts';
import { runImport } from '../../../importer/run.ts';
import { openAppDb } from '../../../src/storage/app/sqlite.ts';
import { DEMO_400 } from '../../fixtures/index.ts';
import { serve, tempDataDir, type TestServer } from '../helpers.ts';
import { launchBrowser } from './chromium.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

// The evaluate callbacks run in the browser; the project compiles without the DOM library.
declare const document: any, window: any;

const PASSWORD = 'senha-segura-123';
/** Screenshots, kept to look at, only when WEB_SCREENSHOTS_DIR is set (as responsive.test.ts). */
const shotsDir = process.env.WEB_SCREENSHOTS_DIR;
let server: TestServer;
let browser: Browser;

before(async () => {
  const dataDir = tempDataDir();
  await runImport({ dataDir, inputs: [DEMO_400], month: '2026-09', allowPartial: true });
  const app = await openAppDb(dataDir);
  try {
    const account = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Ouro' });
    await createUser(sqliteStore(app), {
      accountId: account.id,
      email: 'membro@acme.com.br',
      password: PASSWORD,
      role: 'member',
    });
  } finally {
    await app.close();
  }
  server = await serve(dataDir);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Logs the member in, as a user does, and waits for the home page. */
async function logIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill('membro@acme.com.br');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${server.url}/api-de-cnpj`);
}

test('phone, 390 px: fill the form, submit, rows, follow a row, Baixar CSV', async () => {
  const ctx = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'pt-BR',
    acceptDownloads: true,
  });
  try {
    const page = await ctx.newPage();
    await logIn(page);

    await page.getByRole('link', { name: 'Consulta' }).click();
    await page.waitForURL(`${server.url}/api-de-cnpj/consulta`);
    await page.getByLabel('UF').selectOption('SP');
    await page.getByLabel('Situação cadastral').selectOption('ativa');
    await page.getByRole('button', { name: 'Consultar' }).click();
    await page.waitForURL(/\/api-de-cnpj\/consulta\?.*uf=SP/);
    const rows = page.locator('#resultados tbody tr');
    assert.ok((await rows.count()) > 0, 'rows shown');
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    assert.ok(scrollWidth <= innerWidth, `page is ${scrollWidth} px wide in ${innerWidth} px`);

    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, 'consulta-phone.png'), fullPage: true });
    const csvLink = page.locator('#baixar-csv');
    assert.equal(await csvLink.textContent(), 'Baixar CSV');
    const [download] = await Promise.all([page.waitForEvent('download'), csvLink.click()]);
    assert.equal(download.suggestedFilename(), 'empresas.csv');

    const first = rows.first().locator('a');
    const pretty = (await first.textContent())!.trim();
    await first.click();
    await page.waitForURL(/\/api-de-cnpj\/consulta\/[0-9A-Z]{14}$/);
    assert.match((await page.locator('.lead').textContent()) ?? '', new RegExp(pretty.replace(/[./]/g, '\\$&')));
    assert.ok((await page.locator('#ficha dt').count()) > 10, 'the company fields');
    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, 'consulta-record-phone.png'), fullPage: true });
    const rec = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    assert.ok(rec.scrollWidth <= rec.innerWidth, `record page is ${rec.scrollWidth} px wide in ${rec.innerWidth} px`);
  } finally {
    await ctx.close();
  }
});

test('typeahead: typing a name lists companies under the field; arrow keys and Enter open the record', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
  try {
    const page = await ctx.newPage();
    await logIn(page);
    await page.goto(`${server.url}/api-de-cnpj/consulta`);
    const field = page.getByRole('combobox', { name: 'Nome ou razão social' });
    // Typed key by key, a letter off in the last-but-one word, the last one unfinished.
    await field.pressSequentially('open knowlege bra', { delay: 30 });
    const options = page.getByRole('listbox', { name: 'Sugestões de empresas' }).getByRole('option');
    await options.first().waitFor();
    assert.match((await options.first().textContent()) ?? '', /OPEN KNOWLEDGE BRASIL/);
    assert.equal(await field.getAttribute('aria-expanded'), 'true');
    if (shotsDir) await page.screenshot({ path: path.join(shotsDir, 'consulta-typeahead.png') });
    await field.press('ArrowDown');
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    await field.press('Enter');
    await page.waitForURL(/\/api-de-cnpj\/consulta\/19131243[0-9]{6}$/);
    // Escape closes the list; a name submitted shows one row per company.
    await page.goto(`${server.url}/api-de-cnpj/consulta`);
    await field.pressSequentially('open know', { delay: 30 });
    await options.first().waitFor();
    await field.press('Escape');
    assert.equal(await page.locator('#c-q-sugestoes').isHidden(), true);
    await page.getByRole('button', { name: 'Consultar' }).click();
    await page.waitForURL(/q=open/);
    const roots = await page.locator('#resultados tbody th a').allTextContents();
    assert.ok(roots.length > 0);
    assert.equal(new Set(roots.map((r) => r.slice(0, 10))).size, roots.length, 'one row per company');
  } finally {
    await ctx.close();
  }
});
