// How far V8 lets a server process's old generation grow between two full collections.
//
// Short-lived objects that survive two young-generation collections are promoted to the old
// generation, where only a full collection (mark-compact) frees them. A client that pipelines
// lookups without reading makes node parse a whole 64 KB read at once (hundreds of requests) and
// the in-flight bound parks them (docs/http-limits.md): they live long enough to be promoted, a
// few KB each, all garbage once answered. V8 starts the next full collection when the old
// generation reaches its size after the last one times a factor it picks between 1.1 and 4: up
// to several times the live heap in dead requests, more while marking runs, and the process's
// RSS follows (measured: docs/http-limits.md). A fixed factor of 2 halves that slack, at the
// price of more full collections where much is promoted; a request answered at once dies in the
// young generation and costs them nothing.
import v8 from 'node:v8';

/** The old generation may grow to (1 + this / 100) times what the last full collection kept. */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Sets V8's heap growing factor for this process (a runtime flag: V8 reads it each time it sets
 * the next limit). Called by the CLI before it starts a server, not by startServer(): the flag is
 * the whole process's, and tests start servers inside their own process.
 */
export function boundHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
