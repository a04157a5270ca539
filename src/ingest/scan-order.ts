// The order a scan reads transcripts in (newest first) and the instant from which its figures are final.
//
// The rule. Claude Code writes an entry into a transcript when it happens, so a file last modified at M holds no
// entry later than M, though it may hold entries of any earlier time. Read the listed files newest first; at any
// moment let U be the newest mtime of a listed file not yet fully read. Every unread entry then has a timestamp
// <= U, so every range that starts after U holds all of its entries already: finalSince = floor(U) + 1 ms (entry
// times are whole ms). That is at or before the mtime of the oldest file such that every file modified since it is
// read, and tighter when the next unread file is much older. It moves back in time as the scan goes; once every listed
// file is read, every range is final.
//
// What it covers and what it does not:
// - Each file counts on its own, whatever its role: a subagent's transcript holds its own entries with their own
//   times, so it is one more file in the order, not part of its session's.
// - Files read in parallel finish out of order: the bound waits for the newest unread file, so a small old file done
//   early moves nothing.
// - A file that cannot be stat'ed is listed with mtime 0: it is read last and holds the bound at the epoch until then.
// - The listing is the snapshot: lines appended after it (a live session) are the live tail, read as every append is
//   (the file's own read takes what is there when it runs; the watcher after the scan takes the rest), exactly as
//   once the index is built. An old file appended to after the listing keeps its old place in the order.
// - The read order puts a session's subagent transcripts right after its main one (a session's facts, its cwd and so
//   its folder's repository, come from the main transcript first, as in the listing's order); the bound does not
//   depend on the read order, only on which files are read, so it is computed over the files in descending mtime.
// - Dedup does not move a final figure: a copy of one response in two files carries the same timestamp (a resumed
//   session copies the lines as they were), so whichever copy wins, the entry counts at that time, and the older
//   file's copy is older than U's bound when it is read.
import path from 'node:path';
import type { FoundFile } from './discovery.ts';

export type ScanFile = Pick<FoundFile, 'path' | 'size' | 'mtimeMs'>;

/** The files newest first by mtime; equal mtimes keep the listing's order (a stable sort). */
function byMtime<T extends Pick<FoundFile, 'mtimeMs'>>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => b.mtimeMs - a.mtimeMs);
}

const SUBAGENTS = `${path.sep}subagents${path.sep}`;

/**
 * The order to read in: sessions newest first by mtime, each session's subagent transcripts
 * (`<session>/subagents/**`) right after its main transcript, newest first among them.
 */
export function newestFirst<T extends Pick<FoundFile, 'path' | 'mtimeMs'>>(files: readonly T[]): T[] {
  const main = new Map<string, T>(); // a session's main transcript by its path without `.jsonl`
  for (const f of files) if (!f.path.includes(SUBAGENTS) && f.path.endsWith('.jsonl')) main.set(f.path.slice(0, -'.jsonl'.length), f);
  const after = new Map<T, T[]>();
  const top: T[] = [];
  for (const f of files) {
    const at = f.path.indexOf(SUBAGENTS);
    const session = at < 0 ? undefined : main.get(f.path.slice(0, at));
    if (session === undefined) top.push(f);
    else if (after.has(session)) after.get(session)!.push(f);
    else after.set(session, [f]);
  }
  return byMtime(top).flatMap((f) => [f, ...byMtime(after.get(f) ?? [])]);
}

/** The finalSince of a scan, as its files are read. */
export class FinalFrontier {
  /** The first file of `ordered` not yet known read: every file before it is. */
  private next = 0;

  private readonly ordered: readonly ScanFile[];

  /** `files` in any order (the bound is over them newest first by mtime, whatever order they are read in). */
  constructor(
    files: readonly ScanFile[],
    private readonly isRead: (path: string) => boolean,
  ) {
    this.ordered = byMtime(files);
  }

  /** The instant (ms) from which every range is final; 0 once every file is read. */
  finalSinceMs(): number {
    while (this.next < this.ordered.length && this.isRead(this.ordered[this.next]!.path)) this.next++;
    const unread = this.ordered[this.next];
    return unread === undefined ? 0 : Math.floor(unread.mtimeMs) + 1;
  }

  /** finalSinceMs() as an ISO time: the API's and the index file's form. */
  finalSince(): string {
    return new Date(this.finalSinceMs()).toISOString();
  }
}
