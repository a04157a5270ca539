// The statusline's way to freshness without waiting: a detached `cost-dashboard update` (a first index, new lines
// in the session, or a history not looked at for a while), and the stamp that says when the whole tree was last
// looked at. Only fs (and child_process when it starts one): a render loads none of the writer.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { CliArgs } from './args.ts';

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
export async function startBackgroundUpdate(args: CliArgs): Promise<void> {
  markUpdated(args.config.indexPath);
  // Required here: most renders start nothing, and node:child_process costs ~2.5 ms of CPU to load (and import()
  // would start the ES module loader in the CommonJS bundle, ~4 ms).
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, [process.argv[1]!, 'update', ...args.serverFlags], { detached: true, stdio: 'ignore' });
  child.on('error', () => {}); // a failed start only delays freshness: the next render tries again
  child.unref();
}
