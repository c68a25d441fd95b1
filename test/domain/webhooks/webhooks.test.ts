// Registration: https only unless http is allowed, private destinations refused (also by name),
// a secret of 32 random bytes returned once, the per-account cap, and every action scoped to
// the account.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_ACCOUNT,
  setWebhookEnabled,
} from '../../../src/domain/webhooks/webhooks.ts';
import { makeEnv } from './helpers.ts';

test('createWebhook: URL rules, SSRF at registration, secret, cap; list, disable, delete', async () => {
  const env = await makeEnv();
  const s = env.app.sqlite;
  const create = (url: string, policy = {}) =>
    createWebhook(s, { accountId: env.accountId, url, createdBy: '7' }, policy);
  try {
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
    assert.equal(s.prepare('SELECT count(*) FROM webhooks').pluck().get(), 0, 'nothing stored for a refusal');

    const { webhook, secret } = await create('https://8.8.8.8/hook#frag');
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64url').length, 32);
    assert.equal(webhook.url, 'https://8.8.8.8/hook');
    assert.deepEqual([webhook.enabled, webhook.pending, webhook.lastStatus, webhook.createdBy], [true, 0, null, '7']);
    const local = await create('http://localhost:8080/h', { allowHttp: true, allowPrivate: true });
    assert.equal(local.webhook.url, 'http://localhost:8080/h');
    assert.notEqual(local.secret, secret);

    for (let i = listWebhooks(s, env.accountId).length; i < MAX_WEBHOOKS_PER_ACCOUNT; i++)
      await create(`https://8.8.8.8/${i}`);
    await assert.rejects(create('https://8.8.8.8/mais'), /Limite de 5 webhooks/);

    assert.equal(setWebhookEnabled(s, env.accountId, webhook.id, false).enabled, false);
    assert.throws(() => setWebhookEnabled(s, env.accountId + 1, webhook.id, true), /não encontrado/);
    assert.throws(() => deleteWebhook(s, env.accountId + 1, webhook.id), /não encontrado/);
    deleteWebhook(s, env.accountId, webhook.id);
    assert.equal(listWebhooks(s, env.accountId).length, MAX_WEBHOOKS_PER_ACCOUNT - 1);
  } finally {
    await env.cleanup();
  }
});
