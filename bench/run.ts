// `npm run bench`: end-to-end figures of the built server (dist/main.js) on generated corpora.
// Per size: cold index time and MB/s, peak RSS (to "indexed", by 35 s after it, and of the warm server), index size,
// warm restart to a queryable index, append-to-visible latency, ranged query latency (server cache cleared before
// each request; right after the warm start, and again once the server's main thread idles), a 200-client load test,
// ccusage 20.0.24 on the same corpus for comparison, the parse floor (bench/parse-floor.ts), and the command line's statusline and daily report on the warm index beside ccusage's
// (bench/cli.ts, over every dir of the size: at 10240 the ten corpora; its appends go to a copy of a session outside
// the corpora). The cold index, the parse floor and ccusage are medians of three runs (--cold-runs) over a corpus in
// the page cache. Corpora are cached in .cache/bench (git-ignored). A size of N x 1024 MiB above 1024 is N corpora of
// 1 GiB (seeds 11, 12, ...) read as N --dirs, as a heavy user's history of several machines; --corpora DIR takes them
// from DIR/s11, DIR/s12, ... where they were generated already (the append test adds a transcript there and removes it).
//   npm run bench [-- --sizes 100,1024,10240] [--corpora DIR] [--cold-runs N] [--skip-load] [--skip-ccusage] [--skip-ui]
//                 [--skip-cli] [--skip-floor] [--skip-first]
// `--ab <git ref>` instead compares this build with the ref's on each size (bench/ab.ts), --cold-runs pairs of runs;
// `--dirs DIR[,DIR…]` gives it config dirs to read instead of the generated corpora; `--ab-a <ref>` builds A from that
// ref instead of this checkout (one change between two older commits, with today's harness).
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureCcusage } from '../scripts/ensure-ccusage.mjs';
import { listTranscripts, type FoundFile } from '../src/ingest/discovery.ts';
import { PRICES_FILE, ROOT, SHARED } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../test/helpers/server-process.ts';
import { cliBench, describeCli, type CliFigures } from './cli.ts';
import { describeCpu } from './cold-cpu.ts';
import { clearServerCache, percentile, settled, timedCleared } from './common.ts';
import { parseFloor } from './parse-floor.ts';
import { threadCpu, type ThreadCpu } from './thread-cpu.ts';
import { browserBench } from './ui.ts';
import { abBench, describeAb } from './ab.ts';
import { latencyDuringRecheck, latencyDuringRechecks, repriceStall, timeToFinal, type FirstFinal, type RouteLatency } from './first-answers.ts';

const cacheDir = path.join(ROOT, '.cache', 'bench');
const generator = path.join(SHARED, 'tools/gen-corpus.mjs');
const args = process.argv.slice(2);
const argOf = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizes = (argOf('--sizes') ?? '100,1024').split(',').map(Number);
const skipLoad = args.includes('--skip-load');
const skipCcusage = args.includes('--skip-ccusage');
const skipUi = args.includes('--skip-ui');
const skipCli = args.includes('--skip-cli');
const skipFloor = args.includes('--skip-floor');
const skipFirst = args.includes('--skip-first');
const coldRuns = Number(argOf('--cold-runs') ?? 3);
const corporaDir = argOf('--corpora');
const abRef = argOf('--ab');
const abARef = argOf('--ab-a');
const givenDirs = argOf('--dirs')?.split(',');

