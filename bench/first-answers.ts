// The figures of issue 35 that the rest of the bench does not take: how soon a first index makes today and the last 7
// days final, how long a request can wait while a new catalogue reprices the history, query latency while a warm start
// re-checks every file and while re-check passes follow each other.
import fs from 'node:fs';
import path from 'node:path';
import type { Overview } from '../src/shared/api-types.ts';
import { PRICES_FILE } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv, type ServerProcess } from '../test/helpers/server-process.ts';
import { clearServerCache, percentile, timedCleared } from './common.ts';
import { threadCpu } from './thread-cpu.ts';

const serverArgs = (dirs: string[], indexFile: string, prices: string): string[] =>
  ['--dir', dirs.join(','), '--port', '0', '--index', indexFile, '--offline', '--prices', prices];

const start = (dirs: string[], indexFile: string, prices = PRICES_FILE, env: Record<string, string> = {}): Promise<ServerProcess> =>
  spawnServer({ args: serverArgs(dirs, indexFile, prices), env: standaloneEnv({ TZ: 'UTC', ...env }), readyTimeoutMs: 120_000 });

/** A route's requests: their p50 and p95 in ms, and how many. */
export interface RouteLatency {
  p50: number;
  p95: number;
  n: number;
}

/** Rounds of one request to each route (cache cleared before each) while `more` says so; each route's figures. */
async function timeRoutes(base: string, routes: string[], more: (times: Record<string, number[]>) => boolean): Promise<Record<string, RouteLatency>> {
  const times: Record<string, number[]> = Object.fromEntries(routes.map((r) => [r, []]));
  while (more(times)) for (const route of routes) times[route]!.push(await timedCleared(base, route));
  return Object.fromEntries(routes.map((r) => [r, { p50: percentile(times[r]!, 50), p95: percentile(times[r]!, 95), n: times[r]!.length }]));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function overview(port: number, query: string): Promise<Overview> {
  const res = await fetch(`http://127.0.0.1:${port}/api/overview?${query}`);
  if (!res.ok) throw new Error(`overview ${query}: ${res.status}`);
  return (await res.json()) as Overview;
}

/** The UTC day (YYYY-MM-DD) of the newest transcript of `dirs`: the last day the generated history has entries. */
function lastDataDay(dirs: string[]): string {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  for (const d of dirs) walk(path.join(d, 'projects'));
  return new Date(newest).toISOString().slice(0, 10);
}

const dayBefore = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** What timeToFinal measures: ms from spawn until each range's overview answers `final: true`, and until indexed. */
export interface FirstFinal {
  todayMs: number;
  sevenDaysMs: number;
  /**
   * The same for the history's own last day and last 7 days (custom ranges ending on the newest transcript's day). A
   * generated corpus ends where it was made (gen-corpus.mjs --end), so days later "today" holds no entry and is final
   * as soon as the scan starts; these ranges are what a user with activity up to today waits for.
   */
  lastDay: string;
  lastDayMs: number;
  lastSevenDaysMs: number;
  indexedMs: number;
}

/** The overview queries of the ranges timeToFinal and the A/B time: today, 7 days, and the history's last day and week. */
export function finalRanges(dirs: string[]): { lastDay: string; queries: Record<FinalRange, string> } {
  const last = lastDataDay(dirs);
  return { lastDay: last, queries: { today: 'range=today', '7': 'range=7', lastDay: `from=${last}&to=${last}`, last7: `from=${dayBefore(last, 6)}&to=${last}` } };
}

export type FinalRange = 'today' | '7' | 'lastDay' | 'last7';

/** Polls a first index every 20 ms: ms from its spawn until each range's overview answers `final: true`. */
export async function untilFinal(server: Pick<ServerProcess, 'port' | 'spawnedAt'>, queries: Record<FinalRange, string>): Promise<Record<FinalRange, number>> {
  const found: Record<FinalRange, number | null> = { today: null, '7': null, lastDay: null, last7: null };
  while (Object.values(found).includes(null)) {
    for (const [name, query] of Object.entries(queries) as [FinalRange, string][]) {
      if (found[name] === null && (await overview(server.port, query)).final) found[name] = performance.now() - server.spawnedAt;
    }
    if (performance.now() - server.spawnedAt > 600_000) throw new Error('never final');
    await sleep(20);
  }
  return found as Record<FinalRange, number>;
}

/** A first index from nothing (the server runs in UTC, so the history's days are UTC days). */
export async function timeToFinal(dirs: string[], indexFile: string): Promise<FirstFinal> {
  for (const suffix of ['', '-wal', '-shm', '.keys']) fs.rmSync(indexFile + suffix, { force: true });
  const { lastDay, queries } = finalRanges(dirs);
  const server = await start(dirs, indexFile);
  try {
    const indexed = server.logged(/indexed \d+ files|no transcripts found/);
    const found = await untilFinal(server, queries);
    return { todayMs: found.today, sevenDaysMs: found['7'], lastDay, lastDayMs: found.lastDay, lastSevenDaysMs: found.last7, indexedMs: (await indexed) - server.spawnedAt };
  } finally {
    await server.stop();
  }
}

/** Query latency (cache cleared before each) from a warm start until its re-check of every file is done. */
export async function latencyDuringRecheck(dirs: string[], indexFile: string, routes: string[]): Promise<Record<string, RouteLatency>> {
  const server = await start(dirs, indexFile);
  try {
    let done = false;
    void server.logged(/indexed \d+ files|no transcripts found/).then(() => (done = true), () => (done = true));
    return await timeRoutes(`http://127.0.0.1:${server.port}`, routes, (times) => !done || routes.some((r) => times[r]!.length < 20));
  } finally {
    await server.stop();
  }
}

/** A re-check pass after another: the interval (COST_RECHECK_MS) is shorter than a pass of a big history. */
const PASSES_BACK_TO_BACK_MS = 200;
/** Past a warm start's own background work: the watcher's walk and the pass after it (at 10 GiB: bench/RESULTS.md). */
const AFTER_START_MS = 20_000;

/**
 * Query latency during re-check passes in the steady state (issue 35's "during a re-check pass", without a start's
 * first answers, which latencyDuringRecheck times): the server re-checks every file pass after pass
 * (COST_RECHECK_MS), each route has answered since its start, and the start's walk is over. `runs` requests per route,
 * cache cleared; `passesBusy`, the share of the main thread the passes alone take (2 s with no request, before).
 */
export async function latencyDuringRechecks(dirs: string[], indexFile: string, routes: string[], runs = 100, afterStartMs = AFTER_START_MS): Promise<{
  latency: Record<string, RouteLatency>;
  passesBusy: number;
}> {
  const server = await start(dirs, indexFile, PRICES_FILE, { COST_RECHECK_MS: String(PASSES_BACK_TO_BACK_MS) });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    for (const route of routes) for (let i = 0; i < 3; i++) await timedCleared(base, route);
    await sleep(afterStartMs);
    const before = threadCpu(server.child.pid!).mainMs;
    await sleep(2000);
    const passesBusy = (threadCpu(server.child.pid!).mainMs - before) / 2000;
    return { latency: await timeRoutes(base, routes, (times) => times[routes[0]!]!.length < runs), passesBusy };
  } finally {
    await server.stop();
  }
}

