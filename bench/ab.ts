// `npm run bench -- --ab <git ref>`: this checkout's build (A, dist/) against the build of another ref (B), on the same
// corpus, interleaved: each pair runs both builds back to back, A first in odd pairs and B first in even ones, so a
// drift of the shared machine's speed falls on both sides alike. Per build: the cold index (spawn to "indexed"), the
// time from its spawn until today, 7 days and the history's last day and last 7 days are final (first-answers.ts
// untilFinal, polled during the cold index: the same small load on both builds), its peak RSS, the warm restart (spawn
// to the first overview answered) and query latency with the cache cleared, once the warm server's main thread idles
// (until stop 21 the queries ran right after the restart, the start-up work still going on behind them), and the
// index's size with its key dump once that server has closed. Printed: each figure's median per build and each
// pair's difference (B - A).
// The ref is built from its own tree: `git archive` of the ref into a temporary folder (a plain copy, so a killed run
// leaves no worktree registered in the repository), this checkout's node_modules linked in (no install offline), and
// the ref's own build.mjs run there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRICES_FILE, ROOT } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../test/helpers/server-process.ts';
import { percentile, settled, timedCleared } from './common.ts';
import { finalRanges, untilFinal, type FinalRange } from './first-answers.ts';

/** One build's figures in one pair. */
export interface AbRun {
  coldMs: number;
  /** ms from the cold start's spawn until each range is final (first-answers.ts untilFinal). */
  finalMs: Record<FinalRange, number>;
  peakRssMb: number;
  warmQueryableMs: number;
  /** The index file with its WAL and the key dump, in MB, once the warm server has closed. */
  indexMb: number;
  /** p50 of each route, in ms. */
  queries: Record<string, number>;
}

export interface AbPair {
  /** Which build ran first in this pair. */
  order: ['A', 'B'] | ['B', 'A'];
  a: AbRun;
  b: AbRun;
}

export interface AbResult {
  /** A: this checkout; B: the ref, as given and as resolved. */
  a: { label: string; entry: string };
  b: { label: string; entry: string; commit: string };
  dirs: string[];
  pairs: AbPair[];
  /** Each figure's median over the pairs, per build, and the median of the per-pair differences (B - A). */
  medians: Record<string, { a: number; b: number; diff: number }>;
}

const ROUTES = ['/api/overview?range=7', '/api/overview?range=all', '/api/insights?range=30'];
const QUERY_RUNS = 15;

