// The server's webhook worker (docs/webhooks.md): queues newly recorded months for each webhook
// (at start and every `queueEveryMs`), and sends due deliveries: at most `concurrency` at once
// over all webhooks and one per webhook, so a slow or dead endpoint holds only its own queue.
// With app.db only one process of a `serve --workers N` cluster runs it (the primary picks which);
// in fleet mode (PostgreSQL) every node's server runs one, and each delivery is claimed by one
// worker at a time for LEASE_MS (attempts.ts).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Agent } from 'undici';
import type { HistoryReader } from '../history/reader.ts';
import type { AppStore } from '../../storage/app/store.ts';
import { claimDueDeliveries, pruneFinished, recordAttempt, releaseClaims, type DueDelivery } from './attempts.ts';
import type { DestinationPolicy } from './destination.ts';
import { monthsToQueue, queueMonth } from './queue.ts';
import { LEASE_MS, sendDelivery, webhookAgent } from './send.ts';

export interface WorkerOptions {
  store: AppStore;
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
  /** How long a claim holds (default LEASE_MS), for tests. */
  leaseMs?: number;
  /**
   * This is the only delivering process of the app state (app.db: the cluster's primary), so a
   * claim found at start is a dead process's and is sent again now rather than when its lease ends.
   * Off where other nodes deliver too (a fleet): their claims are live, a dead one's lease ends.
   */
  soleDeliverer?: boolean;
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
  private releasing: Promise<unknown> | null = null;
  /** The last failure said per step: an outage repeats its message every poll, said once. */
  private readonly said = new Map<string, string>();
  /** Written on the deliveries this worker claims: unique per worker, readable by an operator. */
  readonly claimant = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(private readonly o: WorkerOptions) {
    this.now = o.now ?? (() => new Date());
    this.log = o.log ?? (() => {});
    this.agent = webhookAgent(o.policy, o.timeoutMs);
  }

  start(): void {
    this.releasing = this.o.soleDeliverer
      ? releaseClaims(this.o.store).catch((err: Error) => this.log(`webhooks: releasing claims failed: ${err.message}`))
      : null;
    void this.queue();
    void this.pump();
    this.timers.push(setInterval(() => void this.pump(), this.o.pollMs ?? 2000).unref());
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
      await pruneFinished(this.o.store, this.now());
      this.said.delete('queueing');
      const months = this.o.history.months();
      const history = this.o.history.connection();
      if (history === null) return;
      for (const job of await monthsToQueue(this.o.store, months)) {
        if (this.stopping.signal.aborted) return;
        const n = await queueMonth(this.o.store, history, job, this.now());
        // 0: another node (or an earlier run) queued it.
        if (n > 0) this.log(`webhooks: queued ${n} deliveries of ${job.month} for webhook ${job.webhookId}`);
        void this.pump();
      }
    } catch (err) {
      if (!this.stopping.signal.aborted) this.trouble('queueing', err);
    }
  }

  /** Logs a step's failure unless it is the one last logged for that step. */
  private trouble(step: string, err: unknown): void {
    const message = (err as Error).message;
    if (this.said.get(step) === message) return;
    this.said.set(step, message);
    this.log(`webhooks: ${step} failed: ${message}`);
  }

  /** Claims due deliveries and starts their attempts while there is room. */
  async pump(): Promise<void> {
    if (this.pumping || this.stopping.signal.aborted) return;
    this.pumping = true;
    try {
      await this.releasing;
      const room = (this.o.concurrency ?? 8) - this.inFlight.size;
      if (room <= 0) return;
      const due = await claimDueDeliveries(
        this.o.store,
        this.now(),
        new Set(this.inFlight.keys()),
        room,
        this.claimant,
        this.o.leaseMs ?? LEASE_MS,
      );
      for (const d of due) {
        const p = this.attempt(d).finally(() => {
          this.inFlight.delete(d.webhookId);
          setImmediate(() => void this.pump());
        });
        this.inFlight.set(d.webhookId, p);
      }
      this.said.delete('claiming due deliveries');
    } catch (err) {
      if (!this.stopping.signal.aborted) this.trouble('claiming due deliveries', err);
    } finally {
      this.pumping = false;
    }
  }

  private async attempt(d: DueDelivery): Promise<void> {
    try {
      const outcome = await sendDelivery(this.agent, d, this.o.policy, this.now(), this.stopping.signal);
      if (this.stopping.signal.aborted && !outcome.ok) return;
      await recordAttempt(this.o.store, d.id, outcome, this.now(), this.claimant);
      if (!outcome.ok) this.log(`webhooks: delivery ${d.id} to webhook ${d.webhookId} failed: ${outcome.error}`);
    } catch (err) {
      if (!this.stopping.signal.aborted) this.log(`webhooks: delivery ${d.id} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Stops: no new attempt; those in flight are cut, their claims given up, and sent again by the
   * next worker that looks (this node's next start, or another node at once).
   */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    for (const t of this.timers) clearInterval(t);
    this.stopping.abort();
    await Promise.allSettled([...this.inFlight.values(), this.queueing]);
    // A pump that was claiming when the stop came has finished too (it holds `pumping`).
    while (this.pumping) await new Promise((r) => setTimeout(r, 5));
    await releaseClaims(this.o.store, this.claimant).catch(() => {});
    await this.agent.destroy().catch(() => {});
  }
}
