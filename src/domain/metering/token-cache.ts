// Token records in memory, keyed on auth_epoch: every change to a token, an account or a plan
// bumps the epoch (from any process or node), and the records read under an older epoch go. A
// bound, not an LRU: the map is emptied when full; unknown hashes are never kept, so a flood of
// made-up tokens cannot grow it.
import type { TokenRecord } from '../../storage/app/metering.ts';

/** Token records kept in memory at most. */
export const TOKEN_CACHE_MAX = 10_000;

export class TokenCache {
  private readonly byHash = new Map<string, TokenRecord>();
  /** The auth_epoch the records were read under (-1: none read yet). */
  private current = -1;

  get epoch(): number {
    return this.current;
  }

  get(hash: string): TokenRecord | undefined {
    return this.byHash.get(hash);
  }

  /** The epoch as just read: when it is not the records', they go. True when it moved. */
  advance(epoch: number): boolean {
    if (epoch === this.current) return false;
    this.byHash.clear();
    this.current = epoch;
    return true;
  }

  /** Keeps a record read under the current epoch. */
  remember(hash: string, record: TokenRecord): void {
    if (this.byHash.size >= TOKEN_CACHE_MAX) this.byHash.clear();
    this.byHash.set(hash, record);
  }
}
