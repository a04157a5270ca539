// chokidar over every projects folder. The start-up scan is done by discovery (it knows the total
// size for progress), so the watcher only reports what changes afterwards; ingest makes repeats no-ops.
// It follows no symlink (a loop would be walked again and again): the folders and files discovery reached through
// links are watched at their real paths (`add`), and TranscriptPaths.canonical maps what it reports back.
//
// chokidar watches folders only. Given the files too, it puts an fs.watch and its bookkeeping on each: over the 10 GiB
// corpora (4,693 folders, 13,935 transcripts) its walk took 6.5 s and left 268 MB of resident memory after a full GC
// (72 MB of it live heap), against 2.7 s and 163 MB (18 MB) for the folders alone. A folder's watch reports every
// entry in it, an append to a file included: on Linux inotify gives the folder's watch a 'change' naming the file
// (a creation, deletion or rename is a 'rename'); libuv's folder watches on macOS (FSEvents) and Windows
// (ReadDirectoryChangesW) report their files' writes too. So files are read from the folders' raw events, and a file
// given to `add` (one reached through a link, whose folder is not watched) gets a watch of its own.
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isHiddenName, isTranscript, readFolder } from './discovery.ts';
import type { Log } from './log.ts';

export interface Watcher {
  /** Resolves once chokidar has walked the folders and watches them. */
  ready: Promise<void>;
  /** Watches more paths (real folders or files reached through links). */
  add(paths: readonly string[]): void;
  close(): Promise<void>;
}

export interface WatchHandlers {
  changed(path: string): void;
  removed(path: string): void;
  /** A watched folder went (deleted, or moved away with what it holds): the transcripts that were in it went too. */
  removedFolder(path: string): void;
}

export function watchProjects(dirs: readonly string[], on: WatchHandlers, log: Log): Watcher {
  // A projects folder that does not exist yet is watched from its parent, so a first session is picked up; one that
  // is itself a link is watched at its real path.
  const targets = dirs.map((d) => (fs.existsSync(d) ? fs.realpathSync.native(d) : d.replace(/[\\/]projects$/, '')));
  // A sync tool's hidden folder inside a projects folder is not walked; the watched folders themselves may be hidden (~/.claude).
  const hiddenInside = (p: string): boolean => isHiddenName(path.basename(p)) && !targets.some((t) => t === p || t.startsWith(p + path.sep));
  /** Files given to `add`: the only files chokidar watches itself. */
  const files = new Set<string>();
  const watcher: FSWatcher = watch(targets, {
    ignoreInitial: true,
    ignorePermissionErrors: true,
    followSymlinks: false,
    // Transcripts are append-only and the worker consumes complete lines only, so no write-finish wait.
    awaitWriteFinish: false,
    // A file inside a folder is seen through its folder's watch (the 'raw' handler below). A symlink is not a file
    // here: chokidar reports a link made in a watched folder ('add') without watching or following it.
    ignored: (p, stats) => hiddenInside(p) || Boolean(stats?.isFile() && !files.has(p)),
  });
  const report = (p: string): void => {
    if (!isTranscript(p)) return;
    if (fs.existsSync(p)) on.changed(p);
    else on.removed(p);
  };
  watcher.on('raw', (_event, name, details) => {
    const folder = watchedPathOf(details);
    // A file's own watch names the file itself: chokidar's 'change' and 'unlink' below report those.
    if (!name || !folder || files.has(folder)) return;
    report(path.join(folder, name));
  });
  // A new folder's transcripts written before chokidar watched it: its walk of the folder ignores files, so they are
  // listed here (a file written after this listing is the folder watch's). chokidar reports a new folder after
  // `ready` only.
  watcher.on('addDir', (dir) => {
    void readFolder(dir).then((entries) => {
      // none when it is gone again: its 'unlinkDir' follows
      for (const e of entries ?? []) if (e.kind === 'file') report(path.join(dir, e.name));
    });
  });
  watcher.on('unlinkDir', (dir) => on.removedFolder(dir));
  // The files chokidar does watch (those given to `add`) and the links in watched folders.
  const onFile = (p: string): void => {
    if (isTranscript(p)) on.changed(p);
  };
  watcher.on('add', onFile).on('change', onFile);
  watcher.on('unlink', (p) => {
    if (isTranscript(p)) on.removed(p);
  });
  watcher.on('error', (err) => log(`watcher: ${err instanceof Error ? err.message : String(err)}`));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    add: (paths) => {
      for (const p of paths) if (fs.statSync(p, { throwIfNoEntry: false })?.isFile()) files.add(p);
      watcher.add([...paths]);
    },
    close: () => watcher.close(),
  };
}

/** The path of the fs.watch behind a chokidar 'raw' event (its third argument: `{ watchedPath }`). */
function watchedPathOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null || !('watchedPath' in details)) return undefined;
  return typeof details.watchedPath === 'string' ? details.watchedPath : undefined;
}
