// Where a transcript sits in the config dir decides what it is (decisions.md "Layout"):
//   projects/<p>/<session>.jsonl                          a session
//   projects/<p>/<session>/subagents/**/agent-<id>.jsonl  subagent usage of that session (+ agent-<id>.meta.json, which
//                                                         the parse worker reads with the transcript); a workflow
//                                                         run's agents are subagents/workflows/wf_<id>/agent-*.jsonl
//                                                         (the run: shared/workflow-run.ts), its journal.jsonl no
//                                                         transcript
//   projects/<p>/agent-<id>.jsonl                         2.0.x subagents: of the session their lines name
//   projects/<p>/**/other.jsonl                           read, attributed per line by its sessionId
import fs from 'node:fs';
import path from 'node:path';
import type { FileRole } from '../index-db/types.ts';
import { nextTurn, type Turn } from './turns.ts';

/**
 * Sync tools keep their own files and folders beside the synced ones, all named with a leading dot (temporary
 * files, iCloud's `.x.jsonl.icloud` placeholders, Syncthing's `.stversions`, Dropbox's `.dropbox.cache`); Claude
 * Code's project folders (encoded paths) and transcripts never start with one.
 */
export function isHiddenName(name: string): boolean {
  return name.startsWith('.');
}

/** Workflow journals hold no usage; skipping them saves a read. */
export function isTranscript(file: string): boolean {
  const name = path.basename(file);
  return file.endsWith('.jsonl') && name !== 'journal.jsonl' && !isHiddenName(name);
}

// A sync conflict copy keeps the original name plus a marker: Dropbox `<name> (<who>'s conflicted copy <date>)`,
// Syncthing `<name>.sync-conflict-<date>-<time>-<device>`.
const CONFLICT_SUFFIX = /(?: \([^()]*conflicted copy[^()]*\)|\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7})$/;

/** A file name without its sync-conflict marker: a conflict copy belongs to the original's session. */
export function withoutConflictMarker(base: string): string {
  return base.replace(CONFLICT_SUFFIX, '');
}

/** What a transcript's path says of it: its role but the subagent's meta (the parse worker reads that, agent-meta.ts). */
export type PathRole = Omit<FileRole, 'agentType' | 'agentDescription'>;

