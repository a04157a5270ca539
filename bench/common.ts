// What the bench's scripts share.
import { threadCpu } from './thread-cpu.ts';

/** The p-th percentile of values (nearest rank); p = 50 is the median of an odd count. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Empties the server's result cache (POST /api/refresh), so the next request computes its answer. */
export async function clearServerCache(base: string): Promise<void> {
  const res = await fetch(`${base}/api/refresh`, { method: 'POST' });
  if (!res.ok) throw new Error(`refresh: ${res.status}`);
}

// The server counts as settled once its main thread spent under IDLE_CPU_MS in a SETTLE_STEP_MS step (thread-cpu.ts),
// waited for at most SETTLE_MAX_MS: after a start it works behind the answers for a while (the watcher's walk, a
// re-check of every file, the stored keys read a slice a turn), and queries measured then are partly that work's.
const SETTLE_STEP_MS = 1000;
const IDLE_CPU_MS = 20;
const SETTLE_MAX_MS = 120_000;

/** Waits until the process's main thread idles; returns how long that took (SETTLE_MAX_MS when it never did). */
export async function settled(pid: number): Promise<number> {
  const t = performance.now();
  let before = threadCpu(pid).mainMs;
  while (performance.now() - t < SETTLE_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
    const now = threadCpu(pid).mainMs;
    if (now - before < IDLE_CPU_MS) return performance.now() - t;
    before = now;
  }
  return SETTLE_MAX_MS;
}
