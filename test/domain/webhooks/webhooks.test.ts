// Registration, on both backends: https only unless http is allowed, private destinations refused
// (also by name), a secret of 32 random bytes returned once, the per-account cap (also with two
// nodes creating at once), and every action scoped to the account.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_ACCOUNT,
  setWebhookEnabled,
} from '../../../src/domain/webhooks/webhooks.ts';
import { openAppStore, type OpenAppStore } from '../../../src/storage/app/store.ts';
import { forBackends, freshDatabaseUrl, tempDataDir } from '../../helpers/app-backends.ts';
import { insertAccount, makeEnv } from './helpers.ts';

forBackends('webhooks', ({ backend, open }) => {
  test('createWebhook: URL rules, SSRF at registration, secret, cap; list, disable, delete', async () => {
    const env = await makeEnv(open);
    const s = env.app;
    const create = (url: string, policy = {}) =>
      createWebhook(s, { accountId: env.accountId, url, createdBy: '7' }, policy);
    await assert.rejects(create('http://8.8.8.8/h'), /deve começar com https:\/\//);
    await assert.rejects(create('ftp://8.8.8.8/h', { allowHttp: true }), /https:\/\/ ou http:\/\//);
    await assert.rejects(create('nada'), /URL inválida/);
    await assert.rejects(create('https://u:p@8.8.8.8/h'), /usuário ou senha/);
    for (const url of [
      'https://127.0.0.1/h',
      'https://localhost/h',
      'https://10.0.0.5/h',
      'https://169.254.169.254/latest',
      'https://[::1]/h',
      'https://[fd00::1]/h',
      'https://0.0.0.0/',
    ]) {
      await assert.rejects(
        create(url),
        (e: Error) => e.name === 'WebhookError' && /Destino não permitido/.test(e.message),
        url,
      );
    }
    assert.equal((await s.db.selectFrom('webhooks').selectAll().execute()).length, 0, 'nothing stored for a refusal');

    const { webhook, secret } = await create('https://8.8.8.8/hook#frag');
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64url').length, 32);
    assert.equal(webhook.url, 'https://8.8.8.8/hook');
    assert.deepEqual([webhook.enabled, webhook.pending, webhook.lastStatus, webhook.createdBy], [true, 0, null, '7']);
    const local = await create('http://localhost:8080/h', { allowHttp: true, allowPrivate: true });
    assert.equal(local.webhook.url, 'http://localhost:8080/h');
    assert.notEqual(local.secret, secret);

    for (let i = (await listWebhooks(s, env.accountId)).length; i < MAX_WEBHOOKS_PER_ACCOUNT; i++)
      await create(`https://8.8.8.8/${i}`);
    await assert.rejects(create('https://8.8.8.8/mais'), /Limite de 5 webhooks/);

    assert.equal((await setWebhookEnabled(s, env.accountId, webhook.id, false)).enabled, false);
    await assert.rejects(setWebhookEnabled(s, env.accountId + 1, webhook.id, true), /não encontrado/);
    await assert.rejects(deleteWebhook(s, env.accountId + 1, webhook.id), /não encontrado/);
    await deleteWebhook(s, env.accountId, webhook.id);
    assert.equal((await listWebhooks(s, env.accountId)).length, MAX_WEBHOOKS_PER_ACCOUNT - 1);
  });

  test('two nodes creating 10 webhooks at once for one account: exactly the cap is created', async () => {
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const dir = tempDataDir();
    const nodes: OpenAppStore[] = [await openAppStore(dir, url)];
    try {
      // SQLite: one store, its connection takes the transactions in turn (see watchlist.test.ts).
      if (url) nodes.push(await openAppStore(tempDataDir(), url));
      const accountId = await insertAccount(nodes[0]!, 'Acme');
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          createWebhook(nodes[i % nodes.length]!, { accountId, url: `https://8.8.8.8/${i}`, createdBy: '1' }, {}),
        ),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, MAX_WEBHOOKS_PER_ACCOUNT);
      for (const r of results) if (r.status === 'rejected') assert.match(String(r.reason), /Limite de 5 webhooks/);
      assert.equal((await listWebhooks(nodes[nodes.length - 1]!, accountId)).length, MAX_WEBHOOKS_PER_ACCOUNT);
    } finally {
      for (const n of nodes) await n.close();
    }
  });
});
