// One writer per index file (src/index-db/writer-lock.ts): a report that gets the lock writes, one that
// does not reads what the writer (a server, another command) has committed, as a second server would.
// (The statusline only ever reads: src/index-db/status-reader.ts.)
import { IndexLockedError, openIndex } from '../index-db/index.ts';
import { retryWhileBusy } from '../index-db/read-connection.ts';
import type { IndexDb } from '../index-db/types.ts';
import { sweepLeftoverTemps } from '../ingest/leftover-temps.ts';

export type OpenedIndex<R> =
  | { kind: 'writer'; index: IndexDb }
  | { kind: 'reader'; index: R; writer: string };

/**
 * The writer when the lock is free, else a reader opened by `openReader` (the reads the command needs and no more).
 * Throws IndexWriteError when the file can be neither written nor read (read-only, busy past `readerWaitMs`, not a
 * database yet because its writer is still creating it).
 */
export async function openForCommand<R>(
  file: string,
  opts: { log: (msg: string) => void; readerWaitMs: number; openReader: (file: string) => R },
): Promise<OpenedIndex<R>> {
  let writer: string;
  try {
    const index = openIndex(file, { log: opts.log });
    sweepLeftoverTemps(file);
    return { kind: 'writer', index };
  } catch (err) {
    if (!(err instanceof IndexLockedError)) throw err;
    writer = err.writer;
  }
  // The writer may still be creating the file.
  return { kind: 'reader', index: await retryWhileBusy(() => opts.openReader(file), opts.readerWaitMs), writer };
}
