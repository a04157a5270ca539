// GET /metrics at 10 GiB (issue 35), this checkout's build (A, dist/) against another ref's (B), interleaved on copies
// of one index: each pair starts both builds back to back (A first in odd pairs, B first in even ones) on a fresh copy
// of INDEX (and its key dump), a warm start whose re-check passes every file, and times `GET /metrics` with the result
// cache cleared before each request: while the re-check runs (until "indexed", and at least 20 requests, as
// bench/first-answers.ts counts), then `after` requests once it is done.
//   node --import tsx bench/metrics-ab.ts INDEX DIR[,DIR…] REF [pairs] [after]
// After each scrape one `GET /api/pricing` (a small answer computed from nothing) is timed as a control: what any
// request waits for the main thread then. Prints per build and phase the median of the pairs' p50 and p95, each
// pair's difference (B - A), the load average, and whether the two builds' last texts are the same (the block's
// remaining seconds aside: they follow the clock).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRICES_FILE } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../test/helpers/server-process.ts';
import { buildRef } from './ab.ts';
import { clearServerCache, percentile } from './common.ts';

const [indexFile, dirList, ref, pairsArg, afterArg] = process.argv.slice(2);
if (!indexFile || !dirList || !ref) throw new Error('usage: bench/metrics-ab.ts INDEX DIR[,DIR…] REF [pairs] [after]');
const dirs = dirList.split(',');
const pairs = Number(pairsArg ?? 3);
const after = Number(afterArg ?? 100);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface Stats { p50: number; p95: number; max: number; n: number }
interface Run { recheck: Stats; idle: Stats; controlRecheck: Stats; controlIdle: Stats; text: string }

const stats = (t: number[]): Stats => ({ p50: percentile(t, 50), p95: percentile(t, 95), max: Math.max(...t), n: t.length });

async function scrape(base: string): Promise<{ ms: number; text: string }> {
  await clearServerCache(base);
  const t = performance.now();
  const res = await fetch(`${base}/metrics`);
  const body = await res.arrayBuffer();
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`/metrics: ${res.status}`);
  return { ms, text: Buffer.from(body).toString() };
}

async function control(base: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}/api/pricing`);
  await res.arrayBuffer();
  return performance.now() - t;
}

async function run(entry: string): Promise<Run> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-ab-'));
  const copy = path.join(work, 'index.db');
  fs.copyFileSync(indexFile!, copy);
  if (fs.existsSync(`${indexFile}.keys`)) fs.copyFileSync(`${indexFile}.keys`, `${copy}.keys`);
  const server = await spawnServer({
    entry, args: ['--dir', dirs.join(','), '--port', '0', '--index', copy, '--offline', '--prices', PRICES_FILE],
    env: standaloneEnv({ TZ: 'UTC' }), readyTimeoutMs: 120_000,
  });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    let done = false;
    void server.logged(/indexed \d+ files|no transcripts found/).then(() => (done = true), () => (done = true));
    const during: number[] = [];
    const controlDuring: number[] = [];
    while (!done || during.length < 20) {
      during.push((await scrape(base)).ms);
      controlDuring.push(await control(base));
    }
    const idle: number[] = [];
    const controlIdle: number[] = [];
    let text = '';
    for (let i = 0; i < after; i++) {
      const s = await scrape(base);
      idle.push(s.ms);
      text = s.text;
      controlIdle.push(await control(base));
    }
    return { recheck: stats(during), idle: stats(idle), controlRecheck: stats(controlDuring), controlIdle: stats(controlIdle), text };
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const b = buildRef(ref, log);
try {
  const builds = { A: path.resolve('dist/main.js'), B: b.entry };
  const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
  for (let i = 0; i < pairs; i++) {
    for (const side of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const r = await run(builds[side]);
      runs[side].push(r);
      const f = (x: Stats) => `p50 ${x.p50.toFixed(1)} p95 ${x.p95.toFixed(1)} max ${x.max.toFixed(1)} ms (${x.n})`;
      log(`pair ${i + 1} ${side}: re-check ${f(r.recheck)}; after ${f(r.idle)}; control: re-check ${f(r.controlRecheck)}, after ${f(r.controlIdle)}; ${r.text.length} chars; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    }
  }
  const med = (v: number[]) => percentile(v, 50);
  for (const phase of ['recheck', 'idle', 'controlRecheck', 'controlIdle'] as const) {
    for (const q of ['p50', 'p95'] as const) {
      const a = runs.A.map((r) => r[phase][q]);
      const bb = runs.B.map((r) => r[phase][q]);
      const diffs = a.map((x, i) => bb[i]! - x);
      console.log(`${phase.padEnd(14)} ${q}: A ${med(a).toFixed(1)} ms, B (${ref} ${b.commit.slice(0, 7)}) ${med(bb).toFixed(1)} ms; per-pair B - A: ${diffs.map((d) => d.toFixed(1)).join(', ')} ms`);
    }
  }
  const clockless = (t: string) => t.split('\n').filter((l) => !l.startsWith('cost_dashboard_block_remaining_seconds ')).join('\n');
  const same = runs.A.every((r, i) => clockless(r.text) === clockless(runs.B[i]!.text));
  console.log(`texts of each pair ${same ? 'identical' : 'DIFFERENT'} (the block's remaining seconds aside)`);
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  b.cleanup();
}
