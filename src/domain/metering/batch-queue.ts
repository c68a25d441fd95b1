// The calls that arrive together are counted together: one batch per event-loop turn, one batch
// in flight at a time, and the calls arriving while it is on its way share the next one. So under
// load a batch grows to what arrives during one flush (app.db's fdatasync) or one round trip (the
// fleet's PostgreSQL) instead of what arrived in one turn, and the per-batch cost is paid once for
// the lot. Each call's promise settles only when its batch is durable. Both backends queue here
// (Meter, over app.db or PostgreSQL); what a batch does is the store's (storage/app/metering-*.ts).

/** Told of each batch once it is durable: its size and the seconds it took. */
export type OnBatch = (size: number, seconds: number) => void;

interface Pending<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
  /** Date.now() of the batch's first attempt that asked to be retried; 0 before. */
  since: number;
}

export interface BatchQueueOptions {
  onBatch?: OnBatch;
  /**
   * Whether a batch that failed with `err` goes back to the head of the queue and is tried again a
   * millisecond later, `since` being the time of its first such failure (app.db: another process
   * holds the write lock, waited for off the event loop).
   */
  retry?: (err: unknown, since: number) => boolean;
}

export class BatchQueue<T, R> {
  private pending: Pending<T, R>[] = [];
  private scheduled = false;
  /** A batch is on its way: the next waits for it to settle. */
  private inFlight = false;

  /**
   * `work` gets the items of a batch, in order, and promises one result for each, once the batch
   * is durable. It may also throw at once (the batch fails, or is retried).
   */
  constructor(
    private readonly work: (items: T[]) => Promise<R[]>,
    private readonly options: BatchQueueOptions = {},
  ) {}

  /** The item's result, once its batch is durable. */
  submit(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject, since: 0 });
      this.schedule();
    });
  }

  private schedule(retry = false): void {
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.flush();
    };
    // A retry waits a millisecond: a long-held lock must not spin.
    if (retry) setTimeout(run, 1);
    else setImmediate(run);
  }

  private flush(): void {
    if (this.inFlight || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const start = this.options.onBatch ? performance.now() : 0;
    let out: Promise<R[]>;
    try {
      out = this.work(batch.map((b) => b.item));
    } catch (err) {
      this.failed(batch, err);
      return;
    }
    this.inFlight = true;
    out.then(
      (results) => {
        this.settled();
        this.options.onBatch?.(batch.length, (performance.now() - start) / 1000);
        for (let i = 0; i < batch.length; i++) batch[i].resolve(results[i]);
      },
      (err: unknown) => {
        this.settled();
        this.failed(batch, err);
      },
    );
  }

  private failed(batch: Pending<T, R>[], err: unknown): void {
    const first = batch[0].since || Date.now();
    if (this.options.retry?.(err, first)) {
      for (const b of batch) b.since ||= first;
      this.pending = batch.concat(this.pending);
      this.schedule(true);
      return;
    }
    for (const b of batch) b.reject(err);
  }

  /** The batch on its way settled: what queued meanwhile goes next. */
  private settled(): void {
    this.inFlight = false;
    if (this.pending.length > 0) this.schedule();
  }
}