/** Builds `ref` in a temporary folder; returns its dist/main.js, its commit and a cleanup. */
export function buildRef(ref: string, log: (line: string) => void): { entry: string; commit: string; cleanup(): void } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-ab-'));
  const cleanup = (): void => fs.rmSync(dir, { recursive: true, force: true });
  try {
    log(`building ${ref} (${commit.slice(0, 7)}) in ${dir} ...`);
    const tar = path.join(dir, '.tree.tar');
    execFileSync('git', ['archive', '--format=tar', '-o', tar, commit], { cwd: ROOT });
    execFileSync('tar', ['-xf', tar, '-C', dir]);
    fs.rmSync(tar);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const entry = path.join(dir, 'dist', 'main.js');
    if (!fs.existsSync(entry)) throw new Error(`${ref}: its build made no dist/main.js`);
    return { entry, commit, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

const serverArgs = (dirs: string[], indexFile: string): string[] =>
  ['--dir', dirs.join(','), '--port', '0', '--index', indexFile, '--offline', '--prices', PRICES_FILE];

/** One build's run: a cold index from nothing, then a warm restart on it and the queries. */
async function runOnce(entry: string, dirs: string[], work: string, finals: Record<FinalRange, string>): Promise<AbRun> {
  const indexFile = path.join(work, 'index.db');
  for (const suffix of ['', '-wal', '-shm', '.keys', '.prices.json', '.listing.json']) fs.rmSync(indexFile + suffix, { force: true });
  const env = standaloneEnv({ TZ: 'UTC' });
  const cold = await spawnServer({ entry, args: serverArgs(dirs, indexFile), env, readyTimeoutMs: 120_000 });
  let coldMs: number;
  let peak: number;
  let finalMs: AbRun['finalMs'];
  try {
    const indexed = cold.logged(/indexed \d+ files|no transcripts found/);
    finalMs = await untilFinal(cold, finals);
    coldMs = (await indexed) - cold.spawnedAt;
    peak = peakRssMb(cold.child.pid!);
  } finally {
    await cold.stop();
  }
  const warm = await spawnServer({ entry, args: serverArgs(dirs, indexFile), env, readyTimeoutMs: 120_000 });
  try {
    const base = `http://127.0.0.1:${warm.port}`;
    const first = await fetch(`${base}/api/overview?range=30`);
    if (!first.ok) throw new Error(`${entry}: /api/overview answered ${first.status}`);
    await first.arrayBuffer();
    const warmQueryableMs = performance.now() - warm.spawnedAt;
    // The queries' own figures: not while the server still works behind them after its start (common.ts settled).
    await settled(warm.child.pid!);
    const queries: Record<string, number> = {};
    for (const route of ROUTES) {
      const times: number[] = [];
      for (let i = 0; i < QUERY_RUNS; i++) times.push(await timedCleared(base, route));
      queries[route] = percentile(times, 50);
    }
    await warm.stop();
    const indexMb = ['', '-wal', '.keys'].reduce((mb, suffix) => mb + (fs.existsSync(indexFile + suffix) ? fs.statSync(indexFile + suffix).size / 1e6 : 0), 0);
    return { coldMs, finalMs, peakRssMb: peak, warmQueryableMs, indexMb, queries };
  } finally {
    await warm.stop();
  }
}

/** Every figure of a run by name. */
function figuresOf(run: AbRun): Record<string, number> {
  const out: Record<string, number> = {
    'cold index ms': run.coldMs,
    'final ms today': run.finalMs.today,
    'final ms 7 days': run.finalMs['7'],
    'final ms history last day': run.finalMs.lastDay,
    'final ms history last 7 days': run.finalMs.last7,
    'peak RSS MB (cold)': run.peakRssMb,
    'warm queryable ms': run.warmQueryableMs,
    'index MB with key dump': run.indexMb,
  };
  for (const [route, ms] of Object.entries(run.queries)) out[`p50 ms ${route}`] = ms;
  return out;
}

/**
 * `aRef`: build A from that ref too instead of this checkout, to measure one change between two older commits (say a
 * merge against its first parent) with today's harness.
 */
export async function abBench(opts: { ref: string; aRef?: string; dirs: string[]; pairs: number; log: (line: string) => void }): Promise<AbResult> {
  const built = buildRef(opts.ref, opts.log);
  const builtA = opts.aRef ? buildRef(opts.aRef, opts.log) : null;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-ab-run-'));
  try {
    const a = builtA
      ? { label: `${opts.aRef} (${builtA.commit.slice(0, 7)})`, entry: builtA.entry }
      : { label: 'this checkout', entry: path.join(ROOT, 'dist', 'main.js') };
    const b = { label: opts.ref, entry: built.entry, commit: built.commit };
    // The history's last day: read once, before any server runs.
    const finals = finalRanges(opts.dirs).queries;
    const pairs: AbPair[] = [];
    for (let i = 0; i < opts.pairs; i++) {
      const order: AbPair['order'] = i % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      const runs: Partial<Record<'A' | 'B', AbRun>> = {};
      for (const side of order) {
        runs[side] = await runOnce(side === 'A' ? a.entry : b.entry, opts.dirs, work, finals);
        opts.log(`pair ${i + 1}/${opts.pairs}: ${side} (${side === 'A' ? a.entry : b.entry}) cold index ${runs[side].coldMs.toFixed(0)} ms`);
      }
      pairs.push({ order, a: runs.A!, b: runs.B! });
    }
    const medians: AbResult['medians'] = {};
    for (const name of Object.keys(figuresOf(pairs[0]!.a))) {
      const as = pairs.map((p) => figuresOf(p.a)[name]!);
      const bs = pairs.map((p) => figuresOf(p.b)[name]!);
      medians[name] = { a: percentile(as, 50), b: percentile(bs, 50), diff: percentile(bs.map((v, i) => v - as[i]!), 50) };
    }
    return { a, b, dirs: opts.dirs, pairs, medians };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    built.cleanup();
    builtA?.cleanup();
  }
}

/**
 * How often B came out below and above A, and the two-sided exact sign test's p: the chance of a split at least this
 * lopsided between two builds that do not differ. Ties are left out. One commit against itself at 100 MiB split most
 * pairs one way (bench/RESULTS.md, stop 32): a median difference alone says little about so few pairs.
 */
export function signTest(diffs: readonly number[]): { below: number; above: number; p: number } {
  const below = diffs.filter((d) => d < 0).length;
  const above = diffs.filter((d) => d > 0).length;
  const n = below + above;
  let tail = 0;
  for (let i = 0, c = 1; i <= Math.min(below, above); c = (c * (n - i)) / (i + 1), i++) tail += c;
  return { below, above, p: n ? Math.min(1, (2 * tail) / 2 ** n) : 1 };
}

/** The report: per figure, each build's median, the median difference, the sign test and every pair's difference. */
export function describeAb(r: AbResult): string[] {
  const lines = [`A/B over ${r.dirs.join(', ')}: A = ${r.a.label}, B = ${r.b.label} (${r.b.commit.slice(0, 7)}), ${r.pairs.length} pairs, order per pair ${r.pairs.map((p) => p.order.join('')).join(' ')}`];
  lines.push(`${'figure'.padEnd(36)} ${'A median'.padStart(10)} ${'B median'.padStart(10)} ${'B-A median'.padStart(20)}  ${'B<A B>A sign p'.padEnd(16)}  B-A per pair`);
  for (const [name, m] of Object.entries(r.medians)) {
    const diffs = r.pairs.map((p) => figuresOf(p.b)[name]! - figuresOf(p.a)[name]!);
    const perPair = diffs.map((d) => d.toFixed(1)).join(', ');
    const diff = `${m.diff.toFixed(1)}${m.a ? ` (${((m.diff / m.a) * 100).toFixed(1)}%)` : ''}`;
    const s = signTest(diffs);
    const signs = `${String(s.below).padStart(3)} ${String(s.above).padStart(3)} ${s.p.toFixed(2).padStart(6)}`;
    lines.push(`${name.padEnd(36)} ${m.a.toFixed(1).padStart(10)} ${m.b.toFixed(1).padStart(10)} ${diff.padStart(20)}  ${signs.padEnd(16)}  ${perPair}`);
  }
  return lines;
}
