// What the bench's scripts share.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { threadCpu } from './thread-cpu.ts';

/** The p-th percentile of values (nearest rank); p = 50 is the median of an odd count. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One connection kept open for the timed requests, as a scraper or a browser keeps one. */
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * GET `route` and read the whole answer, as the server sends it: the time a request takes to its last byte. Node's
 * fetch spent ~20 ms of this process's own time on the 2.2 MB /metrics answer of a 10 GiB history (its p50 32 ms
 * where node:http's was 8 ms, the same server), so it is not what times a query.
 */
export function timedGet(base: string, route: string): Promise<number> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http.get(`${base}${route}`, { agent: keepAlive }, (res) => {
      res.on('data', () => {});
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`${route}: ${res.statusCode}`))));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * GET `route` with curl, a native client as Prometheus is: its time from the connect to the last byte. On /metrics
 * (2.2 MB at 10 GiB) node:http itself took most of the time it measured: the same settled server, 200 scrapes each,
 * load ~3.5, gave p50 22.7 ms with node:http and 5.8 ms with curl (bench/RESULTS.md, stop 23).
 */
export function timedCurl(base: string, route: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', `${base}${route}`], (err, out) => {
      if (err) return reject(new Error(`curl ${route}: ${err.message}`));
      const [code, seconds] = out.trim().split(' ');
      return code === '200' ? resolve(Number(seconds) * 1000) : reject(new Error(`${route}: ${code}`));
    });
  });
}

/** A scrape is timed as a scraper reads it (timedCurl), any other route as the dashboard's page does (timedGet). */
export function timedRead(base: string, route: string): Promise<number> {
  return route.startsWith('/metrics') ? timedCurl(base, route) : timedGet(base, route);
}

/** One query measured as every latency figure is (issue 35: "with the result cache cleared"): the cache emptied, then timedRead. */
export async function timedCleared(base: string, route: string): Promise<number> {
  await clearServerCache(base);
  return timedRead(base, route);
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
