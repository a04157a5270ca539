// The server lives for days, and its answers allocate in bursts: a year's query builds tens of MB of rows, and the
// scavenges that run while it is still being answered move them to the old generation. V8 lets the old generation grow
// to up to ~4 times what its last full collection kept before it collects again, so at 10 GiB a warm server that kept
// ~60 MB alive held 220-250 MB of heap between collections: most of its peak resident memory (bench/RESULTS.md).
import v8 from 'node:v8';

/** How far the old generation may grow past what the last full collection kept, in percent. */
export const HEAP_GROWING_PERCENT = 30;

/**
 * Collect the old generation once it is 30% over its live size: from the moment the start-up scan is done and the
 * watcher live, or, in a first index, the scan has made the last week final. At a big first index's peak resident
 * memory, most of its main heap was garbage; collecting it at every 30% from the start delayed its first answers, so
 * the setting waits for them (bench/RESULTS.md, stop 25). V8 reads the flag at each full collection, so it applies
 * from the next one on; it is process-wide (the parse workers' heaps too, which are small and short-lived).
 */
export function keepHeapNearLive(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
