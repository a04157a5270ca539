// One writer per index file (src/index-db/writer-lock.ts): a command that gets the lock writes, one that
// does not reads what the writer (a server, another command) has committed, as a second server would.
import { IndexLockedError, IndexWriteError, openIndex, openIndexReader } from '../index-db/index.ts';
import type { IndexDb, IndexReader } from '../index-db/types.ts';

export type OpenedIndex =
  | { kind: 'writer'; index: IndexDb }
  | { kind: 'reader'; index: IndexReader; writer: string };

/**
 * Throws IndexWriteError when the file can be neither written nor read (read-only, busy past `readerWaitMs`,
 * not a database yet because its writer is still creating it).
 */
export async function openForCommand(file: string, opts: { log: (msg: string) => void; readerWaitMs: number }): Promise<OpenedIndex> {
  try {
    return { kind: 'writer', index: openIndex(file, { log: opts.log }) };
  } catch (err) {
    if (!(err instanceof IndexLockedError)) throw err;
    const until = Date.now() + opts.readerWaitMs;
    for (;;) {
      try {
        return { kind: 'reader', index: openIndexReader(file), writer: err.writer };
      } catch (e) {
        // The writer may still be creating the file.
        if (!(e instanceof IndexWriteError) || e.kind !== 'busy' || Date.now() > until) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}
