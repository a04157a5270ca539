// Where a report's time goes without a server (issue 35): each phase of `cost-dashboard session|daily --json` on an
// index that is up to date, in one process, `--runs` times each (medians; the first run of each is not timed). Process
// start and module loading are not in these figures (`node -e 0` and bench/cli.ts measure them).
//   node --import tsx bench/cli-phases.ts --dir DIR[,DIR...] --index FILE [--runs N]
import os from 'node:os';
import { openReportReader } from '../src/index-db/report-reader.ts';
import { changedTranscripts } from '../src/ingest/needs-read.ts';
import { listWithListings } from '../src/cli/catch-up.ts';
import { resolveRange } from '../src/calendar/resolve.ts';
import { systemZone } from '../src/calendar/zone.ts';
import { periodJson, periodsOf, writeSessionJson } from '../src/cli/report-output.ts';
import { Utf8Out } from '../src/cli/utf8-out.ts';
import { percentile } from './common.ts';

const args = process.argv.slice(2);
const argOf = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dirs = argOf('--dir')?.split(',').map((d) => `${d}/projects`);
const index = argOf('--index');
if (!dirs || !index) {
  console.error('usage: node --import tsx bench/cli-phases.ts --dir DIR[,DIR...] --index FILE [--runs N]');
  process.exit(2);
}
const runs = Number(argOf('--runs') ?? 7);
const times = new Map<string, number[]>();

async function phase<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await run();
  const list = times.get(name) ?? [];
  list.push(performance.now() - t);
  times.set(name, list);
  return out;
}

const range = resolveRange({ kind: 'all' }, Date.now(), systemZone);
for (let i = 0; i <= runs; i++) {
  const reader = await phase('open the reader', () => openReportReader(index));
  await phase('marked open?', () => reader.reports.markedOpen());
  const listed = await phase('list and stat the transcripts', () => listWithListings(dirs, index));
  const states = await phase('read every cursor', () => reader.reports.fileStates());
  const changed = await phase('compare', () => changedTranscripts(listed, states));
  if (changed.length) throw new Error(`${changed.length} transcripts changed: the index is not up to date`);
  const sessions = await phase('session: sessions()', () => reader.reports.sessions(range, null, 'here'));
  const totals = await phase('session/daily: totals()', () => reader.reports.totals(range, null));
  // As runReport writes it (writeSessionJson through one reused buffer), to a destination that takes every buffer at once.
  await phase('session: JSON as bytes', () => {
    const out = new Utf8Out(() => true);
    writeSessionJson(sessions, totals, out);
    out.flush();
  });
  const days = await phase('daily: days()', () => reader.reports.days(range, null));
  await phase('daily: JSON text', () => `${JSON.stringify(periodJson('daily', periodsOf(days, 'daily'), totals), null, 2)}\n`);
  await phase('close', () => reader.close());
  if (i === 0) times.clear();
}
console.log(`${runs} runs, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [name, list] of times) console.log(`${name.padEnd(32)} p50 ${percentile(list, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(list, 95).toFixed(1).padStart(7)} ms`);
