// Which PostgreSQL failures mean "the shared database cannot be reached now" (fleet mode): the
// server answers those 503 database_unavailable with Retry-After, and recovers by itself once
// the pool connects again; any other error stays a fault of ours (500).

/** The hot path could not reach the shared database: nothing was answered from it. */
export class DatabaseUnavailable extends Error {
  readonly code = 'database_unavailable';
  constructor(cause: unknown) {
    super(`the shared database is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'DatabaseUnavailable';
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * A connection failure, a timeout of ours, or the server refusing work while it shuts down,
 * starts or recovers (SQLSTATE class 08, 57P01–57P03, 53300 too many connections).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailable) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code)) return true;
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')
    return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  // pg's own words for a connection it lost or could not open in time, and its query timeout.
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client was closed|connect ECONNREFUSED|Client has encountered a connection error/i.test(
    message,
  );
}
