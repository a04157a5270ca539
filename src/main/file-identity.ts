// Which file a path names, so that the index's keeper can tell when the file it writes is no longer at its path:
// SQLite writes on into a file deleted under it (the unlinked inode), and everything is gone when the process stops.
import fs from 'node:fs';

export interface FileIdentity {
  dev: number;
  ino: number;
}

/** The file at `path` now, or null when there is none. */
export function identityOf(path: string): FileIdentity | null {
  try {
    const st = fs.statSync(path);
    return { dev: st.dev, ino: st.ino };
  } catch {
    return null;
  }
}

/** What became of the file that was `was` at `path`: still there, gone (deleted, moved away) or replaced by another. */
export function fateOf(path: string, was: FileIdentity): 'same' | 'gone' | 'replaced' {
  const now = identityOf(path);
  if (!now) return 'gone';
  return now.dev === was.dev && now.ino === was.ino ? 'same' : 'replaced';
}
