// Brings the index up to date before a command answers, with the server's own ingest (the same cursors,
// the same rules). Only files whose size or mtime differ from their cursor are read (ingest would skip the
// others anyway); small amounts are parsed on this thread, since starting worker threads costs more than
// parsing a few appended lines; a first index or a big backlog gets the server's worker pool.
import type { PriceTable } from '../pricing/table.ts';
import type { IndexDb } from '../index-db/types.ts';
import { fileRoles, listTranscripts, type FoundFile } from '../ingest/discovery.ts';
import { FolderListings, listingsFile } from '../ingest/folder-listings.ts';
import { createIngest } from '../ingest/ingest.ts';
import type { ParsePool } from '../ingest/pool.ts';
import { resolveRepositories } from '../ingest/repository.ts';
import { changedTranscripts } from '../ingest/needs-read.ts';
import { limitsSideFile } from '../index-db/limit-readings.ts';
import { newestFirst } from '../ingest/scan-order.ts';

/** Below this many new bytes, parsing here beats starting the pool. */
const POOL_BYTES = 16 << 20;

export interface CatchUpOptions {
  index: IndexDb;
  /** The index's file: its folder listings (`<index>.listing.json`) are beside it. */
  indexFile: string;
  /** The transcripts as a check just listed them (a reader's, before this writer opened); else listed here. */
  listed?: readonly FoundFile[];
  projectsDirs: readonly string[];
  /** The machine label of each projects dir (null: this machine), as the server's pipeline takes it. */
  machines?: readonly (string | null)[];
  /** The table to write with, asked for only when something is to be read. */
  prices: () => Promise<PriceTable>;
  /** Told once when the work is big enough to deserve a line (a first index). */
  onBig?: (files: number, bytes: number) => void;
  log: (msg: string) => void;
}

export interface CatchUpResult {
  /** Files that had something new. */
  changed: number;
  bytes: number;
}

/** A backlog worth a progress line on stderr. */
export const BIG_BYTES = 64 << 20;

/**
 * Every transcript with its size and mtime (one stat each): the walk lists only the folders that changed since a walk
 * last listed them (folder-listings.ts), and keeps what it listed for the next one.
 */
export async function listWithListings(projectsDirs: readonly string[], indexFile: string): Promise<FoundFile[]> {
  const listings = FolderListings.load(listingsFile(indexFile));
  const found = await listTranscripts(projectsDirs, listings.source);
  listings.save();
  return found;
}

export async function catchUp(opts: CatchUpOptions): Promise<CatchUpResult> {
  const { index } = opts;
  // The statusline's plan limit readings, which only a writer can store.
  index.takeInLimitReadings(limitsSideFile(opts.indexFile));
  // The listing's own stat: a file that changes after it is read by the ingest's run() anyway.
  const listed = opts.listed ?? (await listWithListings(opts.projectsDirs, opts.indexFile));
  const dirty = changedTranscripts(listed, index.reports.fileStates());
  if (!dirty.length) return { changed: 0, bytes: 0 };
  let bytes = 0;
  for (const f of dirty) {
    const cursor = index.cursorOf(f.path);
    bytes += cursor && f.size >= cursor.offset ? f.size - cursor.offset : f.size;
  }
  index.setPrices(await opts.prices());
  // A report's figures are of one table: no chunk of a reprice is left for later.
  index.finishReprice();
  if (bytes >= BIG_BYTES) opts.onBig?.(dirty.length, bytes);

  const pool = bytes >= POOL_BYTES ? (await import('../ingest/pool.ts')).createPool({ workBytes: bytes, log: opts.log }) : await inThisThread();
  // Each folder's repository, as the server's pipeline resolves it (older folders first, then each new cwd).
  resolveRepositories(index);
  const ingest = createIngest({ index, pool, roleOf: fileRoles(opts.projectsDirs, opts.machines).of, log: opts.log, newCwd: () => resolveRepositories(index) });
  // Newest first, as the server's scan (src/ingest/scan-order.ts); the end result does not depend on the order. The
  // statusline, reading the file meanwhile, is told only the bound before the first file (just after the newest):
  // less final than it could say, never more.
  index.setFinalSince(new Date(Math.floor(dirty.reduce((m, f) => Math.max(m, f.mtimeMs), 0)) + 1).toISOString());
  for (const f of newestFirst(dirty)) ingest.check(f.path);
  await ingest.idle();
  index.setFinalSince(null);
  await ingest.close();
  await pool.close();
  // A first index (or a history that doubled) leaves its pages half full: written again whole before the command reads.
  index.compactIfDue();
  return { changed: dirty.length, bytes };
}

/** The parser the workers run, called here (loaded on demand: it is not needed when nothing changed). */
async function inThisThread(): Promise<ParsePool> {
  const { readTranscript } = await import('../workers/read-transcript.ts');
  return { threads: 1, parse: async (task) => readTranscript(task), close: async () => {} };
}
