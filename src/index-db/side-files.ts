// SQLite's side files of a WAL index (`-wal`, `-shm`) created by an open of a read-only index file take that file's
// mode: read-only. Left behind, they refuse every writer even after the index is made writable again, and the error
// names only the index. A connection that made them removes them once it is done (closed, or its open failed);
// those that were there before are not its to remove.
import fs from 'node:fs';

const SIDES = ['-wal', '-shm'] as const;

/** Which side files exist beside `file` now (before an open). */
export function sideFilesOf(file: string): Set<string> {
  return new Set(SIDES.map((s) => file + s).filter((p) => fs.existsSync(p)));
}

/**
 * Removes the side files beside `file` that were not there before the connection (`before`) and that no one may write
 * (no owner write bit): they hold nothing (a read-only connection writes no frame), and they would refuse the writers.
 */
export function dropReadOnlySideFiles(file: string, before: Set<string>): void {
  for (const side of SIDES) {
    const p = file + side;
    if (before.has(p)) continue;
    try {
      const st = fs.statSync(p);
      if ((st.mode & 0o200) === 0 && (side === '-shm' || st.size === 0)) fs.rmSync(p);
    } catch {
      // not there, or not ours to remove: as before
    }
  }
}

/** The side files a stale read-only leftover (one that was there before) that keep a writer out, for its error. */
export function readOnlySideFiles(file: string): string[] {
  return SIDES.map((s) => file + s).filter((p) => {
    try {
      return (fs.statSync(p).mode & 0o200) === 0;
    } catch {
      return false;
    }
  });
}
