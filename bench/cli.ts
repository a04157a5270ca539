// The command line on an up-to-date index: `statusline` as Claude Code runs it (the installed executable, a new
// process per render, status JSON on stdin, process start included) with the index up to date; the same when the
// rest of the history went unchecked for over a minute before each render (each wants the periodic background
// update, which at 10 GiB stats ~14,000 transcripts); the same after three lines were appended to its transcript
// before each render (each such render starts a background update, which competes for the CPU as it would for
// real); and `daily --json` and `session --json`, without a server and with one running. Beside them ccusage's own
// statusline on the same input, with and without its cache.
// Appends go to a copy of the session in a config dir of the bench's own, added to the dirs for that part, so no
// corpus is ever written (the shared ones are read-only).
//
// Alone, over an index built before (pass a copy: the append part adds the copied session to it):
//   node --import tsx bench/cli.ts --dir DIR[,DIR...] --index FILE [--runs N] [--skip-ccusage]
import { execFileSync, spawnSync, type SpawnSyncOptionsWithStringEncoding, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCcusage } from '../scripts/ensure-ccusage.mjs';
import { writerIsLive } from '../src/index-db/writer-lock.ts';
import { listTranscripts, roleOf } from '../src/ingest/discovery.ts';
import { DIST_BIN, PRICES_FILE } from '../test/helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../test/helpers/server-process.ts';
import { percentile } from './common.ts';

export interface Spread {
  p50: number;
  p95: number;
  runs: number;
  /** Mean CPU (user + system) of one command's process, from this process's reaped children (Linux), else null. */
  cpuMs: number | null;
}

export interface CliFigures {
  statusline: Spread;
  /** Each render finds the history unchecked for over a minute (the periodic background update). */
  statuslineStale: Spread;
  statuslineAfterAppend: Spread;
  /** A/B in one run, interleaved: renders without `rate_limits`, and renders whose reading changed (one kept each). */
  statuslineNoReadings: Spread;
  statuslineReadings: Spread;
  /** The 1-minute load average before and after the A/B (other work on the machine moves its p95s). */
  readingsLoad: [number, number];
  daily: Spread;
  /** `daily --json` while a server runs over the same index (the report only reads). */
  dailyWithServer: Spread;
  /** `session --json`: every session of the history (18 MB of JSON at 10 GiB), its output not kept. */
  session: Spread;
  sessionWithServer: Spread;
  /** ccusage's defaults: its own cache answers while the transcript is unchanged. */
  ccusageStatusline: Spread | string;
  /** `--no-cache`: every render computed, as after an append. */
  ccusageStatuslineNoCache: Spread | string;
}

/** CPU of this process's waited-for children so far, in ms (/proc/self/stat cutime + cstime, clock ticks of 10 ms). */
function childrenCpuMs(): number | null {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** Wall time of `run` over `runs` runs (after one untimed); `before` runs untimed ahead of each. */
function time(runs: number, run: () => void, before: () => void = () => {}): Spread {
  before();
  run();
  const ms: number[] = [];
  let cpu = 0;
  for (let i = 0; i < runs; i++) {
    before();
    const cpuBefore = childrenCpuMs();
    const t = performance.now();
    run();
    ms.push(performance.now() - t);
    const cpuAfter = childrenCpuMs();
    if (cpuBefore !== null && cpuAfter !== null) cpu += cpuAfter - cpuBefore;
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), runs, cpuMs: childrenCpuMs() === null ? null : cpu / runs };
}

/** Each of `variants` timed `runs` times, their runs alternating (after one untimed run each). */
function interleaved(runs: number, variants: readonly (() => void)[]): Spread[] {
  for (const v of variants) v();
  const ms = variants.map((): number[] => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, v] of variants.entries()) {
      const t = performance.now();
      v();
      ms[k]!.push(performance.now() - t);
    }
  }
  return ms.map((m) => ({ p50: percentile(m, 50), p95: percentile(m, 95), runs, cpuMs: null }));
}

/** `update` once the background update a render started (if any) has ended: it would find the index taken. */
function updateWhenFree(indexFile: string, flags: string[]): void {
  const until = Date.now() + 600_000;
  while (writerIsLive(indexFile)) {
    if (Date.now() > until) throw new Error(`${indexFile} is still written by another process after 10 minutes`);
    spawnSync('sleep', ['0.05']);
  }
  command(['update', ...flags]);
}

