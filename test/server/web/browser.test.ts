// The web app in a real browser (Debian's chromium via playwright-core) against a real server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { spDay, spMonth } from '../../../src/domain/metering/time.ts';
import { launchBrowser } from './chromium.ts';
import { PASSWORD, seedAccount, seedUsage, startTestServer, type TestServer } from './helpers.ts';

/** Screenshots, kept to look at, only when WEB_SCREENSHOTS_DIR is set: a test run leaves nothing in /tmp. */
const SHOTS = process.env.WEB_SCREENSHOTS_DIR;
const shot = async (page: { screenshot(o: { path: string; fullPage: boolean }): Promise<unknown> }, name: string) => {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};
const CNPJ = '33683111000280';

let server: TestServer;
let browser: Browser;

async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** API status for a token: anything but 401 means the token was accepted. */
async function apiStatus(token: string): Promise<number> {
  const r = await fetch(`${server.url}/api/v1/brazilian_companies/${CNPJ}/company`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await r.arrayBuffer();
  return r.status;
}

before(async () => {
  server = await startTestServer();
  const acme = await seedAccount(server.app, 'Acme Dados', 'Ouro');
  await acme.user('admin@acme.com.br', 'billing_admin');
  await acme.user('membro@acme.com.br', 'member');
  // Some usage this month, so the home page has numbers and bars to show.
  const now = new Date();
  const month = spMonth(now);
  const seedTok = server.app.sqlite
    .prepare(
      `INSERT INTO api_tokens (account_id, name, token_hash, display_prefix, expires_at, enabled, created_at, created_by)
       VALUES (?, 'legado', ?, 'cnpj_Lg7x', NULL, 1, ?, 'cli') RETURNING id`,
    )
    .get(acme.account.id, 'a'.repeat(64), now.toISOString()) as { id: number };
  seedUsage(server.app, {
    accountId: acme.account.id,
    tokenId: seedTok.id,
    month,
    lastDay: Number(spDay(now).slice(8, 10)),
    calls: (d) => ((d * 37) % 90) + 10,
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app in a browser', () => {
  test('login refuses a wrong password with a generic message, then lets the right one in', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, locale: 'pt-BR' });
    await login(page, 'admin@acme.com.br', 'senha-errada-000');
    await assert.doesNotReject(page.getByText('E-mail ou senha inválidos.').waitFor());
    assert.equal(new URL(page.url()).pathname, '/login');
    await shot(page, 'web-login-error');
    // Unknown e-mail: the very same message (no account enumeration).
    await login(page, 'ninguem@acme.com.br', 'qualquer-coisa-1');
    await page.getByText('E-mail ou senha inválidos.').waitFor();
    await login(page, 'admin@acme.com.br');
    await page.waitForURL(`${server.url}/api-de-cnpj`);
    await page.close();
  });

  test('keyboard only: the login form works with typing, Tab and Enter', async () => {
    const page = await browser.newPage({ locale: 'pt-BR' });
    await page.goto(`${server.url}/login`);
    // The e-mail field has focus on arrival; the first Tab stop of the page is the skip link.
    assert.equal(await page.evaluate('document.activeElement && document.activeElement.id'), 'email');
    await page.keyboard.type('admin@acme.com.br');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement && document.activeElement.id'), 'senha');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/api-de-cnpj`);
    await page.close();
  });

  test('billing admin: home, create a token shown once, deactivate and activate it, logout', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'pt-BR' });
    const page = await ctx.newPage();
    await login(page, 'admin@acme.com.br');
    await page.waitForURL(`${server.url}/api-de-cnpj`);
    await page.getByRole('heading', { name: 'API de CNPJ', level: 1 }).waitFor();
    const usage = (await page.locator('#uso-mes').textContent()) ?? '';
    assert.match(usage, /^\s*\d{1,3}(\.\d{3})* de 50\.000 chamadas\s*$/);
    assert.match(
      (await page.locator('#exemplo-curl').textContent()) ?? '',
      new RegExp(
        `^curl -H "Authorization: Bearer SEU_TOKEN" ${server.url}/api/v1/brazilian_companies/${CNPJ}/company$`,
      ),
    );
    // The compat routes are named, with their full URL on this server.
    const compat = page.getByRole('region', { name: 'Já usa outra API de CNPJ?' });
    for (const route of ['/api/cnpj/v1/{cnpj}', '/minha-receita/{cnpj}', '/opencnpj/{cnpj}', '/v1/cnpj/{cnpj}'])
      assert.match((await compat.textContent()) ?? '', new RegExp(`${server.url}${route.replace(/[{}]/g, '\\$&')}`));
    // One bar per day so far (the days still to come have none).
    assert.equal(await page.locator('svg.chart:visible rect.bar').count(), Number(spDay(new Date()).slice(8, 10)));
    await shot(page, 'web-home');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'web-home-mobile');
    await page.setViewportSize({ width: 1200, height: 900 });

    await page.getByRole('link', { name: 'Gerenciar Tokens da API' }).click();
    await page.waitForURL(`${server.url}/api-de-cnpj/tokens`);
    await page.getByLabel('Nome', { exact: true }).fill('produção');
    await page.getByLabel('Expiração', { exact: true }).selectOption({ label: '30 dias' });
    await page.getByRole('button', { name: 'Criar token' }).click();
    await page.waitForURL(`${server.url}/api-de-cnpj/tokens`);
    const token = ((await page.locator('#novo-token').textContent()) ?? '').trim();
    assert.match(token, /^cnpj_[0-9A-Za-z]{39}$/);
    await page.getByText('não será mostrado novamente').waitFor();
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('button', { name: 'Copiar token' }).click();
    await page.getByText('Copiado para a área de transferência.').waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), token);
    await shot(page, 'web-tokens-created');

    const row = page.locator('tr', { hasText: 'produção' });
    assert.match((await row.textContent()) ?? '', /ativo/);
    assert.notEqual(await apiStatus(token), 401);

    // Reload: the token is gone for good (one-time flash consumed on display).
    await page.reload();
    assert.equal(await page.locator('#novo-token').count(), 0);
    assert.equal((await page.content()).includes(token), false);

    await row.getByRole('button', { name: 'Desativar' }).click();
    await page.waitForURL(`${server.url}/api-de-cnpj/tokens`);
    await page.getByText('Token “produção” desativado.').waitFor();
    assert.match((await page.locator('tr', { hasText: 'produção' }).textContent()) ?? '', /desativado/);
    assert.equal(await apiStatus(token), 401);
    await shot(page, 'web-tokens-list');

    await page.locator('tr', { hasText: 'produção' }).getByRole('button', { name: 'Ativar' }).click();
    await page.getByText('Token “produção” ativado.').waitFor();
    assert.notEqual(await apiStatus(token), 401);

    // Permanent and fixed-date tokens show their expiry.
    await page.getByLabel('Nome', { exact: true }).fill('homologação');
    await page.getByLabel('Expiração', { exact: true }).selectOption({ label: 'Permanente' });
    await page.getByRole('button', { name: 'Criar token' }).click();
    await page.locator('#novo-token').waitFor();
    assert.match((await page.locator('tr', { hasText: 'homologação' }).textContent()) ?? '', /Permanente/);

    await page.getByRole('button', { name: 'Sair' }).click();
    await page.waitForURL(/\/login/);
    await page.getByText('Você saiu da sua conta.').waitFor();
    await page.goto(`${server.url}/api-de-cnpj/tokens`);
    assert.equal(new URL(page.url()).pathname, '/login');
    await ctx.close();
  });

  test('member sees list and usage but no controls; the server refuses their posts with 403', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: 'pt-BR' });
    const page = await ctx.newPage();
    await login(page, 'membro@acme.com.br');
    await page.waitForURL(`${server.url}/api-de-cnpj`);
    await page.getByRole('link', { name: 'Gerenciar Tokens da API' }).click();
    await page.getByText('Somente administradores de cobrança').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Criar token' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^(Ativar|Desativar)$/ }).count(), 0);
    assert.equal((await page.locator('tbody tr').count()) >= 1, true);
    await shot(page, 'web-tokens-member');

    // A hand-made POST with the member's own valid CSRF token is still refused.
    const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
    const tokenId = await page.locator('tbody tr').first().getAttribute('data-token-id');
    for (const path of [
      '/api-de-cnpj/tokens',
      `/api-de-cnpj/tokens/${tokenId}/desativar`,
      `/api-de-cnpj/tokens/${tokenId}/ativar`,
    ]) {
      const r = await page.request.post(`${server.url}${path}`, {
        form: { csrf_token: csrf, nome: 'x', expiracao: '30d' },
        maxRedirects: 0,
      });
      assert.equal(r.status(), 403, path);
    }
    await ctx.close();
  });

  test('state-changing posts without or with a wrong CSRF token get a 403 page', async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await login(page, 'admin@acme.com.br');
    await page.waitForURL(`${server.url}/api-de-cnpj`);
    const before = server.app.sqlite.prepare('SELECT count(*) AS n FROM api_tokens').get() as { n: number };
    const forms: Record<string, string>[] = [
      { nome: 'sem-csrf', expiracao: '30d' },
      { nome: 'csrf-errado', expiracao: '30d', csrf_token: 'x'.repeat(43) },
    ];
    for (const form of forms) {
      const r = await page.request.post(`${server.url}/api-de-cnpj/tokens`, { form, maxRedirects: 0 });
      assert.equal(r.status(), 403);
      assert.match(await r.text(), /token de segurança/);
    }
    const r = await page.request.post(`${server.url}/logout`, { form: {}, maxRedirects: 0 });
    assert.equal(r.status(), 403);
    const afterCount = server.app.sqlite.prepare('SELECT count(*) AS n FROM api_tokens').get() as { n: number };
    assert.equal(afterCount.n, before.n);
    // Still logged in: the refused logout did nothing.
    await page.goto(`${server.url}/api-de-cnpj`);
    assert.equal(new URL(page.url()).pathname, '/api-de-cnpj');
    await ctx.close();
  });
});
