// `cost-dashboard update`: the index brought up to date, then exit. The statusline starts it in the
// background (a first index, or one not fully checked for a while) so it never waits on a full scan itself.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { IndexLockedError, openIndex } from '../index-db/index.ts';
import type { CliArgs } from './args.ts';
import { catchUp } from './catch-up.ts';
import { pricesFor } from './prices.ts';

/** Touched when a full catch-up starts: its mtime says when the whole tree was last looked at. */
const stampFile = (indexFile: string): string => `${indexFile}.updated`;

export function markUpdated(indexFile: string): void {
  try {
    const now = new Date();
    fs.closeSync(fs.openSync(stampFile(indexFile), 'a'));
    fs.utimesSync(stampFile(indexFile), now, now);
  } catch {
    // Only costs an earlier background update.
  }
}

/** Milliseconds since the last full catch-up started (Infinity: never). */
export function sinceUpdated(indexFile: string): number {
  const st = fs.statSync(stampFile(indexFile), { throwIfNoEntry: false });
  return st ? Date.now() - st.mtimeMs : Infinity;
}

/** Starts `cost-dashboard update` with the same index flags, detached: it outlives the caller. */
export function startBackgroundUpdate(args: CliArgs): void {
  markUpdated(args.config.indexPath);
  const child = spawn(process.execPath, [process.argv[1]!, 'update', ...args.serverFlags], { detached: true, stdio: 'ignore' });
  child.on('error', () => {}); // a failed start only delays freshness: the next render tries again
  child.unref();
}

export async function runUpdate(args: CliArgs, warn: (msg: string) => void): Promise<number> {
  const file = args.config.indexPath;
  let index;
  try {
    index = openIndex(file, { log: warn });
  } catch (err) {
    if (!(err instanceof IndexLockedError)) throw err;
    warn(`the index is written by another process (${err.writer}), which keeps it up to date`);
    return 0;
  }
  try {
    markUpdated(file);
    const started = Date.now();
    const r = await catchUp({
      index, projectsDirs: args.config.projectsDirs, machines: args.config.dirMachines, log: warn,
      prices: () => pricesFor(args.config, warn),
      onBig: (files, bytes) => warn(`indexing ${files} transcripts (${(bytes / 1048576).toFixed(0)} MiB)`),
    });
    const stats = index.stats();
    warn(`index up to date: ${r.changed} transcripts read (${(r.bytes / 1048576).toFixed(1)} MiB) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${stats.messages} messages in ${stats.files} files`);
  } finally {
    index.close();
  }
  return 0;
}
