// The S3 release store against a real S3 implementation: OpenStack Swift with s3api (test/helpers/swift.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openS3Store, parseS3Url } from '../../../src/storage/releases/s3-store.ts';
import { NotFoundInStore, type ReleaseStore } from '../../../src/storage/releases/store.ts';
import { startSwift, type SwiftServer } from '../../helpers/swift.ts';

const MiB = 1024 * 1024;
let swift: SwiftServer;
let store: ReleaseStore;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 's3-store-test-'));

before(async () => {
  swift = await startSwift();
  await swift.createBucket('releases-test');
  // As an operator would configure it: the AWS variables, read by the SDK and by openS3Store.
  process.env.AWS_ENDPOINT_URL = swift.endpoint;
  process.env.AWS_ACCESS_KEY_ID = swift.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = swift.secretAccessKey;
  process.env.AWS_REGION = swift.region;
  store = await openS3Store('s3://releases-test/mirror/cnpj', { partBytes: 5 * MiB });
});

after(async () => {
  await store?.close();
  await swift?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

test('Swift started (startup time as a diagnostic)', (t) => {
  t.diagnostic(`Swift with s3api answered after ${Math.round(swift.startupMs)} ms`);
  assert.match(swift.endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
});

test('s3:// locations: bucket and an optional prefix', () => {
  assert.deepEqual(parseS3Url('s3://b'), { bucket: 'b', prefix: '' });
  assert.deepEqual(parseS3Url('s3://b/'), { bucket: 'b', prefix: '' });
  assert.deepEqual(parseS3Url('s3://b/a/c/'), { bucket: 'b', prefix: 'a/c/' });
  assert.throws(() => parseS3Url('http://b/a'), /not an S3 location/);
  assert.throws(() => parseS3Url('s3://b/../x'), /not an S3 location/);
});

test('the part size comes from CNPJ_API_S3_PART_BYTES and must be one S3 accepts', async () => {
  await assert.rejects(openS3Store('s3://releases-test', { partBytes: 1024 }), /part size/);
  await assert.rejects(openS3Store('s3://releases-test', { env: { CNPJ_API_S3_PART_BYTES: 'lots' } }), /part size/);
  const s = await openS3Store('s3://releases-test', {
    env: { ...process.env, CNPJ_API_S3_PART_BYTES: String(8 * MiB) },
  });
  await s.close();
});

test('putBytes then getBytes gives the bytes back; a missing key is null', async () => {
  const body = Buffer.from('{"release":"r1"}\n');
  await store.putBytes('latest.json', body);
  assert.deepEqual(await store.getBytes('latest.json'), body);
  assert.equal(await store.getBytes('nothing-here.json'), null);
  assert.equal(store.writable, true);
  assert.equal(store.label, 's3://releases-test/mirror/cnpj');
});

test('putFile of 23 MiB goes up in 5 MiB parts; ranges read back match the file; hasFile checks size and sha256', async () => {
  const file = path.join(work, 'companies.db');
  const size = 23 * MiB + 12_345;
  const bytes = crypto.randomBytes(size);
  fs.writeFileSync(file, bytes);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const key = 'releases/r1/snapshot/companies.db';

  const progress: number[] = [];
  await store.putFile(key, file, { size, sha256, onBytes: (d) => progress.push(d) });
  assert.equal(progress.length, 5, 'five parts: four of 5 MiB and the rest');
  assert.equal(
    progress.reduce((a, b) => a + b, 0),
    size,
  );
  assert.deepEqual(
    [...progress].sort((a, b) => a - b),
    [size - 20 * MiB, 5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB],
  );

  const ranges: [number, number][] = [
    [0, 1], // the first byte
    [5 * MiB - 100, 5 * MiB + 100], // across the first part boundary
    [10 * MiB - 1, 15 * MiB + 1], // spanning a whole part and both of its boundaries
    [size - 1000, size], // the last bytes
    [0, size], // the whole object
  ];
  for (const [start, end] of ranges) {
    const got = await collect(store.getRange(key, start, end));
    assert.equal(got.length, end - start, `length of ${start}-${end}`);
    assert.ok(got.equals(bytes.subarray(start, end)), `bytes ${start}-${end}`);
  }
  assert.equal((await collect(store.getRange(key, 42, 42))).length, 0, 'an empty range yields nothing');

  assert.equal(await store.hasFile(key, size, sha256), true);
  assert.equal(await store.hasFile(key, size, '0'.repeat(64)), false, 'another sha256');
  assert.equal(await store.hasFile(key, size + 1, sha256), false, 'another size');
  assert.equal(await store.hasFile('releases/r1/snapshot/other.db', size, sha256), false, 'missing');
});

test('putFile of a small file is one PutObject, with its sha256 too', async () => {
  const file = path.join(work, 'small.bin');
  const bytes = crypto.randomBytes(70_000);
  fs.writeFileSync(file, bytes);
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  let seen = 0;
  await store.putFile('releases/r1/small.bin', file, { size: bytes.length, sha256, onBytes: (d) => (seen += d) });
  assert.equal(seen, bytes.length);
  assert.equal(await store.hasFile('releases/r1/small.bin', bytes.length, sha256), true);
  assert.deepEqual(await collect(store.getRange('releases/r1/small.bin', 100, 200)), bytes.subarray(100, 200));
  await assert.rejects(store.putFile('releases/r1/x.bin', file, { size: 1, sha256 }), /70000 bytes, not the 1/);
});

test('getRange of a missing key throws NotFoundInStore', async () => {
  await assert.rejects(collect(store.getRange('releases/none/file.db', 0, 10)), (err: unknown) => {
    assert.ok(err instanceof NotFoundInStore);
    assert.equal(err.key, 'releases/none/file.db');
    return true;
  });
});

test('listReleases gives the folders under releases/; removeRelease deletes one whole', async () => {
  await store.putBytes('releases/a/x', Buffer.from('x'));
  await store.putBytes('releases/a/sub/deeper', Buffer.from('d'));
  await store.putBytes('releases/b/y', Buffer.from('y'));
  assert.deepEqual((await store.listReleases()).sort(), ['a', 'b', 'r1']);

  await store.removeRelease('a');
  assert.deepEqual((await store.listReleases()).sort(), ['b', 'r1']);
  assert.equal(await store.getBytes('releases/a/x'), null);
  assert.equal(await store.getBytes('releases/a/sub/deeper'), null);
  assert.deepEqual(await store.getBytes('releases/b/y'), Buffer.from('y'));

  // A multipart object goes too (Swift keeps its parts as segments elsewhere).
  await store.removeRelease('r1');
  assert.deepEqual(await store.listReleases(), ['b']);
  assert.equal(await store.getBytes('releases/r1/snapshot/companies.db'), null);
  await assert.rejects(store.removeRelease('a/b'), /not a release id/);
});

test('the prefix keeps stores apart in one bucket', async () => {
  const other = await openS3Store('s3://releases-test/elsewhere');
  try {
    assert.deepEqual(await other.listReleases(), []);
    assert.equal(await other.getBytes('latest.json'), null);
    await other.putBytes('releases/z/file', Buffer.from('z'));
    assert.deepEqual(await other.listReleases(), ['z']);
    assert.deepEqual(await store.listReleases(), ['b']);
  } finally {
    await other.close();
  }
});
