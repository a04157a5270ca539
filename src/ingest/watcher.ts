// chokidar over every projects folder. The start-up scan is done by discovery (it knows the total
// size for progress), so the watcher only reports what changes afterwards; ingest makes repeats no-ops.
// It follows no symlink (a loop would be walked again and again): the folders and files discovery reached through
// links are watched at their real paths (`add`), and TranscriptPaths.canonical maps what it reports back.
//
// chokidar watches folders only. Given the files too, it puts an fs.watch and its bookkeeping on each: over a big
// history its walk took more than twice as long and left far more resident memory than for the folders alone
// (bench/RESULTS.md). A folder's watch reports every
// entry in it, an append to a file included: on Linux inotify gives the folder's watch a 'change' naming the file
// (a creation, deletion or rename is a 'rename'); libuv's folder watches on macOS (FSEvents) and Windows
// (ReadDirectoryChangesW) report their files' writes too. So files are read from the folders' raw events, and a file
// given to `add` (one reached through a link, whose folder is not watched) gets a watch of its own. The folders are
// walked here, a slice at a time (WALK_SLICE), not by chokidar all at once.
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isHiddenName, isTranscript, readFolder, readFolders } from './discovery.ts';
import type { Log } from './log.ts';
import { nextTurn, type Turn } from './turns.ts';

export interface Watcher {
  /** Resolves once chokidar has walked the folders and watches them. */
  ready: Promise<void>;
  /** Watches more paths (real folders or files reached through links). */
  add(paths: readonly string[]): void;
  close(): Promise<void>;
}

export interface WatchHandlers {
  changed(path: string): void;
  /**
   * Whether the start-up scan listed the file: one it did not (made since) is reported when the walk lists its folder,
   * not left to the re-check after the whole walk. Absent: every file the walk lists is taken as listed.
   */
  listed?(path: string): boolean;
  removed(path: string): void;
  /** A watched folder went (deleted, or moved away with what it holds): the transcripts that were in it went too. */
  removedFolder(path: string): void;
}

/**
 * Folders per chokidar instance in the watcher's walk. Given every folder at once, chokidar reads all of them and
 * `lstat`s every entry with everything in flight together, so the walk's garbage outlives the young generation and
 * stays as committed heap: over a big history chokidar alone grew about twice as much as with small slices, one
 * instance after the other (smaller slices gained nothing more, larger ones gave some of it back).
 */
const WALK_SLICE = 25;
/**
 * Entries per slice (folders with more are a slice alone): chokidar lstats every entry of the folders it watches, all
 * together, so 25 folders of 1,000 transcripts each were 25,000 stats in flight, whose garbage stayed as committed
 * memory after the walk (100,000 one-line transcripts in 100 folders: over the 400 MB bound).
 */
const WALK_ENTRIES = 1000;

/**
 * Cuts `dirs` into runs of at most WALK_ENTRIES entries between them (by a listing of names, no stat; read
 * synchronously, as discovery.ts readFolders reads: a slice's few folders are a short turn, and cheaper so).
 */
export function slicesByEntries(dirs: readonly string[], budget = WALK_ENTRIES): string[][] {
  const counts = dirs.map(entryCount);
  const slices: string[][] = [];
  let slice: string[] = [];
  let entries = 0;
  dirs.forEach((dir, i) => {
    if (slice.length && entries + counts[i]! > budget) {
      slices.push(slice);
      slice = [];
      entries = 0;
    }
    slice.push(dir);
    entries += counts[i]!;
  });
  if (slice.length) slices.push(slice);
  return slices;
}

function entryCount(dir: string): number {
  try {
    return fs.readdirSync(dir).length;
  } catch {
    return 0;
  }
}