/**
 * A warm start with a catalogue where the costliest model (every catalogue key naming it) costs 25% more: the longest wait of a cheap request
 * (`/api/pricing`, every 10 ms) from the banner until the all-time cost shows the new price, and how long that took.
 */
export async function repriceStall(dirs: string[], indexFile: string, work: string): Promise<{ maxWaitMs: number; p99WaitMs: number; repricedMs: number; model: string }> {
  const before = await (async () => {
    const s = await start(dirs, indexFile);
    try {
      return await overview(s.port, 'range=all');
    } finally {
      await s.stop();
    }
  })();
  const model = [...before.costByModel].sort((a, b) => b.cost - a.cost)[0]!.model;
  const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, Record<string, unknown>>;
  let changed = 0;
  for (const [key, entry] of Object.entries(catalogue)) {
    if (!key.includes(model)) continue;
    for (const [field, v] of Object.entries(entry)) if (field.endsWith('_cost_per_token') && typeof v === 'number') entry[field] = v * 1.25;
    changed++;
  }
  if (!changed) throw new Error(`no catalogue entry for ${model}`);
  const prices = path.join(work, 'prices-changed.json');
  fs.writeFileSync(prices, JSON.stringify(catalogue));
  const server = await start(dirs, indexFile, prices);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const waits: number[] = [];
    let repricedMs: number | null = null;
    let lastCheck = 0;
    while (repricedMs === null) {
      const t = performance.now();
      const res = await fetch(`${base}/api/pricing`);
      await res.arrayBuffer();
      waits.push(performance.now() - t);
      if (performance.now() - lastCheck > 250) {
        lastCheck = performance.now();
        await clearServerCache(base);
        // Lines with their own costUSD keep it, so the total moves by the rows priced from tokens only.
        if ((await overview(server.port, 'range=all')).totals.cost > before.totals.cost * (1 + 1e-6)) repricedMs = performance.now() - server.readyAt;
      }
      if (performance.now() - server.readyAt > 180_000) throw new Error('the new catalogue never repriced');
      await sleep(10);
    }
    return { maxWaitMs: Math.max(...waits), p99WaitMs: percentile(waits, 99), repricedMs, model };
  } finally {
    await server.stop();
  }
}
