// The SSRF address rules: what a webhook may never reach unless the operator allows private networks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbiddenAddress } from '../../../src/domain/webhooks/address.ts';

test('forbiddenAddress: loopback, private, link-local, CGNAT, multicast, unspecified and their IPv6 forms', () => {
  for (const ip of [
    '127.0.0.1',
    '127.8.9.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fc00::2',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
  ]) {
    assert.ok(forbiddenAddress(ip), `${ip} refused`);
  }
  for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
    assert.equal(forbiddenAddress(ip), null, `${ip} allowed`);
  }
  assert.ok(forbiddenAddress('not-an-ip'));
});
