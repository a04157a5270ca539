// The listing's folders as they were last read, kept beside the index (`<index>.listing.json`), so that a command's
// freshness check reads only the folders that changed. A folder's entries change only by creating, deleting or
// renaming one, which sets the folder's mtime and ctime; appending to a transcript changes neither, so every
// transcript is still stat'ed by the walk. A folder is taken from here only while its device, inode, mtime and ctime
// are those it had when it was read: setting a folder's mtime back (an mtime-preserving copy, a sync tool) changes
// its ctime, which no program can set, and a folder replaced by another, or by a link to one, is another inode.
// A listing is kept only if the folder's ctime was already MARGIN_MS old when it was read: a change made after the
// read in the same timestamp tick as the one before it (a coarse clock, a file system with 1 or 2 s times) would
// leave every time as it was; with a clock behind the file system's, nothing is kept and every folder is read. (A
// network share whose clock runs more than the margin behind this one's loses that guard; it only ever mattered for
// two changes within one timestamp tick, the later one after a walk.)
// This is a cache of what the file system says, not of the index: any process that walks may write it (a whole new
// file renamed over the old one), and whatever it holds, a folder is only ever taken from it after that check.
import fs from 'node:fs';
import { readFolder, type FolderEntry, type FolderSource, type OnUnreadable } from './discovery.ts';

/** How old a folder's last change must be for its listing to be kept. */
const MARGIN_MS = 3_000;
const VERSION = 1;
const KINDS = { d: 'dir', l: 'link', f: 'file' } as const;
const CODES = { dir: 'd', link: 'l', file: 'f' } as const;

interface Listing {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  entries: FolderEntry[];
}

/** The file of an index's listings. */
export const listingsFile = (indexFile: string): string => `${indexFile}.listing.json`;

export interface FolderListingsOptions {
  /** The clock the margin is measured on (tests move it). */
  now?: () => number;
}

export class FolderListings {
  /** What the file held: folder path -> its listing. */
  private readonly known: Map<string, Listing>;
  /** This walk's folders whose listing can be kept (taken from `known`, or read now and old enough). */
  private readonly kept = new Map<string, Listing>();
  private readonly now: () => number;
  /** Whether a folder read by this walk changes what the file holds. */
  private changed = false;
  /** Folders taken from the file, and folders read, by this walk. */
  readonly counts = { cached: 0, read: 0 };

  private constructor(private readonly file: string, known: Map<string, Listing>, opts: FolderListingsOptions) {
    this.known = known;
    this.now = opts.now ?? Date.now;
  }

  /** The listings of `file`; none when it is missing, unreadable or not one this code wrote. */
  static load(file: string, opts: FolderListingsOptions = {}): FolderListings {
    return new FolderListings(file, parse(file), opts);
  }

  /** The walk's FolderSource: each folder from the file when it did not change, else read now. */
  readonly source: FolderSource = async (dirs, unreadable) => {
    return dirs.map((dir) => {
      const was = this.known.get(dir);
      const st = was && folderStat(dir);
      if (was && st && st.dev === was.dev && st.ino === was.ino && st.mtimeMs === was.mtimeMs && st.ctimeMs === was.ctimeMs) {
        this.kept.set(dir, was);
        this.counts.cached++;
        return was.entries;
      }
      return this.read(dir, unreadable);
    });
  };

  /** Writes this walk's listings when they differ from the file's (a folder read now was kept, or replaced one it held). */
  save(): void {
    if (!this.changed) return;
    const folders: unknown[] = [];
    for (const [dir, l] of this.kept) folders.push([dir, l.dev, l.ino, l.mtimeMs, l.ctimeMs, ...l.entries.map((e) => CODES[e.kind] + e.name)]);
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify({ version: VERSION, folders }));
      fs.renameSync(tmp, this.file);
    } catch {
      // Only costs the next walk its reads (a read-only or full disk).
      fs.rmSync(tmp, { force: true });
    }
  }

  /**
   * A folder read now; kept when its last change is old enough that no later one can hide in the same tick (a
   * folder that could not be read is not: the error may pass without the folder changing).
   */
  private read(dir: string, unreadable?: OnUnreadable): FolderEntry[] {
    this.counts.read++;
    const started = this.now();
    // Stat'ed before it is read: a change between the two leaves a newer ctime than the one kept.
    const st = folderStat(dir);
    const entries = readFolder(dir, unreadable);
    if (st && entries && st.ctimeMs < started - MARGIN_MS) {
      this.kept.set(dir, { ...st, entries });
      this.changed = true;
    } else if (this.known.has(dir)) {
      this.changed = true;
    }
    return entries ?? [];
  }
}

function folderStat(dir: string): Omit<Listing, 'entries'> | null {
  try {
    const st = fs.statSync(dir, { throwIfNoEntry: false });
    return st?.isDirectory() ? { dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : null;
  } catch {
    return null;
  }
}

function parse(file: string): Map<string, Listing> {
  const out = new Map<string, Listing>();
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return out;
  }
  const { version, folders } = (data ?? {}) as { version?: unknown; folders?: unknown };
  if (version !== VERSION || !Array.isArray(folders)) return out;
  for (const f of folders as unknown[]) {
    const listing = listingOf(f);
    if (listing) out.set(listing[0], listing[1]);
  }
  return out;
}

/** One folder of the file, or null when it is not [path, dev, ino, mtime, ctime, ...coded entries]. */
function listingOf(f: unknown): [string, Listing] | null {
  if (!Array.isArray(f) || typeof f[0] !== 'string') return null;
  const [dir, dev, ino, mtimeMs, ctimeMs] = f as unknown[];
  if (typeof dev !== 'number' || typeof ino !== 'number' || typeof mtimeMs !== 'number' || typeof ctimeMs !== 'number') return null;
  const entries: FolderEntry[] = [];
  for (let i = 5; i < f.length; i++) {
    const code: unknown = f[i];
    const kind = typeof code === 'string' && code.length > 1 ? KINDS[code[0] as keyof typeof KINDS] : undefined;
    if (!kind) return null;
    entries.push({ name: (code as string).slice(1), kind });
  }
  return [dir as string, { dev, ino, mtimeMs, ctimeMs, entries }];
}
