// The CPU split of a cold index, runs alone:
//   node --import tsx bench/cold-cpu.ts DIR [runs] [--server A.js,B.js] [--cores N] [--after S]
// starts the built server (dist/main.js, or each of the given builds in turn, interleaved for an A/B) on DIR (or
// comma-separated dirs) with an empty index `runs` times (default 3) and prints, per run and as medians, the main
// thread's CPU, the other threads' CPU, the wall time to "indexed" and the peak RSS. `--cores N` sizes the pool as on
// N cores (bench/fake-cores.mjs): for the peak RSS of N workers. `--after S` keeps each server S seconds after
// "indexed" and prints the peak RSS by then and the RSS at the end (the watcher's walk and re-checks come after
// "indexed"). `npm run bench` prints the same figures for dist/main.js.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST_MAIN, PRICES_FILE, ROOT } from '../test/helpers/paths.ts';
import { percentile } from './common.ts';
import { projectedMs, threadCpu, type ThreadCpu } from './thread-cpu.ts';


export interface ColdRun {
  ms: number;
  cpu: ThreadCpu;
  /** VmHWM at "indexed". */
  peakRssMb: number;
  /** With `afterMs`: VmHWM and VmRSS that long after "indexed". */
  after?: { peakRssMb: number; rssMb: number };
}

/** A figure of /proc/<pid>/status in MB. */
function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

/** One cold index of `dir` into a fresh index file; resolves once the server has said "indexed" and stopped. */
export async function coldRun(dir: string, server = DIST_MAIN, cores?: number, afterMs = 0): Promise<ColdRun> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-cold-'));
  try {
    const t = performance.now();
    const child = spawn(
      process.execPath,
      [...(cores ? ['--import', path.join(ROOT, 'bench/fake-cores.mjs')] : []), server, '--dir', dir, '--port', '0', '--index', path.join(work, 'index.db'), '--offline', '--prices', PRICES_FILE],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TZ: 'UTC', ...(cores ? { COST_BENCH_CORES: String(cores) } : {}) } },
    );
    let stderr = '';
    const ms = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/indexed \d+ files|no transcripts found/.test(stderr)) resolve(performance.now() - t);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    });
    const cpu = threadCpu(child.pid!);
    const peakRssMb = statusMb(child.pid!, 'VmHWM');
    let after: ColdRun['after'];
    if (afterMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      after = { peakRssMb: statusMb(child.pid!, 'VmHWM'), rssMb: statusMb(child.pid!, 'VmRSS') };
    }
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    return { ms, cpu, peakRssMb, ...(after ? { after } : {}) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The median of each figure over the runs (each figure on its own). */
export function medianRun(runs: ColdRun[]): ColdRun {
  const med = (f: (r: ColdRun) => number): number => percentile(runs.map(f), 50);
  return {
    ms: med((r) => r.ms),
    cpu: { mainMs: med((r) => r.cpu.mainMs), otherMs: med((r) => r.cpu.otherMs), threadsMs: [] },
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
  };
}

/** The lines `npm run bench` prints for the CPU split. */
export function describeCpu(cpu: ThreadCpu): string[] {
  const { mainMs, otherMs } = cpu;
  const proj = [4, 8, 16].map((n) => `${n} cores ${(projectedMs(cpu, n) / 1000).toFixed(2)} s`).join(', ');
  return [
    `cold CPU            serial (main thread) ${(mainMs / 1000).toFixed(2)} s, parallel (other threads) ${(otherMs / 1000).toFixed(2)} s`,
    `cold projected      ${proj} (projection: serial + parallel / cores, not measured)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const flags = ['--server', '--cores', '--after'];
  const [dir, runsArg] = process.argv.slice(2).filter((a, i, all) => !flags.includes(a) && !flags.includes(all[i - 1] ?? ''));
  if (!dir) throw new Error('usage: bench/cold-cpu.ts DIR [runs] [--server A.js,B.js] [--cores N] [--after S]');
  const flag = (name: string): string | undefined => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const servers = flag('--server')?.split(',').map((s) => path.resolve(s)) ?? [DIST_MAIN];
  const cores = flag('--cores') === undefined ? undefined : Number(flag('--cores'));
  const afterMs = Number(flag('--after') ?? 0) * 1000;
  const runs = new Map<string, ColdRun[]>(servers.map((s) => [s, []]));
  for (let i = 0; i < Number(runsArg ?? 3); i++) {
    for (const server of servers) {
      const r = await coldRun(dir, server, cores, afterMs);
      runs.get(server)!.push(r);
      console.log(`${path.relative(process.cwd(), server)} run ${i + 1}: ${r.ms.toFixed(0)} ms, main ${r.cpu.mainMs} ms, other ${r.cpu.otherMs} ms ` +
        `[${r.cpu.threadsMs.slice(0, 6).join(' ')}], peak RSS ${r.peakRssMb.toFixed(0)} MB` +
        (r.after ? `; ${afterMs / 1000} s after "indexed": peak RSS ${r.after.peakRssMb.toFixed(0)} MB, RSS ${r.after.rssMb.toFixed(0)} MB` : ''));
    }
  }
  for (const [server, list] of runs) {
    const m = medianRun(list);
    const afterPeak = Math.max(...list.map((r) => r.after?.peakRssMb ?? 0));
    console.log(`${path.relative(process.cwd(), server)} median: ${m.ms.toFixed(0)} ms, peak RSS ${m.peakRssMb.toFixed(0)} MB` +
      (afterMs > 0 ? `, ${afterPeak.toFixed(0)} MB by ${afterMs / 1000} s after "indexed"` : '') + ' (the largest of the runs)');
    for (const line of describeCpu(m.cpu)) console.log(line);
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
