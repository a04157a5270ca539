// `cost-dashboard update`: the index brought up to date, then exit. The statusline starts it in the
// background (background-update.ts) so it never waits on a full scan itself.
import { IndexLockedError, openIndex } from '../index-db/index.ts';
import { sweepLeftoverTemps } from '../ingest/leftover-temps.ts';
import type { CliArgs } from './args.ts';
import { lowestPriority, markUpdated } from './background-update.ts';
import { catchUp } from './catch-up.ts';
import { pricesFor } from './prices.ts';

export async function runUpdate(args: CliArgs, warn: (msg: string) => void): Promise<number> {
  // Before the pool's threads start: they take this thread's priority.
  if (args.background) lowestPriority();
  const file = args.config.indexPath;
  let index;
  try {
    index = openIndex(file, { log: warn });
    sweepLeftoverTemps(file);
  } catch (err) {
    if (!(err instanceof IndexLockedError)) throw err;
    warn(`the index is written by another process (${err.writer}), which keeps it up to date`);
    return 0;
  }
  let written = false;
  try {
    markUpdated(file);
    const started = Date.now();
    const r = await catchUp({
      index, indexFile: file, projectsDirs: args.config.projectsDirs, machines: args.config.dirMachines, log: warn,
      prices: () => pricesFor(args.config, warn),
      onBig: (files, bytes) => warn(`indexing ${files} transcripts (${(bytes / 1048576).toFixed(0)} MiB)`),
    });
    // A write or commit that failed (a full disk) was logged and dropped: what was read is not in the file.
    written = index.commit();
    const stats = index.stats();
    if (written) {
      warn(`index up to date: ${r.changed} transcripts read (${(r.bytes / 1048576).toFixed(1)} MiB) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${stats.messages} messages in ${stats.files} files`);
    }
  } finally {
    written = closed(index, warn) && written;
  }
  if (written) return 0;
  warn('the index was not brought up to date: it cannot be written now (see above); it keeps what was committed, and the next update reads the rest');
  return 1;
}

/** Closes the index; false when its last commit or its close failed (logged). */
function closed(index: { close(): void }, warn: (msg: string) => void): boolean {
  try {
    index.close();
    return true;
  } catch (err) {
    warn(`the index could not be closed cleanly (${(err as Error).message})`);
    return false;
  }
}
