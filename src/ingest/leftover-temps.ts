// The files kept beside an index (`<index>.listing.json`, `<index>.prices.json`) are written whole to
// `<file>.<pid>.tmp` and renamed over the old one. A process killed between the two leaves its temp file behind,
// one per kill, each as big as the listing (megabytes on a big history). The process that takes the writer's lock removes
// those of processes that no longer run; a live one may be writing its own right now.
import fs from 'node:fs';
import path from 'node:path';

/** Removes `<index>.*.<pid>.tmp` beside `indexFile` whose process is gone; returns how many it removed. */
export function sweepLeftoverTemps(indexFile: string): number {
  const dir = path.dirname(indexFile);
  const prefix = `${path.basename(indexFile)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = /\.(\d+)\.tmp$/.exec(name.slice(prefix.length));
    if (!pid || isRunning(Number(pid[1]))) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed++;
    } catch {
      // Not ours to remove (another user's, a read-only folder): it stays, as before.
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
