// The Webhooks page in a real browser at 390 px: register a receiver on loopback, the secret shown
// once verifies the test event's signature, the delivery shows as delivered, "Reenviar" sends the
// same id and body again; nothing wider than the phone. Members see without acting; the server's
// default policy refuses http:// and private destinations at registration.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startReceiver, verifies, type Receiver } from '../../domain/webhooks/helpers.ts';
import { launchBrowser } from './chromium.ts';
import { WebClient } from './client.ts';
import { PASSWORD, seedAccount, startTestServer, type TestServer } from './helpers.ts';

declare const document: any, window: any;

let server: TestServer;
let strict: TestServer;
let browser: Browser;
let receiver: Receiver;

before(async () => {
  receiver = await startReceiver();
  server = await startTestServer({ webhooks: { allowHttp: true, allowPrivate: true } });
  strict = await startTestServer();
  for (const s of [server, strict]) {
    const acme = await seedAccount(s.app, 'Acme Dados e Serviços Ltda');
    await acme.user('admin@acme.com.br', 'billing_admin');
    await acme.user('membro@acme.com.br', 'member');
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  await strict?.close();
  await receiver?.close();
});

async function login(email: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
  const page = await ctx.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(`${server.url}/api-de-cnpj`);
  return page;
}

async function fits(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  assert.ok(scrollWidth <= innerWidth, `${label}: page is ${scrollWidth} px wide in a ${innerWidth} px viewport`);
}

/** Reloads until the first delivery row shows `status` (the worker polls every 2 s). */
async function waitForStatus(page: Page, status: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const text = await page
      .locator('tr[data-delivery-id]')
      .first()
      .locator('.badge')
      .textContent()
      .catch(() => null);
    if (text === status) return;
    if (Date.now() > deadline) throw new Error(`delivery still "${text}"`);
    await page.waitForTimeout(500);
    await page.reload();
  }
}

test('register, secret shown once, test event signed with it, redeliver: at 390 px', async () => {
  const page = await login('admin@acme.com.br');
  await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
  await page.waitForURL(`${server.url}/api-de-cnpj/webhooks`);
  await fits(page, 'empty');
  await page.getByLabel('URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Cadastrar webhook' }).click();
  const secret = (await page.locator('#novo-segredo').textContent())!;
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  await fits(page, 'secret shown');
  await page.reload();
  assert.equal(await page.locator('#novo-segredo').count(), 0, 'shown once');

  await page.getByRole('button', { name: /Enviar evento de teste/ }).click();
  await receiver.waitFor(1);
  const first = receiver.received[0]!;
  assert.ok(verifies(secret, first), 'the signature verifies with the secret the page showed');
  assert.equal(JSON.parse(first.body).event, 'test');
  await waitForStatus(page, 'entregue');
  const row = page.locator('tr[data-delivery-id]').first();
  assert.equal(await row.getAttribute('data-delivery-id'), first.id);
  assert.match((await row.textContent())!, /Teste[\s\S]*entregue[\s\S]*1[\s\S]*200/);
  await fits(page, 'deliveries');
  // Kept to look at when WEB_SCREENSHOTS_DIR is set, as the other browser tests do.
  if (process.env.WEB_SCREENSHOTS_DIR)
    await page.screenshot({ path: `${process.env.WEB_SCREENSHOTS_DIR}/webhooks-phone.png`, fullPage: true });

  await row.getByRole('button', { name: 'Reenviar' }).click();
  await receiver.waitFor(2);
  assert.equal(receiver.received[1]!.id, first.id);
  assert.equal(receiver.received[1]!.body, first.body);
  await waitForStatus(page, 'entregue');
  assert.match((await page.locator('tr[data-delivery-id]').first().textContent())!, /entregue[\s\S]*2/);

  await page.getByRole('button', { name: /^Desativar/ }).click();
  assert.match((await page.locator('main').textContent())!, /desativado/);
  await page.context().close();
});

test('a member sees the webhooks and deliveries, with no form and no actions; a forged POST is refused', async () => {
  const page = await login('membro@acme.com.br');
  await page.goto(`${server.url}/api-de-cnpj/webhooks`);
  assert.equal(await page.locator(`code:text("${receiver.url}")`).count(), 1);
  assert.ok((await page.locator('tr[data-delivery-id]').count()) >= 1);
  assert.equal(await page.locator('main form').count(), 0);
  assert.match((await page.locator('main').textContent())!, /Somente administradores de cobrança/);
  await fits(page, 'member');
  await page.context().close();

  const member = new WebClient(server.url);
  await member.login('membro@acme.com.br', PASSWORD);
  const csrf_token = await member.csrf('/api-de-cnpj/webhooks');
  assert.equal((await member.post('/api-de-cnpj/webhooks', { csrf_token, url: receiver.url })).status, 403);
  assert.equal(server.app.sqlite.prepare('SELECT count(*) FROM webhooks').pluck().get(), 1);
});

test('default policy: http:// and private destinations refused at registration, nothing stored', async () => {
  const admin = new WebClient(strict.url);
  await admin.login('admin@acme.com.br', PASSWORD);
  const csrf_token = await admin.csrf('/api-de-cnpj/webhooks');
  for (const [url, message] of [
    ['http://8.8.8.8/h', 'A URL deve começar com https://.'],
    ['https://localhost/h', 'Destino não permitido'],
    ['https://169.254.169.254/latest/meta-data', 'Destino não permitido'],
  ] as const) {
    const r = await admin.post('/api-de-cnpj/webhooks', { csrf_token, url });
    assert.equal(r.status, 422, url);
    assert.ok((await r.text()).includes(message), `${url}: ${message}`);
  }
  assert.equal(strict.app.sqlite.prepare('SELECT count(*) FROM webhooks').pluck().get(), 0);
});

test('deleting asks for a confirmation first', async () => {
  const page = await login('admin@acme.com.br');
  await page.goto(`${server.url}/api-de-cnpj/webhooks`);
  await page.getByText('Excluir…').click();
  await fits(page, 'confirm delete');
  await page.getByRole('button', { name: /Confirmar a exclusão/ }).click();
  await page.waitForURL(`${server.url}/api-de-cnpj/webhooks`);
  assert.match((await page.locator('main').textContent())!, /Webhook excluído[\s\S]*Nenhum webhook cadastrado/);
  assert.equal(
    server.app.sqlite.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get(),
    0,
    'its deliveries went with it',
  );
  await page.context().close();
});
