// What the counting path tells an observer (the server's metrics), so the domain stays free of
// any metrics library: plain calls, made once per group commit or per refused call, never per
// granted call.

export interface AccessObserver {
  /** A group commit is durable: how many calls it held and how long it took, commit and flush (s). */
  committed(size: number, seconds: number): void;
  /** The counting transaction refused a request (a call, or a batch's calls): the month's quota is used up. */
  quotaRefused(): void;
}
