// Issue 35's ranged queries, this checkout's build (A, dist/) against another ref's (B), interleaved on copies of one
// built index: /api/overview, /api/insights and /api/projects for today, 7 days, 365 days and all time, the server's
// result cache cleared before each request. Both servers run at once, each on its own copy of the index over the same
// config dirs; each request of A is paired with the same request of B, A first in even pairs and B first in odd ones,
// so a drift of the shared machine's speed falls on both alike. Printed per route: p50 and p95 per build and the median
// of the per-pair differences (B - A). Before timing, every answer of A is compared with B's (every number, to a
// relative 1e-9; the envelope's server state left out). Then, for the re-check figures, warm starts of A and B in turn
// (each scanning every file), timing requests until each start's scan is done.
//   node --import tsx bench/long-ranges.ts --index FILE --dirs DIR[,DIR…] [--ref main] [--runs 100] [--rechecks 2]
// FILE: an index of the dirs built once (`npm run bench` keeps none; start the server on the dirs with --index FILE,
// wait for "indexed"). It is copied, never written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRICES_FILE } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv, type ServerProcess } from '../test/helpers/server-process.ts';
import { buildRef } from './ab.ts';
import { clearServerCache, percentile } from './common.ts';

const args = process.argv.slice(2);
const argOf = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const source = argOf('--index');
const dirs = argOf('--dirs')?.split(',');
if (!source || !fs.existsSync(source) || !dirs) throw new Error('usage: long-ranges.ts --index FILE --dirs DIR[,DIR…] [--ref main] [--runs N] [--rechecks N]');
const ref = argOf('--ref') ?? 'main';
const runs = Number(argOf('--runs') ?? 100);
const rechecks = Number(argOf('--rechecks') ?? 2);
const ROUTES = ['overview', 'insights', 'projects'].flatMap((r) => ['today', '7', '365', 'all'].map((range) => `/api/${r}?range=${range}`));
const RECHECK_ROUTES = ['/api/overview?range=7', '/api/overview?range=all', '/api/insights?range=all'];
/** How long both servers are left alone after their start-up scan. */
const SETTLE_MS = 20_000;
/** What an answer holds of the server's state rather than of the index's figures. */
const STATE = new Set(['indexing', 'final', 'health', 'dirs']);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-long-ranges-'));
const copyOf = (name: string): string => {
  const file = path.join(work, `${name}.db`);
  fs.copyFileSync(source, file);
  if (fs.existsSync(`${source}.keys`)) fs.copyFileSync(`${source}.keys`, `${file}.keys`);
  return file;
};

const start = (entry: string, file: string): Promise<ServerProcess> => spawnServer({
  entry, args: ['--dir', dirs.join(','), '--port', '0', '--index', file, '--offline', '--prices', PRICES_FILE],
  env: standaloneEnv({ TZ: 'UTC' }), readyTimeoutMs: 300_000,
});
const indexed = (s: ServerProcess): Promise<number> => s.logged(/indexed \d+ files|no transcripts found/);

/** ms of one request, the result cache cleared first. */
async function timed(port: number, route: string): Promise<number> {
  const base = `http://127.0.0.1:${port}`;
  await clearServerCache(base);
  const t = performance.now();
  const res = await fetch(base + route);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${route}: ${res.status}`);
  return performance.now() - t;
}

/** The first place two answers differ (numbers to a relative 1e-9), or null. */
function difference(a: unknown, b: unknown, where = ''): string | null {
  if (typeof a === 'number' && typeof b === 'number') {
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) ? null : `${where}: ${a} != ${b}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${where}: ${a.length} items != ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = difference(a[i], b[i], `${where}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !(where === '' && STATE.has(k))));
    for (const k of keys) {
      const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${where}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${where}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`;
}

const json = async (port: number, route: string): Promise<unknown> => (await fetch(`http://127.0.0.1:${port}${route}`)).json();
const fmt = (v: number): string => v.toFixed(1).padStart(7);

const b = buildRef(ref, (line) => console.log(line));
const entries = { A: path.resolve('dist/main.js'), B: b.entry };
try {
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; A ${entries.A}, B ${ref} (${b.commit.slice(0, 7)})`);
  const servers = { A: await start(entries.A, copyOf('a')), B: await start(entries.B, copyOf('b')) };
  try {
    await Promise.all([indexed(servers.A), indexed(servers.B)]);
    // What follows "indexed" (the watcher's walk of every folder; A's first start on the copy also writes its key
    // dump again, the index format having moved) is not what is measured.
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    for (const route of ROUTES) {
      const d = difference(await json(servers.A.port, route), await json(servers.B.port, route));
      if (d) throw new Error(`${route}: the builds answer differently${d}`);
    }
    console.log('every answer of A equals B\'s');
    for (const route of ROUTES) {
      const t = { A: [] as number[], B: [] as number[] };
      const diffs: number[] = [];
      for (let i = 0; i < runs; i++) {
        for (const side of (i % 2 ? ['B', 'A'] : ['A', 'B']) as ('A' | 'B')[]) t[side].push(await timed(servers[side].port, route));
        diffs.push(t.B[i]! - t.A[i]!);
      }
      console.log(`${route.padEnd(24)} A p50 ${fmt(percentile(t.A, 50))} p95 ${fmt(percentile(t.A, 95))} | B p50 ${fmt(percentile(t.B, 50))} p95 ${fmt(percentile(t.B, 95))} | B - A median ${fmt(percentile(diffs, 50))} ms`);
    }
  } finally {
    await Promise.all([servers.A.stop(), servers.B.stop()]);
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  // Warm starts, one at a time (A, B, B, A, ...): requests from the banner until the start's re-check is done.
  const during = { A: new Map<string, number[]>(), B: new Map<string, number[]>() };
  const files = { A: copyOf('a-recheck'), B: copyOf('b-recheck') };
  for (let k = 0; k < rechecks; k++) {
    for (const side of (k % 2 ? ['B', 'A'] : ['A', 'B']) as ('A' | 'B')[]) {
      const s = await start(entries[side], files[side]);
      try {
        let done = false;
        void indexed(s).then(() => (done = true), () => (done = true));
        let n = 0;
        while (!done || n < 10) {
          for (const route of RECHECK_ROUTES) {
            const list = during[side].get(route) ?? [];
            list.push(await timed(s.port, route));
            during[side].set(route, list);
          }
          n++;
        }
      } finally {
        await s.stop();
      }
    }
  }
  for (const route of RECHECK_ROUTES) {
    const [a, bb] = [during.A.get(route)!, during.B.get(route)!];
    console.log(`during a re-check ${route.padEnd(24)} A p50 ${fmt(percentile(a, 50))} p95 ${fmt(percentile(a, 95))} (${a.length}) | B p50 ${fmt(percentile(bb, 50))} p95 ${fmt(percentile(bb, 95))} (${bb.length})`);
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  b.cleanup();
  fs.rmSync(work, { recursive: true, force: true });
}
