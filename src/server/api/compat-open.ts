// The operator's switch for the compat routes without a token (serve --compat-open-account):
// for an internal network whose clients cannot be given tokens, a compat call without one is
// counted on the named account, and each client address may make at most `perMinute` of them.
// The windows live in this process's memory: with --workers N each process keeps its own.

/** What the switch names: the account calls are counted on, and the per-address bound. */
export interface CompatOpen {
  /** Null until looked up: a fleet node started during an outage looks it up once its database answers (503 until then). */
  accountId: number | null;
  perMinute: number;
}

/** Addresses remembered per window at most: past it, a new address waits for the next window. */
const MAX_ADDRESSES = 100_000;
const WINDOW_MS = 60_000;

/** Fixed one-minute windows per client address, memory bounded whatever the clients do. */
export class AddressWindows {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly perMinute: number) {}

  /** Takes one call for `address` at `nowMs`: true, or the seconds until the window ends. */
  take(address: string, nowMs: number): true | { retryAfter: number } {
    if (nowMs - this.windowStart >= WINDOW_MS) {
      this.windowStart = nowMs - (nowMs % WINDOW_MS);
      this.counts.clear();
    }
    const used = this.counts.get(address);
    const refused = () => ({ retryAfter: Math.max(1, Math.ceil((this.windowStart + WINDOW_MS - nowMs) / 1000)) });
    if (used === undefined) {
      if (this.counts.size >= MAX_ADDRESSES || this.perMinute < 1) return refused();
      this.counts.set(address, 1);
      return true;
    }
    if (used >= this.perMinute) return refused();
    this.counts.set(address, used + 1);
    return true;
  }
}
