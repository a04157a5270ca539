// The command line A/B (issue 35): this checkout's build (A) against another ref's (B), each over its own copy of
// one index that is up to date (a build may need its own schema: A migrates its copy first), no server running.
// Each pair runs `session --json`, `daily --json` and a statusline render (the history's biggest session, as
// bench/cli.ts: the installed executable, process start included, the stamp of the last full look fresh so no
// render starts an update) with both builds back to back, A first in odd pairs and B first in even ones. Printed,
// each command as it is done: its wall p50 and p95 and its CPU p50 per build, the per-pair differences (B - A) and their median, the load
// average before and after, and whether both builds printed the same bytes (for a statusline: renders that gave up).
//   node --import tsx bench/cli-ab.ts --ref REF --dir DIR[,DIR...] --index-a FILE --index-b FILE [--runs N]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listTranscripts, roleOf } from '../src/ingest/discovery.ts';
import { DIST_BIN, PRICES_FILE } from '../test/helpers/paths.ts';
import { buildRef } from './ab.ts';
import { percentile } from './common.ts';

const args = process.argv.slice(2);
const argOf = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const ref = argOf('--ref');
const dirs = argOf('--dir')?.split(',');
const indexA = argOf('--index-a');
const indexB = argOf('--index-b');
if (!ref || !dirs || !indexA || !indexB) {
  console.error('usage: node --import tsx bench/cli-ab.ts --ref REF --dir DIR[,DIR...] --index-a FILE --index-b FILE [--runs N]');
  process.exit(2);
}
const runs = Number(argOf('--runs') ?? 15);

/** CPU of this process's waited-for children so far, in ms (/proc/self/stat cutime + cstime, clock ticks of 10 ms). */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * One command of one build: its stdout, its wall time from spawn to exit and its CPU (user + system; on a loaded
 * machine the wall time mostly measures the other work, the CPU much less so).
 */
function command(bin: string, index: string, argv: string[], input = ''): { out: string; ms: number; cpu: number } {
  const cpu = childrenCpuMs();
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, ...argv, '--dir', dirs!.join(','), '--index', index, '--offline', '--prices', PRICES_FILE], {
    input, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, TZ: 'UTC' },
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${bin} ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { out: r.stdout, ms, cpu: childrenCpuMs() - cpu };
}

// The biggest session transcript of the history: the statusline of a long session.
const projects = dirs.map((d) => path.join(d, 'projects'));
const sessions = (await listTranscripts(projects)).filter((f) => {
  const role = projects.map((p) => roleOf(p, f.path)).find((r) => r);
  return role?.session && role.agentId === null;
});
const biggest = sessions.reduce((a, b) => (b.size > a.size ? b : a));
const status = JSON.stringify({
  session_id: path.basename(biggest.path, '.jsonl'), transcript_path: biggest.path, cwd: dirs[0], model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' },
});

const built = buildRef(ref, (line) => console.log(line));
try {
  const builds = { A: { bin: DIST_BIN, index: indexA }, B: { bin: path.join(path.dirname(built.entry), 'cost-dashboard.cjs'), index: indexB } };
  // Each copy up to date (and A's migrated) before anything is timed.
  for (const b of Object.values(builds)) command(b.bin, b.index, ['update']);
  const noFigures = { A: 0, B: 0 };
  const kinds = {
    'session --json': (b: { bin: string; index: string }) => command(b.bin, b.index, ['session', '--json']),
    'daily --json': (b: { bin: string; index: string }) => command(b.bin, b.index, ['daily', '--json']),
    statusline: (b: { bin: string; index: string }) => {
      const now = new Date();
      fs.utimesSync(`${b.index}.updated`, now, now);
      const r = command(b.bin, b.index, ['statusline'], status);
      // Timed all the same: a render that gave up (its stdin not read within its 300 ms, on a loaded machine) is counted.
      if (!r.out.includes('session')) noFigures[b === builds.A ? 'A' : 'B']++;
      return r;
    },
  };
  console.log(`A: this checkout; B: ${ref} (${built.commit.slice(0, 7)}); ${runs} pairs each, interleaved; ${dirs.length} dirs; Node ${process.version}; ${os.cpus().length} cores`);
  const f = (n: number): string => n.toFixed(0).padStart(6);
  for (const [kind, run] of Object.entries(kinds)) {
    const ms = { A: [] as number[], B: [] as number[] };
    const cpu = { A: [] as number[], B: [] as number[] };
    const loadBefore = os.loadavg()[0]!;
    // One untimed run each; the reports' bytes compared.
    const outA = run(builds.A).out;
    const outB = run(builds.B).out;
    for (let i = 0; i < runs; i++) {
      for (const name of (i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) as ('A' | 'B')[]) {
        const r = run(builds[name]);
        ms[name].push(r.ms);
        cpu[name].push(r.cpu);
      }
    }
    const { A, B } = ms;
    const diffs = A.map((a, i) => B[i]! - a);
    console.log(`${kind.padEnd(16)} A p50 ${f(percentile(A, 50))} p95 ${f(percentile(A, 95))} | B p50 ${f(percentile(B, 50))} p95 ${f(percentile(B, 95))} | B - A per pair: median ${
      f(percentile(diffs, 50))} ms (${diffs.map((d) => d.toFixed(0)).join(', ')}) | load ${loadBefore.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}${
      kind === 'statusline' ? ` | renders without figures A ${noFigures.A}, B ${noFigures.B}` : `; same bytes: ${outA === outB ? 'yes' : 'NO'}`}`);
    const cpuDiffs = cpu.A.map((a, i) => cpu.B[i]! - a);
    console.log(`${''.padEnd(16)} CPU A p50 ${f(percentile(cpu.A, 50))} | B p50 ${f(percentile(cpu.B, 50))} | B - A per pair: median ${f(percentile(cpuDiffs, 50))} ms (${cpuDiffs.join(', ')})`);
  }
} finally {
  built.cleanup();
}