/** One generated corpus of `mb` MiB (seed 11 is the corpus of every single size). */
function corpus(mb: number, seed = 11): string {
  const ready = corporaDir && mb === 1024 ? path.join(corporaDir, `s${seed}`) : null;
  if (ready) {
    if (!fs.existsSync(path.join(ready, 'projects'))) throw new Error(`--corpora: no ${ready}/projects`);
    return ready;
  }
  const dir = path.join(cacheDir, seed === 11 ? `corpus-${mb}` : `corpus-${mb}-seed${seed}`);
  if (!fs.existsSync(path.join(dir, '.complete'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(`generating a ${mb} MiB corpus in ${path.relative(ROOT, dir)} ...`);
    execFileSync(process.execPath, [generator, '--out', dir, '--mb', String(mb), '--days', '365', '--seed', String(seed), '--projects', '40'], {
      stdio: 'inherit',
    });
    fs.writeFileSync(path.join(dir, '.complete'), '');
  }
  return dir;
}

/** The config dirs of a size: one corpus, or for N x 1 GiB above 1 GiB, N corpora of 1 GiB (seeds 11 on). */
function corpora(mb: number): string[] {
  if (mb <= 1024 || mb % 1024 !== 0) return [corpus(mb)];
  return Array.from({ length: mb / 1024 }, (_, i) => corpus(1024, 11 + i));
}

/** Every transcript of the corpora, as the server finds them. */
const transcripts = (dirs: string[]): Promise<FoundFile[]> => listTranscripts(dirs.map((d) => path.join(d, 'projects')));

interface Running {
  child: ChildProcess;
  port: number;
  startedAt: number;
  bannerAt: number;
  /** Resolves with the time the start-up scan finished ("indexed N files"). */
  indexed: Promise<number>;
  stop(): Promise<void>;
}

async function startServer(dirs: string[], indexFile: string): Promise<Running> {
  const server = await spawnServer({
    args: ['--dir', dirs.join(','), '--port', '0', '--index', indexFile, '--offline', '--prices', PRICES_FILE],
    env: standaloneEnv({ TZ: 'UTC' }),
    readyTimeoutMs: 120_000,
  });
  const indexed = server.logged(/indexed \d+ files|no transcripts found/);
  indexed.catch(() => undefined);
  return {
    child: server.child,
    port: server.port,
    startedAt: server.spawnedAt,
    bannerAt: server.readyAt,
    indexed,
    stop: async () => void (await server.stop()),
  };
}

/**
 * How long a cold run's server is kept after "indexed" for its peak RSS: the watcher's walk, the re-check that follows
 * it and the first periodic one (30 s after).
 */
const AFTER_INDEXED_MS = 35_000;

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function get(port: number, route: string): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${port}${route}`);
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.startsWith('application/json') ? res.json() : res.text();
}

const clearCache = (port: number): Promise<void> => clearServerCache(`http://127.0.0.1:${port}`);

async function queryLatency(port: number, route: string, runs = 40): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await timedCleared(`http://127.0.0.1:${port}`, route));
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Appends one assistant line to a transcript and waits until the session shows it. */
async function appendLatency(port: number, dir: string): Promise<number> {
  const project = fs.readdirSync(path.join(dir, 'projects'))[0]!;
  const sessionId = `bench-append-${process.pid}`;
  const file = path.join(dir, 'projects', project, `${sessionId}.jsonl`);
  const line = (n: number): string =>
    `${JSON.stringify({
      type: 'assistant',
      sessionId,
      cwd: `/bench/${project}`,
      timestamp: new Date().toISOString(),
      requestId: `req_bench_${process.pid}_${n}`,
      message: { id: `msg_bench_${process.pid}_${n}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 10, output_tokens: 20 } },
    })}\n`;
  fs.writeFileSync(file, line(0));
  try {
    const count = async (): Promise<number> => {
      await clearCache(port);
      const res = await fetch(`http://127.0.0.1:${port}/api/sessions/${sessionId}`);
      return res.ok ? ((await res.json()) as { messageCount: number }).messageCount : 0;
    };
    const deadline = Date.now() + 10_000;
    while ((await count()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const t = performance.now();
    fs.appendFileSync(file, line(1));
    while ((await count()) < 2) {
      if (Date.now() > deadline + 10_000) throw new Error('appended line never showed up');
      await new Promise((r) => setTimeout(r, 5));
    }
    return performance.now() - t;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function loadTest(port: number): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/api/overview?range=30`,
    connections: 200,
    duration: 10,
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** ccusage's daily report on the corpus (several dirs as its comma-separated CLAUDE_CONFIG_DIR): the median of three runs. */
function timeCcusage(dirs: string[]): number {
  const bin = ensureCcusage();
  const runs: number[] = [];
  for (let i = 0; i < coldRuns; i++) {
    const t = performance.now();
    execFileSync(bin, ['claude', 'daily', '--json', '--offline'], { env: { ...process.env, CLAUDE_CONFIG_DIR: dirs.join(','), TZ: 'UTC' }, stdio: ['ignore', 'ignore', 'inherit'] });
    runs.push(performance.now() - t);
  }
  return percentile(runs, 50);
}

/**
 * Reads every transcript once, so each timed run finds the corpus in the page cache: the figures are CPU, not disk
 * (the kernel may have evicted a corpus generated or read minutes ago).
 */
async function warmPageCache(dirs: string[]): Promise<void> {
  for (const f of await transcripts(dirs)) fs.readFileSync(f.path);
}

const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;

/** The index file with its WAL, in MB. */
function indexMb(file: string): number {
  return ['', '-wal'].reduce((total, suffix) => total + (fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : 0), 0) / 1e6;
}

async function benchSize(mb: number): Promise<Record<string, unknown>> {
  const dirs = corpora(mb);
  const dir = dirs[0]!;
  const bytes = (await transcripts(dirs)).reduce((total, f) => total + f.size, 0);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-bench-'));
  const indexFile = path.join(work, 'index.db');
  const out: Record<string, unknown> = { mb, bytes, dirs: dirs.length };
  try {
    // Cold: empty index, the whole corpus read once; the median of three runs (the last one's index stays for the
    // warm restart), the largest peak RSS of the three.
    await warmPageCache(dirs);
    const colds: { ms: number; bannerMs: number; cpu: ThreadCpu }[] = [];
    out.peakRssMb = 0;
    out.afterPeakRssMb = 0;
    for (let i = 0; i < coldRuns; i++) {
      for (const suffix of ['', '-wal', '-shm', '.keys']) fs.rmSync(indexFile + suffix, { force: true });
      const cold = await startServer(dirs, indexFile);
      const ms = (await cold.indexed) - cold.startedAt;
      colds.push({ ms, bannerMs: cold.bannerAt - cold.startedAt, cpu: threadCpu(cold.child.pid!) });
      out.peakRssMb = Math.max(out.peakRssMb as number, peakRssMb(cold.child.pid!));
      // What follows "indexed" belongs to the cold index too: the watcher's walk of every folder and the first
      // re-check of every file (a few seconds at 10 GiB).
      await new Promise((r) => setTimeout(r, AFTER_INDEXED_MS));
      out.afterPeakRssMb = Math.max(out.afterPeakRssMb as number, peakRssMb(cold.child.pid!));
      await cold.stop();
    }
    out.indexMb = indexMb(indexFile);
    out.keysMb = fs.existsSync(`${indexFile}.keys`) ? fs.statSync(`${indexFile}.keys`).size / 1e6 : 0;
    out.coldRunsMs = colds.map((c) => c.ms);
    out.coldMs = percentile(out.coldRunsMs as number[], 50);
    out.coldMBps = bytes / 1048576 / ((out.coldMs as number) / 1000);
    out.bannerMs = percentile(colds.map((c) => c.bannerMs), 50);
    // CPU per thread at "indexed" (bench/thread-cpu.ts): each figure the median of the three runs.
    out.coldCpu = {
      mainMs: percentile(colds.map((c) => c.cpu.mainMs), 50),
      otherMs: percentile(colds.map((c) => c.cpu.otherMs), 50),
      threadsMs: [],
    } satisfies ThreadCpu;
    out.loadAverage = os.loadavg()[0];

    if (!skipFloor) {
      // The same worker pool over the same bytes, writing nothing: the median of three runs.
      await warmPageCache(dirs);
      const floors = [];
      for (let i = 0; i < coldRuns; i++) floors.push(await parseFloor(dirs, path.join(ROOT, 'dist/parse-worker.js')));
      out.parseFloorMs = percentile(floors.map((f) => f.ms), 50);
      out.usageLines = floors[0]!.usageLines;
      out.lines = floors[0]!.lines;
      out.rows = floors[0]!.rows;
    }

    // Warm: same index, nothing changed: time until the first overview answers.
    const warm = await startServer(dirs, indexFile);
    await get(warm.port, '/api/overview?range=30');
    out.warmQueryableMs = performance.now() - warm.startedAt;
    out.warmScanMs = (await warm.indexed) - warm.startedAt;
    out.appendMs = await appendLatency(warm.port, dir);
    // The Sessions view's list too: its long ranges took seconds at 10 GiB until stop 27, with no bench figure to show it.
    const routes = ['overview', 'insights', 'projects', 'sessions']
      .flatMap((r) => ['today', '7', '30', '365', 'all'].map((range) => `/api/${r}?range=${range}`))
      .concat('/metrics');
    // Right after the warm start, the server still works behind the answers (the watcher's walk, a re-check of every
    // file, the stored keys read a slice a turn: ~9 s at 10 GiB); once its main thread idles, the figures are the
    // queries' own (issue 35's "after the first index"), p95 over 100 requests each.
    const latency: Record<string, { p50: number; p95: number }> = {};
    for (const r of routes) latency[r] = await queryLatency(warm.port, r);
    out.latency = latency;
    out.settleMs = await settled(warm.child.pid!);
    const latencySettled: Record<string, { p50: number; p95: number }> = {};
    for (const r of routes) latencySettled[r] = await queryLatency(warm.port, r, 100);
    out.latencySettled = latencySettled;
    if (!skipLoad) out.load = await loadTest(warm.port);
    if (!skipUi) out.ui = await browserBench(warm.port);
    out.warmPeakRssMb = peakRssMb(warm.child.pid!);
    await warm.stop();
    if (!skipFirst) {
      const routes = ['/api/overview?range=7', '/api/overview?range=all', '/metrics'];
      out.duringRecheck = await latencyDuringRecheck(dirs, indexFile, routes);
      out.duringRechecks = await latencyDuringRechecks(dirs, indexFile, routes);
    }

    if (!skipCli) {
      let bin: string | null = null;
      try {
        bin = skipCcusage ? null : ensureCcusage();
      } catch {
        // ccusage's side is reported as not run
      }
      out.cli = await cliBench(dirs, indexFile, ['--offline', '--prices', PRICES_FILE], bin);
    }

    if (!skipCcusage) {
      try {
        await warmPageCache(dirs);
        out.ccusageMs = timeCcusage(dirs);
        out.ratio = (out.ccusageMs as number) / (out.coldMs as number);
      } catch (err) {
        out.ccusage = `not run: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    if (!skipFirst) {
      // Last: it reprices the index under another catalogue, and a first index from nothing replaces it.
      out.reprice = await repriceStall(dirs, indexFile, work);
      await warmPageCache(dirs);
      out.firstFinal = await timeToFinal(dirs, indexFile);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return out;
}

function report(r: Record<string, unknown>): void {
  const lat = r.latency as Record<string, { p50: number; p95: number }>;
  const gib = (r.bytes as number) / 1073741824;
  console.log(`\n== ${r.mb} MiB corpus (${((r.bytes as number) / 1048576).toFixed(0)} MiB of .jsonl in ${r.dirs} dir${r.dirs === 1 ? '' : 's'}), ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  const runs = (r.coldRunsMs as number[]).map((ms) => ms.toFixed(0)).join(', ');
  console.log(`cold index          ${fmt(r.coldMs as number)}  (${(r.coldMBps as number).toFixed(0)} MB/s; median of ${runs}), ready line after ${fmt(r.bannerMs as number)}, load average ${(r.loadAverage as number).toFixed(1)}`);
  for (const line of describeCpu(r.coldCpu as ThreadCpu)) console.log(line);
  const withKeys = (r.indexMb as number) + ((r.keysMb as number | undefined) ?? 0);
  console.log(`index file          ${(r.indexMb as number).toFixed(0)} MB (${((r.indexMb as number) / gib).toFixed(1)} MB per GiB of transcripts); with the key dump ${withKeys.toFixed(0)} MB (${(withKeys / gib).toFixed(1)} MB per GiB)`);
  if (r.parseFloorMs !== undefined) console.log(`parse floor         ${fmt(r.parseFloorMs as number)}  (the pool alone over every byte, nothing written: ${r.lines} lines, ${r.usageLines} with usage, ${r.rows} responses counted per file)`);
  console.log(
    `peak RSS            ${(r.peakRssMb as number).toFixed(0)} MB while indexing, ${(r.afterPeakRssMb as number).toFixed(0)} MB by ${AFTER_INDEXED_MS / 1000} s after it; ` +
      `${(r.warmPeakRssMb as number).toFixed(0)} MB warm (restart, append, queries${skipLoad ? '' : ', load test'}${skipUi ? '' : ', dashboard'})`,
  );
  console.log(`warm restart        queryable in ${fmt(r.warmQueryableMs as number)}, scan done in ${fmt(r.warmScanMs as number)}`);
  console.log(`append -> visible   ${fmt(r.appendMs as number)}`);
  for (const [route, v] of Object.entries(lat)) console.log(`query ${route.padEnd(28)} p50 ${v.p50.toFixed(1)} ms  p95 ${v.p95.toFixed(1)} ms (cache cleared, right after the warm start)`);
  const settledLat = r.latencySettled as Record<string, { p50: number; p95: number }> | undefined;
  if (settledLat) {
    console.log(`settled             the server's main thread idle ${fmt(r.settleMs as number)} after the queries above`);
    for (const [route, v] of Object.entries(settledLat)) console.log(`query ${route.padEnd(28)} p50 ${v.p50.toFixed(1)} ms  p95 ${v.p95.toFixed(1)} ms (cache cleared, settled, 100 requests)`);
  }
  const during = r.duringRecheck as Record<string, RouteLatency> | undefined;
  for (const [route, v] of Object.entries(during ?? {})) console.log(`query ${route.padEnd(28)} p50 ${v.p50.toFixed(1)} ms  p95 ${v.p95.toFixed(1)} ms during a warm start's re-check (${v.n} requests)`);
  const passes = r.duringRechecks as { latency: Record<string, RouteLatency>; passesBusy: number } | undefined;
  if (passes) {
    console.log(`re-check passes     one after another, after the start's first answers: alone they keep the main thread ${(passes.passesBusy * 100).toFixed(0)}% busy`);
    for (const [route, v] of Object.entries(passes.latency)) console.log(`query ${route.padEnd(28)} p50 ${v.p50.toFixed(1)} ms  p95 ${v.p95.toFixed(1)} ms during re-check passes (${v.n} requests)`);
  }
  const first = r.firstFinal as FirstFinal | undefined;
  if (first) {
    console.log(`first index         today final after ${fmt(first.todayMs)}, 7 days after ${fmt(first.sevenDaysMs)}, indexed after ${fmt(first.indexedMs)} (from spawn)`);
    console.log(`                    the history's last day (${first.lastDay}) final after ${fmt(first.lastDayMs)}, its last 7 days after ${fmt(first.lastSevenDaysMs)}`);
  }
  const reprice = r.reprice as { maxWaitMs: number; p99WaitMs: number; repricedMs: number; model: string } | undefined;
  if (reprice) console.log(`reprice             ${reprice.model} +25%: longest request wait ${fmt(reprice.maxWaitMs)} (p99 ${fmt(reprice.p99WaitMs)}), new cost shown after ${fmt(reprice.repricedMs)}`);
  const load = r.load as { rps: number; p99: number; errors: number; non2xx: number } | undefined;
  if (load) console.log(`load 200 clients 10 s /api/overview  ${load.rps.toFixed(0)} req/s, p99 ${load.p99} ms, errors ${load.errors}, non-2xx ${load.non2xx}`);
  const ui = r.ui as { firstRenderMs: number; rangeSwitchMs: number } | undefined;
  if (ui) console.log(`ui                  overview first render ${fmt(ui.firstRenderMs)}, range switch ${fmt(ui.rangeSwitchMs)} (server cache cold)`);
  const cli = r.cli as CliFigures | undefined;
  if (cli) for (const line of describeCli(cli)) console.log(line);
  if (r.ccusageMs !== undefined) console.log(`ccusage 20.0.24     daily --json --offline ${fmt(r.ccusageMs as number)} (median of 3)  ccusage/ours = ${(r.ratio as number).toFixed(2)} (above 1: we are faster)`);
  else if (r.ccusage) console.log(`ccusage             ${r.ccusage}`);
}

if (abRef) {
  for (const dirs of givenDirs ? [givenDirs] : sizes.map(corpora)) {
    const r = await abBench({ ref: abRef, ...(abARef ? { aRef: abARef } : {}), dirs, pairs: coldRuns, log: (line) => console.log(line) });
    console.log(`\n${describeAb(r).join('\n')}`);
  }
} else {
  const results = [];
  for (const mb of sizes) {
    const r = await benchSize(mb);
    report(r);
    results.push(r);
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(path.join(cacheDir, 'results.json'), JSON.stringify(results, null, 2));
}
