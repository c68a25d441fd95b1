// The batch queue both backends count through: the calls of one turn form one batch, one batch is
// in flight at a time and what arrives meanwhile forms the next, a failed batch fails its calls,
// and a batch asked to be retried keeps its order and is tried again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchQueue } from '../../../src/domain/metering/batch-queue.ts';

test('one batch per turn, one in flight; what arrives meanwhile goes in the next batch', async () => {
  const batches: number[][] = [];
  let release!: () => void;
  const q = new BatchQueue<number, number>((items) => {
    batches.push(items);
    return batches.length === 1
      ? new Promise((r) => (release = () => r(items.map((i) => i * 10))))
      : Promise.resolve(items.map((i) => i * 10));
  });
  const first = [1, 2, 3].map((i) => q.submit(i));
  await new Promise((r) => setImmediate(r));
  const second = [4, 5].map((i) => q.submit(i));
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(batches, [[1, 2, 3]], 'the second waits for the first to be durable');
  release();
  assert.deepEqual(await Promise.all(first), [10, 20, 30]);
  assert.deepEqual(await Promise.all(second), [40, 50]);
  assert.deepEqual(batches, [
    [1, 2, 3],
    [4, 5],
  ]);
});

test('a failed batch rejects its calls and the queue goes on', async () => {
  let n = 0;
  const q = new BatchQueue<string, string>((items) => {
    if (n++ === 0) throw new Error('disk full');
    return Promise.resolve(items);
  });
  const failed = [q.submit('a'), q.submit('b')];
  for (const p of failed) await assert.rejects(p, /disk full/);
  assert.equal(await q.submit('c'), 'c');
});

test('a batch asked to be retried keeps its place ahead of later calls, and gives up when told', async () => {
  let busy = 3;
  const seen: string[][] = [];
  const sizes: number[] = [];
  const q = new BatchQueue<string, string>(
    (items) => {
      seen.push(items);
      if (busy-- > 0) throw Object.assign(new Error('locked'), { code: 'SQLITE_BUSY' });
      return Promise.resolve(items.map((i) => i.toUpperCase()));
    },
    { retry: (err) => (err as { code?: string }).code === 'SQLITE_BUSY', onBatch: (size) => sizes.push(size) },
  );
  const a = q.submit('a');
  await new Promise((r) => setImmediate(r));
  const b = q.submit('b');
  assert.deepEqual(await Promise.all([a, b]), ['A', 'B']);
  assert.deepEqual(seen.at(-1), ['a', 'b'], 'the retried batch first, the later call behind it');
  assert.deepEqual(sizes, [2]);

  const never = new BatchQueue<string, string>(
    () => {
      throw Object.assign(new Error('locked'), { code: 'SQLITE_BUSY' });
    },
    { retry: (_err, since) => Date.now() - since < 30 },
  );
  await assert.rejects(never.submit('x'), /locked/);
});
