// The command line on an up-to-date index (the one the bench's server left): `statusline` as Claude Code runs
// it (a new process per render, status JSON on stdin, process start included), the same after lines were
// appended to its transcript before each render (each such render starts a background update, which competes for
// the CPU as it would for real), and `daily --json`; ccusage's own statusline on the same input, with and without
// its cache.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { listTranscripts, roleOf } from '../src/main/discovery.ts';
import { DIST_MAIN } from '../test/helpers/paths.ts';
import { percentile } from './common.ts';


export interface Spread {
  p50: number;
  p95: number;
  runs: number;
}

export interface CliFigures {
  statusline: Spread;
  statuslineAfterAppend: Spread;
  daily: Spread;
  /** ccusage's defaults: its own cache answers while the transcript is unchanged. */
  ccusageStatusline: Spread | string;
  /** `--no-cache`: every render computed, as after an append. */
  ccusageStatuslineNoCache: Spread | string;
}

/** Wall time of `run` over `runs` runs (after one untimed). */
function time(runs: number, run: (i: number) => void): Spread {
  run(-1);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    run(i);
    ms.push(performance.now() - t);
  }
  return { p50: percentile(ms, 50), p95: percentile(ms, 95), runs };
}

function command(args: string[], input = ''): string {
  const r = spawnSync(process.execPath, [DIST_MAIN, ...args], { input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cost-dashboard ${args[0]} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** One more response of the session, as Claude Code appends it (a new id, now). */
function nextLine(template: Record<string, unknown>, n: number): string {
  const message = { ...(template.message as Record<string, unknown>), id: `msg_bench_${process.pid}_${n}` };
  return `${JSON.stringify({ ...template, message, requestId: `req_bench_${process.pid}_${n}`, timestamp: new Date().toISOString() })}\n`;
}

export async function cliBench(dir: string, flags: string[], ccusage: string | null, runs = 20): Promise<CliFigures> {
  const projects = path.join(dir, 'projects');
  // The biggest session transcript: the statusline of a long session.
  const sessions = (await listTranscripts([projects])).filter((f) => roleOf(projects, f.path)?.agentId === null && roleOf(projects, f.path)?.session);
  const biggest = sessions.reduce((a, b) => (b.size > a.size ? b : a));
  const status = (transcript: string, sessionId: string): string =>
    JSON.stringify({ session_id: sessionId, transcript_path: transcript, cwd: dir, model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' } });
  // A full update first, so no background one starts (and competes) during the timed runs.
  command(['update', ...flags]);
  const input = status(biggest.path, path.basename(biggest.path, '.jsonl'));
  const statusline = time(runs, () => {
    if (!command(['statusline', ...flags], input).includes('session')) throw new Error('statusline gave no figures');
  });

  // A copy of the session that grows by three responses before each render (removed afterwards: the corpus is cached).
  const copy = path.join(path.dirname(biggest.path), `bench-statusline-${process.pid}.jsonl`);
  fs.copyFileSync(biggest.path, copy);
  try {
    command(['update', ...flags]);
    const usageLine = fs.readFileSync(copy, 'utf8').split('\n').find((l) => l.includes('"usage"') && l.includes('"requestId"'))!;
    const template = JSON.parse(usageLine) as Record<string, unknown>;
    const copyInput = status(copy, path.basename(copy, '.jsonl'));
    let n = 0;
    const statuslineAfterAppend = time(runs, () => {
      fs.appendFileSync(copy, nextLine(template, n++) + nextLine(template, n++) + nextLine(template, n++));
      if (!command(['statusline', ...flags], copyInput).includes('session')) throw new Error('statusline gave no figures');
    });
    const daily = time(10, () => JSON.parse(command(['daily', '--json', ...flags])));
    const ccusageRender = (extra: string[], renders: number): Spread | string => {
      if (!ccusage) return 'not run';
      try {
        return time(renders, () =>
          execFileSync(ccusage, ['claude', 'statusline', '--offline', ...extra], { input, env: { ...process.env, CLAUDE_CONFIG_DIR: dir }, stdio: ['pipe', 'ignore', 'ignore'] }),
        );
      } catch (err) {
        return `failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    };
    const ccusageStatusline = ccusageRender([], 5);
    // Without its cache it reads the whole history: tens of seconds a render on 1 GiB.
    const ccusageStatuslineNoCache = ccusageRender(['--no-cache'], 3);
    return { statusline, statuslineAfterAppend, daily, ccusageStatusline, ccusageStatuslineNoCache };
  } finally {
    fs.rmSync(copy, { force: true });
  }
}
