// A bounded pool: `work` runs over the items with at most `n` at a time. After the first failure
// no item is started; the pool settles once the items under way have ended, then throws that
// first failure (a caller that closes files or releases a lock must not race the others).

export async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      try {
        await work(items[next++]);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  if (failure !== null) throw (failure as { err: unknown }).err;
}
