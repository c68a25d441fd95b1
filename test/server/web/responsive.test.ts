// The pages on a phone (390 px) and a desktop (1280 px) in a real browser: nothing wider than the
// screen, the token actions reachable, the chart legible, the date field in pt-BR, the curl example
// unbroken, a Portuguese 404 page, a favicon, a /docs page with a table of contents.
// Screenshots go to WEB_SCREENSHOTS_DIR when set (kept, to look at), else to a temp dir removed after.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createToken, deactivateToken } from '../../../src/domain/accounts/tokens.ts';
import { launchBrowser } from './chromium.ts';
import { PASSWORD, seedAccount, seedUsage, startTestServer, type TestServer } from './helpers.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

// A fixed "now": the 20th of a 30-day month, so ten days are still to come.
const NOW = new Date('2026-11-20T15:00:00Z');
const TODAY = 20;
const CNPJ = '33683111000280';
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

// The evaluate callbacks run in the browser; the project compiles without the DOM library.
declare const document: any, window: any, location: any, NodeFilter: any;

const keepShots = process.env.WEB_SCREENSHOTS_DIR;
const shots = keepShots ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-web-shots-'));

let server: TestServer;
let browser: Browser;

async function loggedInContext(width: number, height: number, locale = 'pt-BR'): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: { width, height }, locale });
  const page = await ctx.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill('admin@acme.com.br');
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${server.url}/api-de-cnpj`);
  await page.close();
  return ctx;
}

/** Nothing on the page is wider than the viewport (no sideways scrolling of the whole page). */
async function assertNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${label}: page is ${scrollWidth} px wide in a ${innerWidth} px viewport`);
}

/**
 * Nor is anything hidden sideways inside a box: tables and the curl example fit their box (only
 * the JSON example of /docs scrolls sideways, on purpose, to keep its indentation).
 */