/** `turn`: awaited before each slice of the walk (the server gives way to requests with it: turns.ts). */
export function watchProjects(dirs: readonly string[], on: WatchHandlers, log: Log, turn: Turn = nextTurn): Watcher {
  const present = dirs.filter((d) => fs.existsSync(d)).map((d) => fs.realpathSync.native(d));
  // A projects folder that does not exist yet is watched from its parent, so a first session is picked up; one that
  // is itself a link is watched at its real path.
  const parentsOfAbsent = dirs.filter((d) => !fs.existsSync(d)).map((d) => d.replace(/[\\/]projects$/, ''));
  const targets = [...present, ...parentsOfAbsent];
  // A sync tool's hidden folder inside a projects folder is not walked; the watched folders themselves may be hidden (~/.claude).
  const hiddenInside = (p: string): boolean => isHiddenName(path.basename(p)) && !targets.some((t) => t === p || t.startsWith(p + path.sep));
  /** Files given to `add`: the only files chokidar watches itself. */
  const files = new Set<string>();
  const options = {
    ignoreInitial: true,
    ignorePermissionErrors: true,
    followSymlinks: false,
    // Transcripts are append-only and the worker consumes complete lines only, so no write-finish wait.
    awaitWriteFinish: false,
    // A file inside a folder is seen through its folder's watch (the 'raw' handler below). A symlink is not a file
    // here: chokidar reports a link made in a watched folder ('add') without watching or following it.
    ignored: (p: string, stats?: fs.Stats) => hiddenInside(p) || Boolean(stats?.isFile() && !files.has(p)),
  };
  const report = (p: string): void => {
    if (!isTranscript(p)) return;
    if (fs.existsSync(p)) on.changed(p);
    else on.removed(p);
  };
  let closed = false;

  // The folders under the projects folders are watched by the walk below, each by an instance of its own slice that
  // watches only the folders given to it (depth 0) and is listed by the walk once that instance is ready: a
  // sub-folder or file made before the folder's watch is in that listing, one made after it is reported by the watch.
  /** The walk's instance watching each folder. */
  const owners = new Map<string, FSWatcher>();
  /** How many folders each of the walk's instances still watches: one left with none is closed. */
  const owned = new Map<FSWatcher, number>();
  /** Folders waiting for a watch: the start-up walk's (`ready` waits for these), then those made since. */
  const startQueue: string[] = [...present];
  const freshQueue: string[] = [];
  /** Watches a slice, then lists it: sub-folders queue behind it; a fresh folder's transcripts are reported. */
  const watchSlice = async (slice: string[], fresh: boolean): Promise<void> => {
    const instance = listen(watch(slice, { ...options, depth: 0 }), 'walked');
    for (const dir of slice) owners.set(dir, instance);
    owned.set(instance, slice.length);
    await new Promise<void>((resolve) => instance.once('ready', () => resolve()));
    // a folder gone again has no entries: its 'unlinkDir' follows
    const listings = await readFolders(slice);
    slice.forEach((dir, i) => {
      for (const e of listings[i]!) {
        const p = path.join(dir, e.name);
        if (e.kind === 'dir') (fresh ? freshQueue : startQueue).push(p);
        else if (e.kind === 'file' && (fresh || on.listed?.(p) === false)) report(p);
      }
    });
  };
  let startWalked: () => void = () => undefined;
  const walked = new Promise<void>((resolve) => (startWalked = resolve));
  /**
   * Watches what is queued, a slice at a time, the start-up walk first; a folder queued twice (found by a listing and
   * reported new) once. New folders made faster than they are watched do not hold `ready` back.
   */
  const drain = async (): Promise<void> => {
    while (!closed && (startQueue.length || freshQueue.length)) {
      const fresh = startQueue.length === 0;
      const dirs = [...new Set((fresh ? freshQueue : startQueue).splice(0, WALK_SLICE))].filter((dir) => !owners.has(dir));
      for (const slice of slicesByEntries(dirs)) {
        const unwatched = slice.filter((dir) => !owners.has(dir));
        if (!unwatched.length) continue;
        await turn();
        if (!closed) await watchSlice(unwatched, fresh);
      }
      if (!startQueue.length) startWalked();
    }
    startWalked();
  };
  let walking = Promise.resolve();
  const walk = (): Promise<void> =>
    (walking = walking.then(drain).catch((err: unknown) => {
      log(`watcher: ${err instanceof Error ? err.message : String(err)}`);
      startWalked(); // the re-checks still cover what the walk did not watch
    }));
  const unwatchUnder = (folder: string): void => {
    // A folder moved away keeps its watch on the moved folder: closed here, so one made again under its name gets a
    // watch of its own (chokidar shares one fs.watch per path).
    for (const [dir, instance] of owners) {
      if (dir !== folder && !dir.startsWith(folder + path.sep)) continue;
      owners.delete(dir);
      instance.unwatch(dir);
      const left = owned.get(instance)! - 1;
      owned.set(instance, left);
      if (left === 0) {
        owned.delete(instance);
        void instance.close();
      }
    }
  };

  function listen(instance: FSWatcher, kind: 'walked' | 'recursive'): FSWatcher {
    instance.on('raw', (_event, name, details) => {
      const folder = watchedPathOf(details);
      // A file's own watch names the file itself: chokidar's 'change' and 'unlink' below report those.
      if (!name || !folder || files.has(folder)) return;
      report(path.join(folder, name));
    });
    instance.on('addDir', (dir) => {
      if (kind === 'walked') {
        // A new folder in a walked one (tracked there, not watched): the walk watches it, then lists it.
        freshQueue.push(dir);
        void walk();
        return;
      }
      // The recursive instance walks a new folder itself, without reporting the files it finds (its walk ignores
      // files), so they are listed here; chokidar reports a new folder after `ready` only.
      for (const e of readFolder(dir) ?? []) if (e.kind === 'file') report(path.join(dir, e.name));
    });
    instance.on('unlinkDir', (dir) => {
      unwatchUnder(dir);
      on.removedFolder(dir);
    });
    // The files chokidar does watch (those given to `add`) and the links in watched folders.
    const onFile = (p: string): void => {
      if (isTranscript(p)) on.changed(p);
    };
    instance.on('add', onFile).on('change', onFile);
    instance.on('unlink', (p) => {
      if (isTranscript(p)) on.removed(p);
    });
    instance.on('error', (err) => log(`watcher: ${err instanceof Error ? err.message : String(err)}`));
    return instance;
  }

  // The parents of projects folders not there yet, and what `add` is given (folders and files reached through links):
  // chokidar's own recursive walk, few folders.
  const recursive = listen(watch(parentsOfAbsent, options), 'recursive');
  const recursiveReady = parentsOfAbsent.length ? new Promise<void>((resolve) => recursive.once('ready', () => resolve())) : Promise.resolve();
  void walk();
  const ready = Promise.all([walked, recursiveReady]).then(() => undefined);
  return {
    ready,
    add: (paths) => {
      for (const p of paths) if (fs.statSync(p, { throwIfNoEntry: false })?.isFile()) files.add(p);
      recursive.add([...paths]);
    },
    close: async () => {
      closed = true;
      await Promise.all([recursive.close(), ...[...owned.keys()].map((instance) => instance.close())]);
    },
  };
}

/** The path of the fs.watch behind a chokidar 'raw' event (its third argument: `{ watchedPath }`). */
function watchedPathOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null || !('watchedPath' in details)) return undefined;
  return typeof details.watchedPath === 'string' ? details.watchedPath : undefined;
}
