// The statusline's way to freshness without waiting: a detached `cost-dashboard update` (a first index, new lines
// in the session, or a history not looked at for a while), at most one at a time and at the lowest CPU priority, so
// it yields the CPU to the renders that follow it (on a big history an update stats every transcript, and one that
// writes first loads every stored dedup key, both far longer than a render). Also the stamp that says when the whole tree
// was last looked at. A render loads none of the writer from here: fs, os and the writer-lock probe.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { writerIsLive } from '../index-db/writer-lock.ts';
import type { CliArgs } from './args.ts';

/** Touched when a full catch-up starts: its mtime says when the whole tree was last looked at. */
const stampFile = (indexFile: string): string => `${indexFile}.updated`;
/** The pid of the update a render started last: it is starting (or running) while that process lives. */
const startedFile = (indexFile: string): string => `${indexFile}.update-pid`;
/**
 * How long a started update may take to hold the writer lock, after which the lock alone says whether it runs
 * (the bound keeps a pid that the OS gave to another process since from blocking updates).
 */
const STARTING_MS = 30_000;

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

/** Whether the update a render started last is still alive, within STARTING_MS of its start. */
function updateStarted(indexFile: string): boolean {
  let pid: number;
  try {
    const file = startedFile(indexFile);
    if (Date.now() - fs.statSync(file).mtimeMs > STARTING_MS) return false;
    pid = Number(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/**
 * Starts `cost-dashboard update --background` with the same index flags, detached (it outlives the render), unless
 * a writer holds the index (a server, or the update started before: it keeps the index fresh) or the update a
 * render started last has not taken the lock yet. `entry` is the script that runs the command line (this
 * process's own, dist/cost-dashboard.cjs or dist/main.js). Returns the started process's pid, or null.
 */
export function startBackgroundUpdate(args: CliArgs, entry = process.argv[1]!): number | null {
  const file = args.config.indexPath;
  if (updateStarted(file) || writerIsLive(file)) return null;
  markUpdated(file);
  // Required here: most renders start nothing, and loading node:child_process is a cost every render would pay (and
  // import() would start the ES module loader in the CommonJS bundle).
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, [entry, 'update', '--background', ...args.serverFlags], { detached: true, stdio: 'ignore' });
  child.on('error', () => {}); // a failed start only delays freshness: the next render tries again
  child.unref();
  if (child.pid === undefined) return null;
  try {
    fs.writeFileSync(startedFile(file), String(child.pid));
  } catch {
    // Only costs a second update, which finds the lock taken and exits.
  }
  return child.pid;
}

/**
 * This process at the lowest CPU priority, every thread of it: on Linux a nice value is per thread and V8's helper
 * threads exist before any code runs (threads started later take their creator's); elsewhere it is per process.
 */
export function lowestPriority(): void {
  const low = os.constants.priority.PRIORITY_LOW;
  let threads = [0]; // this thread (Linux), the process (elsewhere)
  try {
    threads = threads.concat(fs.readdirSync('/proc/self/task').map(Number));
  } catch {
    // not Linux: the process's priority is all there is
  }
  for (const tid of threads) {
    try {
      os.setPriority(tid, low);
    } catch {
      // a thread that ended meanwhile; a priority the OS refuses only costs the renders some CPU
    }
  }
}
