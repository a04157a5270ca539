// `cost-dashboard daily | weekly | monthly | session | blocks`: the index brought up to date (when this
// process gets the writer lock; a running server keeps it fresh otherwise), then one report.
import fs from 'node:fs';
import { parseRange } from '../http/params.ts';
import { dayKey } from '../calendar/days.ts';
import { dayOf, systemZone } from '../calendar/zone.ts';
import { IndexWriteError, openIndexReader } from '../index-db/index.ts';
import type { IndexReader } from '../index-db/types.ts';
import { writerIsLive } from '../index-db/writer-lock.ts';
import type { RangeInfo } from '../shared/api-types.ts';
import type { Reports } from '../index-db/queries/reports.ts';
import type { ReportKind, CliArgs } from './args.ts';
import { markUpdated } from './background-update.ts';
import { pinHostZone } from './host-zone.ts';
import type { FoundFile } from '../main/discovery.ts';
import { BIG_BYTES, catchUp, changedTranscripts, listWithListings } from './catch-up.ts';
import { FolderListings, listingsFile } from '../main/folder-listings.ts';
import { startStatThread } from './stat-thread.ts';
import { openForCommand } from './open-index.ts';
import { pricesFor } from './prices.ts';
import { blocksJson, blocksTable, periodJson, periodsOf, periodTable, sessionJson, sessionTable } from './report-output.ts';
import { terminalWidth } from './table.ts';

/** The local days asked for (inclusive); all time without --since/--until. */
function rangeOf(args: Pick<CliArgs, 'since' | 'until'>, now: number): RangeInfo {
  if (!args.since && !args.until) return parseRange({}, 'all', now);
  return parseRange({ from: args.since ?? '1970-01-01', to: args.until ?? dayKey(dayOf(systemZone, now)) }, 'all', now);
}

/** From this many known transcripts on, a report's check stats them on a thread of its own (stat-thread.ts): the stats it takes off this thread then cost more than its start (~20 ms of CPU). */
export const STAT_THREAD_MIN_FILES = 4_000;

/**
 * The report, from the index as a reader, when nobody writes it and no transcript changed since it read them (the
 * usual case): the answer then needs no writer, whose open and close (the lock, the writer's state, marking the file
 * open and clean, a commit) cost more than the check. Otherwise no answer, with what the check listed for the
 * writer's catch-up (none when it did not get that far: no file yet, a live writer, an older schema, or marked open
 * by a writer that died, whose integrity check the writer runs).
 * On a big history the transcripts are stat'ed on another thread while this one reads the cursors and the report
 * (read after the cursors, so it holds all they say was read); the report is kept only if nothing changed.
 */
async function answerIfUnchanged(args: CliArgs & { command: ReportKind }): Promise<{ output: string | null; listed?: FoundFile[] }> {
  const file = args.config.indexPath;
  if (!fs.existsSync(file) || writerIsLive(file)) return { output: null };
  let reader: IndexReader;
  try {
    reader = openIndexReader(file);
  } catch (err) {
    if (err instanceof IndexWriteError) return { output: null };
    throw err;
  }
  try {
    if (reader.reports.markedOpen()) return { output: null };
    const listings = FolderListings.load(listingsFile(file));
    const thread = listings.knownFiles >= STAT_THREAD_MIN_FILES ? startStatThread() : null;
    const listing = listWithListings(args.config.projectsDirs, listings, thread?.stats);
    if (thread) await Promise.race([thread.handedOver, listing]);
    const states = reader.reports.fileStates();
    // Early only in the process's zone: --timezone must wait until no catch-up is left to write the daily rollup.
    const early = thread && !args.timezone ? render(args, reader.reports) : null;
    const listed = await listing;
    if (changedTranscripts(listed, states).length) return { output: null, listed };
    markUpdated(file);
    return { output: early ?? answer(args, reader.reports) };
  } finally {
    reader.close();
  }
}

export async function runReport(args: CliArgs & { command: ReportKind }, warn: (msg: string) => void): Promise<number> {
  // The system zone by name, so checking the daily rollups' zone needs no Intl lookup (--timezone replaces it below).
  pinHostZone(process.env);
  const check = await answerIfUnchanged(args);
  if (check.output !== null) {
    process.stdout.write(check.output);
    return 0;
  }
  const opened = await openForCommand(args.config.indexPath, { log: warn, readerWaitMs: 10_000 });
  try {
    if (opened.kind === 'writer') {
      markUpdated(args.config.indexPath);
      const started = Date.now();
      const r = await catchUp({
        index: opened.index, indexFile: args.config.indexPath, listed: check.listed, projectsDirs: args.config.projectsDirs, machines: args.config.dirMachines, log: warn,
        prices: () => pricesFor(args.config, warn),
        onBig: (files, bytes) => warn(`indexing ${files} transcripts (${(bytes / 1048576).toFixed(0)} MiB); later runs read only what changed`),
      });
      if (r.bytes >= BIG_BYTES) warn(`indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    process.stdout.write(answer(args, opened.index.reports));
    return 0;
  } finally {
    opened.index.close();
  }
}

/** The report in --timezone's zone: set only now, since a writer keeps the daily rollup in the process's own zone, which a server shares. */
function answer(args: CliArgs & { command: ReportKind }, reports: Reports): string {
  if (args.timezone) process.env.TZ = args.timezone;
  return render(args, reports);
}

function render(args: CliArgs & { command: ReportKind }, reports: Reports): string {
  const now = Date.now();
  const range = rangeOf(args, now);
  const width = terminalWidth(process.stdout, process.env);
  const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
  switch (args.command) {
    case 'blocks': {
      const blocks = reports.blocks(range, args.project, now);
      return args.json ? json(blocksJson(blocks)) : blocksTable(blocks, width);
    }
    case 'session': {
      const sessions = reports.sessions(range, args.project, args.config.machine);
      const totals = reports.totals(range, args.project);
      return args.json ? json(sessionJson(sessions, totals)) : sessionTable(sessions, totals, width);
    }
    default: {
      const periods = periodsOf(reports.days(range, args.project), args.command);
      const totals = reports.totals(range, args.project);
      return args.json ? json(periodJson(args.command, periods, totals)) : periodTable(args.command, periods, totals, width);
    }
  }
}
