// The server's webhook worker (docs/webhooks.md): queues newly recorded months for each webhook
// (at start and every `queueEveryMs`), and sends due deliveries: at most `concurrency` at once
// over all webhooks and one per webhook, so a slow or dead endpoint holds only its own queue.
// Only one process of a `serve --workers N` cluster runs it (the primary picks which).
import type { Agent } from 'undici';
import type { HistoryReader } from '../history/reader.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { dueDeliveries, pruneFinished, recordAttempt, type DueDelivery } from './attempts.ts';
import type { DestinationPolicy } from './destination.ts';
import { monthsToQueue, queueMonth } from './queue.ts';
import { sendDelivery, webhookAgent } from './send.ts';

export interface WorkerOptions {
  app: Sqlite;
  history: HistoryReader;
  policy: DestinationPolicy;
  now?: () => Date;
  log?: (line: string) => void;
  /** Deliveries in flight at once, over all webhooks. */
  concurrency?: number;
  /** How often due deliveries are looked for (ms); a finished attempt also looks at once. */
  pollMs?: number;
  /** How often newly recorded months are looked for (ms). */
  queueEveryMs?: number;
  /** Per-phase timeout of an attempt (connect, headers, body), for tests. */
  timeoutMs?: number;
}

export class WebhookWorker {
  private readonly now: () => Date;
  private readonly log: (line: string) => void;
  private readonly agent: Agent;
  private readonly stopping = new AbortController();
  private readonly inFlight = new Map<number, Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private pumping = false;
  private queueing: Promise<void> | null = null;

  constructor(private readonly o: WorkerOptions) {
    this.now = o.now ?? (() => new Date());
    this.log = o.log ?? (() => {});
    this.agent = webhookAgent(o.policy, o.timeoutMs);
  }

  start(): void {
    void this.queue();
    this.pump();
    this.timers.push(setInterval(() => this.pump(), this.o.pollMs ?? 2000).unref());
    this.timers.push(setInterval(() => void this.queue(), this.o.queueEveryMs ?? 30_000).unref());
  }

  /**
   * Queues what the recorded months owe each webhook (and deletes old finished deliveries); errors
   * are logged, retried next time.
   */
  queue(): Promise<void> {
    this.queueing ??= this.queueOnce().finally(() => (this.queueing = null));
    return this.queueing;
  }

  private async queueOnce(): Promise<void> {
    try {
      pruneFinished(this.o.app, this.now());
      const months = this.o.history.months();
      const history = this.o.history.connection();
      if (history === null) return;
      for (const job of monthsToQueue(this.o.app, months)) {
        if (this.stopping.signal.aborted) return;
        const n = await queueMonth(this.o.app, history, job, this.now());
        this.log(`webhooks: queued ${n} deliveries of ${job.month} for webhook ${job.webhookId}`);
        this.pump();
      }
    } catch (err) {
      if (!this.stopping.signal.aborted) this.log(`webhooks: queueing failed: ${(err as Error).message}`);
    }
  }

  /** Starts attempts for due deliveries while there is room. */
  pump(): void {
    if (this.pumping || this.stopping.signal.aborted) return;
    this.pumping = true;
    try {
      const room = (this.o.concurrency ?? 8) - this.inFlight.size;
      if (room <= 0) return;
      for (const d of dueDeliveries(this.o.app, this.now(), new Set(this.inFlight.keys()), room)) {
        const p = this.attempt(d).finally(() => {
          this.inFlight.delete(d.webhookId);
          setImmediate(() => this.pump());
        });
        this.inFlight.set(d.webhookId, p);
      }
    } catch (err) {
      this.log(`webhooks: reading due deliveries failed: ${(err as Error).message}`);
    } finally {
      this.pumping = false;
    }
  }

  private async attempt(d: DueDelivery): Promise<void> {
    try {
      const outcome = await sendDelivery(this.agent, d, this.o.policy, this.now(), this.stopping.signal);
      if (this.stopping.signal.aborted && !outcome.ok) return;
      recordAttempt(this.o.app, d.id, outcome, this.now());
      if (!outcome.ok) this.log(`webhooks: delivery ${d.id} to webhook ${d.webhookId} failed: ${outcome.error}`);
    } catch (err) {
      if (!this.stopping.signal.aborted) this.log(`webhooks: delivery ${d.id} failed: ${(err as Error).message}`);
    }
  }

  /** Stops: no new attempt; those in flight are cut and sent again at the next start. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    for (const t of this.timers) clearInterval(t);
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight.values(), this.queueing]);
    await this.agent.destroy().catch(() => {});
  }
}