/** One run of the installed executable, failing with its stderr unless it exits 0. */
function run(args: string[], opts: SpawnSyncOptionsWithStringEncoding): SpawnSyncReturns<string> {
  const r = spawnSync(process.execPath, [DIST_BIN, ...args], opts);
  if (r.status !== 0) throw new Error(`cost-dashboard ${args[0]} exited ${r.status}: ${r.stderr}`);
  return r;
}

/** A command's stdout. */
const command = (args: string[], input = ''): string => run(args, { input, encoding: 'utf8' }).stdout;

/** A command whose output is too big to be worth reading here (its decoding would be timed too): only its exit status. */
const unread = (args: string[]): void => void run(args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });

/** One more response of the session, as Claude Code appends it (a new id, now). */
function nextLine(template: Record<string, unknown>, n: number): string {
  const message = { ...(template.message as Record<string, unknown>), id: `msg_bench_${process.pid}_${n}` };
  return `${JSON.stringify({ ...template, message, requestId: `req_bench_${process.pid}_${n}`, timestamp: new Date().toISOString() })}\n`;
}

const status = (transcript: string, cwd: string): string =>
  JSON.stringify({ session_id: path.basename(transcript, '.jsonl'), transcript_path: transcript, cwd, model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' } });

/** `measure` while a server runs over the index (the writer: a command then only reads), once its start-up work is over. */
async function withServer<T>(indexFlags: string[], measure: () => T): Promise<T> {
  const server = await spawnServer({ args: [...indexFlags, '--port', '0'], env: standaloneEnv(), readyTimeoutMs: 120_000 });
  try {
    await server.logged(/indexed \d+ files/);
    // The stored keys' read-ahead that follows the scan (~2 s at 10 GiB).
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    return measure();
  } finally {
    await server.stop();
  }
}

/**
 * `dirs`: the config dirs the index was built from; `indexFile`: that index (written: updated, and the appended
 * session added); `flags`: the price flags. ccusage: its binary, or null to leave it out.
 */
export async function cliBench(dirs: string[], indexFile: string, flags: string[], ccusage: string | null, runs = 20): Promise<CliFigures> {
  // The biggest session transcript of the history: the statusline of a long session.
  const projects = dirs.map((d) => path.join(d, 'projects'));
  const sessions = (await listTranscripts(projects)).filter((f) => {
    const role = projects.map((p) => roleOf(p, f.path)).find((r) => r);
    return role?.session && role.agentId === null;
  });
  const biggest = sessions.reduce((a, b) => (b.size > a.size ? b : a));
  const indexFlags = ['--dir', dirs.join(','), '--index', indexFile, ...flags];
  const stamp = `${indexFile}.updated`;
  // A full update first, so the timed renders start from an index that is up to date.
  updateWhenFree(indexFile, indexFlags);
  const input = status(biggest.path, dirs[0]!);
  const render = (extra: string[], text: string) => (): void => {
    if (!command(['statusline', ...extra], text).includes('session')) throw new Error('statusline gave no figures');
  };
  const statusline = time(runs, render(indexFlags, input));
  // The stamp of the last full look two minutes old before each render: each wants the periodic update (at most
  // one runs at a time, at the lowest priority).
  const twoMinutesAgo = (): void => fs.utimesSync(stamp, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
  const statuslineStale = time(runs, render(indexFlags, input), twoMinutesAgo);
  // Plan limit readings, A/B: the same render without and with a `rate_limits` whose 5-hour figure changed, so each B
  // render appends its reading to the side file (the costlier case); A and B alternate so drift hits both alike.
  let used = 0;
  const withReadings = (): string => {
    const o = JSON.parse(input) as Record<string, unknown>;
    const resets = Math.floor(Date.now() / 1000) + 3600;
    return JSON.stringify({ ...o, rate_limits: { five_hour: { used_percentage: (used++ % 100) + 0.5, resets_at: resets }, seven_day: { used_percentage: 40, resets_at: resets + 86_400 } } });
  };
  // Three times the runs: a p95 of 20 renders is their second slowest, one stray pause on a shared machine.
  const ab: (() => void)[] = [render(indexFlags, input), () => render(indexFlags, withReadings())()];
  const loadBefore = os.loadavg()[0]!;
  const [statuslineNoReadings, statuslineReadings] = interleaved(3 * runs, ab) as [Spread, Spread];
  const readingsLoad: [number, number] = [loadBefore, os.loadavg()[0]!];

  // A copy of the session in a config dir of the bench's own, growing by three responses before each render.
  const own = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-bench-cli-'));
  try {
    const copy = path.join(own, 'projects', path.basename(path.dirname(biggest.path)), `bench-statusline-${process.pid}.jsonl`);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(biggest.path, copy);
    const appendFlags = ['--dir', [...dirs, own].join(','), '--index', indexFile, ...flags];
    updateWhenFree(indexFile, appendFlags);
    const usageLine = fs.readFileSync(copy, 'utf8').split('\n').find((l) => l.includes('"usage"') && l.includes('"requestId"'))!;
    const template = JSON.parse(usageLine) as Record<string, unknown>;
    let n = 0;
    const append = (): void => fs.appendFileSync(copy, nextLine(template, n++) + nextLine(template, n++) + nextLine(template, n++));
    const statuslineAfterAppend = time(runs, render(appendFlags, status(copy, own)), append);
    // The background updates of the last renders end before the next part is timed.
    updateWhenFree(indexFile, appendFlags);

    const dailyReport = (): void => void JSON.parse(command(['daily', '--json', ...indexFlags]));
    const sessionReport = (): void => unread(['session', '--json', ...indexFlags]);
    const daily = time(10, dailyReport);
    const session = time(5, sessionReport);
    const [dailyWithServer, sessionWithServer] = await withServer(indexFlags, () => [time(10, dailyReport), time(5, sessionReport)] as const);
    const ccusageRender = (extra: string[], renders: number): Spread | string => {
      if (!ccusage) return 'not run';
      try {
        return time(renders, () =>
          execFileSync(ccusage, ['claude', 'statusline', '--offline', ...extra], { input, env: { ...process.env, CLAUDE_CONFIG_DIR: dirs.join(',') }, stdio: ['pipe', 'ignore', 'ignore'] }),
        );
      } catch (err) {
        return `failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    };
    const ccusageStatusline = ccusageRender([], 5);
    // Without its cache it reads the whole history: tens of seconds a render per GiB.
    const ccusageStatuslineNoCache = ccusageRender(['--no-cache'], dirs.length > 1 ? 1 : 3);
    return {
      statusline, statuslineStale, statuslineAfterAppend, statuslineNoReadings, statuslineReadings, readingsLoad, daily, dailyWithServer, session,
      sessionWithServer, ccusageStatusline, ccusageStatuslineNoCache,
    };
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
  }
}

export function describeCli(cli: CliFigures): string[] {
  const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;
  const delta = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms.toFixed(1)} ms`;
  const spread = (s: Spread | string): string =>
    typeof s === 'string'
      ? s
      : `p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)} (${s.runs} runs, process start included${s.cpuMs === null ? '' : `; CPU ${s.cpuMs.toFixed(1)} ms each`})`;
  return [
    `cli statusline      ${spread(cli.statusline)}, index up to date`,
    `cli statusline      ${spread(cli.statuslineStale)}, history unchecked for over a minute before each`,
    `cli statusline      ${spread(cli.statuslineAfterAppend)}, 3 lines appended before each`,
    `cli statusline      ${spread(cli.statuslineNoReadings)}, A: no rate_limits (interleaved with B)`,
    `cli statusline      ${spread(cli.statuslineReadings)}, B: rate_limits changed, a reading kept each render`,
    `cli statusline      B - A: p50 ${delta(cli.statuslineReadings.p50 - cli.statuslineNoReadings.p50)}, p95 ${
      delta(cli.statuslineReadings.p95 - cli.statuslineNoReadings.p95)} (load average ${cli.readingsLoad.map((l) => l.toFixed(1)).join(' -> ')})`,
    `cli daily --json    ${spread(cli.daily)}`,
    `cli daily --json    ${spread(cli.dailyWithServer)}, a server running`,
    `cli session --json  ${spread(cli.session)}`,
    `cli session --json  ${spread(cli.sessionWithServer)}, a server running`,
    `ccusage statusline  ${spread(cli.ccusageStatusline)}, its cache on (transcript unchanged)`,
    `ccusage statusline  ${spread(cli.ccusageStatuslineNoCache)}, --no-cache`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const argOf = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dirs = argOf('--dir')?.split(',');
  const index = argOf('--index');
  if (!dirs || !index) {
    console.error('usage: node --import tsx bench/cli.ts --dir DIR[,DIR...] --index FILE [--runs N] [--skip-ccusage]');
    process.exit(2);
  }
  const ccusage = args.includes('--skip-ccusage') ? null : ensureCcusage();
  const figures = await cliBench(dirs, index, ['--offline', '--prices', PRICES_FILE], ccusage, Number(argOf('--runs') ?? 20));
  console.log(`${dirs.length} dir${dirs.length === 1 ? '' : 's'}, ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  for (const line of describeCli(figures)) console.log(line);
}
