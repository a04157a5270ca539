// `cost-dashboard daily | weekly | monthly | session | blocks`: the index brought up to date (when this
// process gets the writer lock; a running server keeps it fresh otherwise), then one report.
import fs from 'node:fs';
import { dayKey } from '../calendar/days.ts';
import { customRange, type RangeSel } from '../calendar/range.ts';
import { resolveRange } from '../calendar/resolve.ts';
import { dayOf, systemZone } from '../calendar/zone.ts';
import { IndexWriteError } from '../index-db/index.ts';
import { openReportReader, type ReportReader } from '../index-db/report-reader.ts';
import { writerIsLive } from '../index-db/writer-lock.ts';
import type { RangeInfo } from '../shared/api-types.ts';
import type { Reports } from '../index-db/queries/reports.ts';
import type { ReportKind, CliArgs } from './args.ts';
import { markUpdated } from './background-update.ts';
import { pinHostZone } from './host-zone.ts';
import type { FoundFile } from '../ingest/discovery.ts';
import { changedTranscripts } from '../ingest/needs-read.ts';
import { BIG_BYTES, catchUp, listWithListings } from './catch-up.ts';
import { openForCommand } from './open-index.ts';
import { pricesFor } from './prices.ts';
import { blocksJson, blocksTable, periodJson, periodsOf, periodTable, sessionTable, writeSessionJson } from './report-output.ts';
import { terminalWidth } from './table.ts';
import { streamBytes, Utf8Out, type TextSink } from './utf8-out.ts';

/** The local days asked for (inclusive); all time without --since/--until. args.ts has checked both days. */
function rangeOf(args: Pick<CliArgs, 'since' | 'until'>, now: number): RangeInfo {
  const days = args.since || args.until ? customRange(args.since ?? '1970-01-01', args.until ?? dayKey(dayOf(systemZone, now))) : null;
  const sel: RangeSel = days ?? { kind: 'all' };
  return resolveRange(sel, now, systemZone);
}

/**
 * The index as a reader when nobody writes it and no transcript changed since it read them (the usual case): the
 * answer then needs no writer, whose open and close (the lock, the writer's state, marking the file open and
 * clean, a commit) cost more than the check. Otherwise what the check listed, for the writer's catch-up (none when
 * it did not get that far: no file yet, a live writer, an older schema, or marked open by a writer that died, whose
 * integrity check the writer runs).
 */
async function unchangedIndex(args: CliArgs): Promise<{ reader: ReportReader | null; listed?: FoundFile[] }> {
  const file = args.config.indexPath;
  if (!fs.existsSync(file) || writerIsLive(file)) return { reader: null };
  let reader: ReportReader;
  try {
    reader = openReportReader(file);
  } catch (err) {
    if (err instanceof IndexWriteError) return { reader: null };
    throw err;
  }
  let listed: FoundFile[] | undefined;
  try {
    if (!reader.reports.markedOpen()) {
      listed = await listWithListings(args.config.projectsDirs, file);
      if (!changedTranscripts(listed, reader.reports.fileStates()).length) {
        markUpdated(file);
        return { reader };
      }
    }
  } catch (err) {
    reader.close();
    throw err;
  }
  reader.close();
  return { reader: null, listed };
}

export async function runReport(args: CliArgs & { command: ReportKind }, warn: (msg: string) => void): Promise<number> {
  // The system zone by name, so checking the daily rollups' zone needs no Intl lookup (--timezone replaces it below).
  pinHostZone(process.env);
  const check = await unchangedIndex(args);
  const opened = check.reader ? { kind: 'reader' as const, index: check.reader } : await openForCommand(args.config.indexPath, { log: warn, readerWaitMs: 10_000, openReader: openReportReader });
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
    // Only now: the writer above keeps the daily rollup in the process's own zone, which a server shares.
    if (args.timezone) process.env.TZ = args.timezone;
    // A report reads more than once (its rows, then its totals): from one state of the file, which a server may be writing.
    const out = opened.index.snapshot(() => render(args, opened.index.reports));
    if (typeof out === 'string') {
      process.stdout.write(out);
    } else {
      const stdout = new Utf8Out(streamBytes(process.stdout));
      out(stdout);
      stdout.flush();
    }
    return 0;
  } finally {
    opened.index.close();
  }
}

/** The report's text, or for `session --json` (megabytes on a big history) its figures, read, and how to write them. */
function render(args: CliArgs & { command: ReportKind }, reports: Reports): string | ((out: TextSink) => void) {
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
      return args.json ? (out) => writeSessionJson(sessions, totals, out) : sessionTable(sessions, totals, width, args.breakdown);
    }
    default: {
      const periods = periodsOf(reports.days(range, args.project), args.command);
      const totals = reports.totals(range, args.project);
      return args.json ? json(periodJson(args.command, periods, totals)) : periodTable(args.command, periods, totals, width, args.breakdown);
    }
  }
}