async function assertNothingScrolledAway(page: Page, label: string): Promise<void> {
  const hidden = await page.evaluate(() =>
    [...document.querySelectorAll('.table-wrap, pre.code:not(.json)')]
      .filter((e: any) => e.offsetParent !== null && e.scrollWidth > e.clientWidth)
      .map((e: any) => `${e.tagName}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`),
  );
  assert.deepEqual(hidden, [], `${label}: content hidden sideways`);
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

before(async () => {
  server = await startTestServer({ now: () => NOW });
  const acme = await seedAccount(server.app, 'Acme Dados e Serviços Ltda', 'Ouro');
  await acme.user('admin@acme.com.br', 'billing_admin');
  const clock = () => NOW;
  const tokens = [
    await createToken(
      sqliteStore(server.app),
      { accountId: acme.account.id, name: 'produção servidor principal', expires: '90d', createdBy: 'cli' },
      clock,
    ),
    await createToken(
      sqliteStore(server.app),
      { accountId: acme.account.id, name: 'homologação', expires: '2027-01-31', createdBy: 'cli' },
      clock,
    ),
    await createToken(sqliteStore(server.app), { accountId: acme.account.id, name: 'antigo', createdBy: 'cli' }, clock),
  ];
  await deactivateToken(sqliteStore(server.app), tokens[2]!.id, { accountId: acme.account.id }, clock);
  seedUsage(server.app, {
    accountId: acme.account.id,
    tokenId: tokens[0]!.id,
    month: '2026-11',
    lastDay: TODAY,
    calls: (d) => ((d * 37) % 90) * 13 + 10,
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (!keepShots) fs.rmSync(shots, { recursive: true, force: true });
});

for (const vp of VIEWPORTS) {
  describe(`at ${vp.width} px`, () => {
    let ctx: BrowserContext;
    before(async () => {
      ctx = await loggedInContext(vp.width, vp.height);
    });
    after(async () => {
      await ctx?.close();
    });

    test('login page fits the screen and has a favicon', async () => {
      const anon = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, locale: 'pt-BR' });
      const page = await anon.newPage();
      await page.goto(`${server.url}/login`);
      await assertNoHorizontalOverflow(page, 'login');
      const icon = await page.locator('link[rel=icon]').getAttribute('href');
      assert.ok(icon, 'the layout links a favicon');
      const r = await page.request.get(`${server.url}${icon}`);
      assert.equal(r.status(), 200);
      assert.match(r.headers()['content-type'] ?? '', /^image\/svg\+xml/);
      assert.match(await r.text(), /^<svg /);
      // Browsers that ignore the link ask for /favicon.ico.
      const ico = await page.request.get(`${server.url}/favicon.ico`);
      assert.equal(ico.status(), 200);
      assert.match(ico.headers()['content-type'] ?? '', /^image\//);
      await shot(page, `login-${vp.name}`);
      await anon.close();
    });

    test('API area: fits, the chart is legible, future days are not shown as 0, the curl example keeps the CNPJ whole', async () => {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/api-de-cnpj`);
      await assertNoHorizontalOverflow(page, 'home');
      const chart = page.locator('svg.chart:visible');
      assert.equal(await chart.count(), 1, 'one chart shown at a time');
      // Legible: the axis labels are drawn at 10 px or more on screen, the bars at least 4 px wide.
      const labels = await chart
        .locator('text')
        .evaluateAll((els) => els.map((e: any) => e.getBoundingClientRect().height));
      assert.ok(labels.length >= 3);
      assert.ok(Math.min(...labels) >= 10, `axis labels drawn ${Math.min(...labels).toFixed(1)} px high`);
      const bars = await chart
        .locator('rect.bar')
        .evaluateAll((els) => els.map((e: any) => e.getBoundingClientRect().width));
      assert.equal(bars.length, TODAY, 'one bar per day so far, none for the days to come');
      assert.ok(Math.min(...bars) >= 4, `bars ${Math.min(...bars).toFixed(1)} px wide`);
      // The day-by-day table lists the days so far only.
      await page.getByText('Ver as chamadas dia a dia').click();
      await assertNothingScrolledAway(page, 'home');
      const rows = await page.locator('.chart-figure tbody tr').allTextContents();
      assert.equal(rows.length, TODAY);
      assert.match(rows.at(-1)!, /^20\/11/);
      assert.equal((await page.locator('main').textContent())!.includes('21/11'), false);

      // The curl example: the CNPJ on one line, nothing hidden sideways.
      const curl = page.locator('#exemplo-curl');
      assert.equal(
        (await curl.textContent())!.trim(),
        `curl -H "Authorization: Bearer SEU_TOKEN" ${server.url}/api/v1/brazilian_companies/${CNPJ}/company`,
      );
      const cnpjLines = await curl.evaluate((pre: any, cnpj) => {
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const at = n.textContent!.indexOf(cnpj);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(n, at);
          range.setEnd(n, at + cnpj.length);
          return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size;
        }
        return -1;
      }, CNPJ);
      assert.equal(cnpjLines, 1, 'the CNPJ sits on one line');
      await shot(page, `home-${vp.name}`);
      await page.close();
    });

    test('tokens: fits, every Desativar button is on screen, the expiry date field reads dd/mm/aaaa', async () => {
      const page = await ctx.newPage();
      await page.goto(`${server.url}/api-de-cnpj/tokens`);
      await assertNoHorizontalOverflow(page, 'tokens');
      await assertNothingScrolledAway(page, 'tokens');
      const buttons = page.getByRole('button', { name: /^(Desativar|Ativar) o token/ });
      assert.equal(await buttons.count(), 3);
      const innerWidth = await page.evaluate(() => window.innerWidth);
      for (const button of await buttons.all()) {
        await button.scrollIntoViewIfNeeded();
        const box = (await button.boundingBox())!;
        assert.ok(
          box.x >= 0 && box.x + box.width <= innerWidth,
          `button at x=${box.x}..${box.x + box.width} in ${innerWidth} px`,
        );
        // Not hidden inside a scrolled container: the button itself is what a tap there hits.
        const hit = await page.evaluate(
          ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent,
          [box.x + box.width / 2, box.y + box.height / 2],
        );
        assert.match(hit ?? '', /^(Desativar|Ativar)$/);
      }
      // Every cell of a row says what it is, also when the rows are stacked as cards.
      const row = page.locator('tr', { hasText: 'homologação' });
      assert.match((await row.textContent()) ?? '', /31\/01\/2027/);
      const field = page.getByLabel('Data de expiração');
      assert.equal(await field.getAttribute('placeholder'), 'dd/mm/aaaa');
      await shot(page, `tokens-${vp.name}`);
      await page.close();
    });

    test('docs: a table of contents whose links all land, and nothing wider than the screen', async () => {
      const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height }, locale: 'pt-BR' });
      await page.goto(`${server.url}/docs`);
      await assertNoHorizontalOverflow(page, 'docs');
      await assertNothingScrolledAway(page, 'docs');
      const toc = page.getByRole('navigation', { name: 'Sumário' });
      const targets = await toc.locator('a').evaluateAll((as) => as.map((a: any) => a.getAttribute('href')));
      assert.ok(targets.length >= 8, `${targets.length} entries`);
      for (const href of targets) {
        assert.match(href ?? '', /^#[a-z0-9-]+$/);
        assert.equal(await page.locator(href!).count(), 1, `${href} lands on one element`);
      }
      await shot(page, `docs-${vp.name}`);
      await toc.getByRole('link', { name: 'Erros' }).click();
      await page.waitForFunction(() => location.hash === '#erros');
      const top = await page.locator('#erros').evaluate((e: any) => e.getBoundingClientRect().top);
      assert.ok(top >= -1 && top < 120, `the section starts at the top of the screen (${top})`);
      await assertNoHorizontalOverflow(page, 'docs after jump');
      assert.ok(await page.locator('link[rel=icon]').count());
      await page.close();
    });

    test('404: a Portuguese page in the layout for browsers, JSON under /api/', async () => {
      const page = await ctx.newPage();
      const r = await page.goto(`${server.url}/pagina-que-nao-existe`);
      assert.equal(r!.status(), 404);
      assert.match(r!.headers()['content-type'] ?? '', /^text\/html/);
      await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), 'pt-BR');
      assert.equal(await page.locator('header.topbar').count(), 1);
      await assertNoHorizontalOverflow(page, '404');
      await shot(page, `404-${vp.name}`);
      const api = await page.goto(`${server.url}/api/v1/nada`);
      assert.equal(api!.status(), 404);
      assert.deepEqual(Object.keys(JSON.parse(await api!.text())), ['error', 'message']);
      await page.close();
    });
  });
}

test('an English-language browser still gets the expiry date as dd/mm/aaaa, and it is accepted', async () => {
  const ctx = await loggedInContext(390, 844, 'en-US');
  const page = await ctx.newPage();
  await page.goto(`${server.url}/api-de-cnpj/tokens`);
  const field = page.getByLabel('Data de expiração');
  assert.equal(await field.getAttribute('placeholder'), 'dd/mm/aaaa');
  await page.getByLabel('Nome', { exact: true }).fill('com data');
  await page.getByLabel('Expiração', { exact: true }).selectOption({ label: 'Data específica' });
  await field.fill('15/03/2027');
  await page.getByRole('button', { name: 'Criar token' }).click();
  await page.locator('#novo-token').waitFor();
  assert.match((await page.locator('tr', { hasText: 'com data' }).textContent()) ?? '', /15\/03\/2027/);
  // A date that does not exist is refused by the server with a message (the pattern only checks the shape).
  await page.getByLabel('Nome', { exact: true }).fill('data ruim');
  await page.getByLabel('Expiração', { exact: true }).selectOption({ label: 'Data específica' });
  await page.getByLabel('Data de expiração').fill('31/02/2027');
  await page.getByRole('button', { name: 'Criar token' }).click();
  await page.getByText('Data de expiração inválida').waitFor();
  assert.equal(await page.getByLabel('Data de expiração').inputValue(), '31/02/2027');
  await ctx.close();
});