/** The role of a transcript from its path alone, or null when it is not under a project folder of `projectsDir`. */
export function roleOf(projectsDir: string, file: string): PathRole | null {
  const rel = path.relative(projectsDir, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  if (parts.length < 2) return null; // a .jsonl directly in projects/ belongs to no project
  const project = parts[0]!;
  const base = withoutConflictMarker(path.basename(file, '.jsonl'));
  const agent = /^agent-(.+)$/.exec(base)?.[1] ?? null;
  if (parts.length === 2 && !agent) return { project, session: base, agentId: null };
  const subIdx = parts.indexOf('subagents');
  if (subIdx === 2 && parts.length > 3) return { project, session: parts[1]!, agentId: agent ?? base };
  return { project, session: null, agentId: agent };
}

/** The role of each transcript from its path, found once per path; forget(path) when it goes away. */
export function fileRoles(
  projectsDirs: readonly string[],
  /** The machine label of each projects dir (null: this machine). */
  machines?: readonly (string | null)[],
): { of(file: string): PathRole | null; forget(file: string): void } {
  const roles = new Map<string, PathRole | null>();
  return {
    of(file) {
      if (roles.has(file)) return roles.get(file)!;
      const i = projectsDirs.findIndex((d) => roleOf(d, file));
      const base = i >= 0 ? roleOf(projectsDirs[i]!, file) : null;
      // Every entry belongs to the machine of the dir it was read from.
      const role = base ? { ...base, machine: machines?.[i] ?? null } : null;
      roles.set(file, role);
      return role;
    },
    forget: (file) => void roles.delete(file),
  };
}

export interface FoundFile {
  path: string;
  size: number;
  /** Of the stat that found it (0 when it could not be stat'ed). */
  mtimeMs: number;
}

/** Every transcript under the projects dirs (a missing dir is simply empty), each real file once. */
export function listTranscripts(projectsDirs: readonly string[], folders: FolderSource = readFolders): Promise<FoundFile[]> {
  return new TranscriptPaths().list(projectsDirs, folders);
}

/** What the walk acts on in a folder: a sub-folder, a symlink (followed or not by its target) or a transcript file. */
export interface FolderEntry {
  name: string;
  kind: 'dir' | 'link' | 'file';
}

/** Told of a folder that exists but cannot be read (permission, I/O), with the error's code. */
export type OnUnreadable = (dir: string, code: string) => void;

/**
 * Where the walk gets the entries of one level of folders (one array per folder, in name order): `readFolders` reads
 * them; a cache (src/ingest/folder-listings.ts) may answer for folders that did not change since it read them.
 */
export type FolderSource = (dirs: readonly string[], unreadable?: OnUnreadable, turn?: Turn) => Promise<FolderEntry[][]>;

/**
 * Folders read (synchronously, as every folder is read here) between two turns of the event loop. A first index's
 * listing waits for nothing else, and asynchronous reads cost it much more: each folder's read a promise and a trip
 * through libuv's threads, which on two cores take CPU from the main thread and the starting parse workers
 * (bench/RESULTS.md has the figures). This many keep a turn short enough for a request that waits behind it.
 */
const FOLDERS_PER_TURN = 64;

/** The entries of each folder, read now (none for a folder that cannot be read). */
export const readFolders: FolderSource = async (dirs, unreadable, turn = nextTurn) => {
  const out: FolderEntry[][] = [];
  for (const [i, dir] of dirs.entries()) {
    if (i > 0 && i % FOLDERS_PER_TURN === 0) await turn();
    out.push(readFolder(dir, unreadable) ?? []);
  }
  return out;
};

/** The entries of a folder the walk acts on, in name order; null when it is gone or cannot be read (`unreadable` is told). */
export function readFolder(dir: string, unreadable?: OnUnreadable): FolderEntry[] | null {
  const entries = readdir(dir, unreadable);
  if (entries === null) return null;
  const out: FolderEntry[] = [];
  for (const e of entries) {
    if (isHiddenName(e.name) && !e.isFile()) continue; // a sync tool's folder (.stversions), never transcripts
    if (e.isDirectory()) out.push({ name: e.name, kind: 'dir' });
    else if (e.isSymbolicLink()) out.push({ name: e.name, kind: 'link' });
    else if (e.isFile() && isTranscript(e.name)) out.push({ name: e.name, kind: 'file' });
  }
  return out;
}

/**
 * `path.join(dir, name)` for a normalized `dir` and an entry name (no separator in it), without join's normalizing
 * pass: the walk joins ~20,000 paths on a big history.
 */
function childPath(dir: string, name: string): string {
  if (dir === '.') return name;
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/**
 * Transcripts stat'ed (synchronously, below) between two turns of the event loop: a server's periodic walk of a big
 * history held the main thread for the whole of one level's stats; this many keep a turn short enough for an answer
 * that waits behind it during the 30 s re-check (bench/RESULTS.md has the figures).
 */
const STATS_PER_TURN = 250;

/**
 * The one rule for symlinks, shared by the start-up scan and the watcher: symlinked folders and transcripts are
 * followed (synced or moved folders), but each real folder and each real file is taken once, under the first path
 * that reaches it: the shallowest, then by name. A link loop or a second link to the same folder therefore never
 * reads a file twice, and a fresh index picks the same paths. The claims last as long as the object, so the
 * watcher's paths (`canonical`) and every later `list` agree with the scan.
 */
export class TranscriptPaths {
  /** Real path of each folder walked -> the path it is known by. */
  private readonly dirs = new Map<string, string>();
  /** Real path of each transcript -> the path it is indexed under. */
  private readonly files = new Map<string, string>();
  /** Real paths reached only through a link (folders and files): the watcher, which follows no link, watches them. */
  readonly linked = new Set<string>();
  /** The folders the last `list` could not read, with the error's code: none of their transcripts is listed. */
  readonly unreadable = new Map<string, string>();

  /** Walks the projects dirs breadth-first, each level in name order, awaiting `turn` between slices. */
  async list(projectsDirs: readonly string[], folders: FolderSource = readFolders, turn: Turn = nextTurn): Promise<FoundFile[]> {
    const out: FoundFile[] = [];
    this.unreadable.clear();
    const unreadable: OnUnreadable = (dir, code) => this.unreadable.set(dir, code);
    let stats = 0;
    let level: { dir: string; real: string }[] = [];
    for (const given of projectsDirs) {
      const dir = path.normalize(given);
      const real = realpath(dir);
      if (real !== null && this.claimDir(real, dir)) level.push({ dir, real });
    }
    while (level.length) {
      const listed = await folders(level.map((d) => d.dir), unreadable, turn);
      const next: typeof level = [];
      for (const [i, { dir, real }] of level.entries()) {
        for (const e of listed[i]!) {
          const p = childPath(dir, e.name);
          // Outside linked folders a path is its real path: one string for both.
          const r = real === dir ? p : childPath(real, e.name);
          if (e.kind === 'dir') {
            if (this.claimDir(r, p)) next.push({ dir: p, real: r });
          } else if (e.kind === 'link') {
            this.link(p, next, out);
          } else {
            const found = transcriptAt(p);
            if (found !== null && this.claimFile(r, p)) out.push(found);
            if (++stats % STATS_PER_TURN === 0) await turn();
          }
        }
      }
      level = next;
    }
    return out;
  }

  /** The path a file the watcher reports is indexed under; for a removed file, the path it was indexed under. */
  canonical(p: string): string {
    const real = realpath(p);
    const known = real === null ? undefined : this.files.get(real);
    if (known !== undefined) return known;
    const c = path.join(this.canonicalDir(path.dirname(p)), path.basename(p));
    if (real !== null) this.files.set(real, c);
    return c;
  }

  /** The paths the transcripts were indexed under whose real path lies inside `folder` (a real path). */
  filesUnder(folder: string): string[] {
    const inside = folder + path.sep;
    const out: string[] = [];
    for (const [real, indexed] of this.files) if (real.startsWith(inside)) out.push(indexed);
    return out;
  }

  private canonicalDir(dir: string): string {
    const real = realpath(dir) ?? dir;
    const known = this.dirs.get(real);
    if (known !== undefined) return known;
    const parent = path.dirname(dir);
    const c = parent === dir ? dir : path.join(this.canonicalDir(parent), path.basename(dir));
    this.dirs.set(real, c);
    return c;
  }

  /** A symlink met by the walk: a folder is walked and a transcript listed, unless their real path is taken. */
  private link(p: string, next: { dir: string; real: string }[], out: FoundFile[]): void {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch (err) {
      // A broken link or a loop of links: ingest tries a transcript and counts it unreadable, so the user sees it.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && isTranscript(p)) out.push({ path: p, size: 0, mtimeMs: 0 });
      return;
    }
    const real = realpath(p);
    if (real === null) return;
    if (st.isDirectory()) {
      if (this.claimDir(real, p)) {
        next.push({ dir: p, real });
        this.linked.add(real);
      }
    } else if (st.isFile() && isTranscript(p) && this.claimFile(real, p)) {
      out.push({ path: p, size: st.size, mtimeMs: st.mtimeMs });
      this.linked.add(real);
    }
  }

  private claimDir(real: string, p: string): boolean {
    return claim(this.dirs, real, p);
  }

  private claimFile(real: string, p: string): boolean {
    return claim(this.files, real, p);
  }
}

/** True when `p` holds the claim on `real` (it had it, or takes it now). */
function claim(claims: Map<string, string>, real: string, p: string): boolean {
  const holder = claims.get(real);
  if (holder === undefined) claims.set(real, p);
  return holder === undefined || holder === p;
}

function realpath(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/** A folder's entries in name order; null when it cannot be read (gone, not a folder, no permission: then `unreadable` is told). */
function readdir(dir: string, unreadable?: OnUnreadable): fs.Dirent[] | null {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadable?.(dir, code);
    return null;
  }
}

/** A transcript with its size and mtime; zeros for one that cannot be stat'ed (ingest counts it unreadable); null when it vanished. */
function transcriptAt(p: string): FoundFile | null {
  try {
    // statSync: far cheaper a file than a promise round trip on the main thread.
    const st = fs.statSync(p);
    return { path: p, size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : { path: p, size: 0, mtimeMs: 0 };
  }
}
