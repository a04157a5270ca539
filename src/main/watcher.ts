// chokidar over every projects folder. The start-up scan is done by discovery (it knows the total
// size for progress), so the watcher only reports what changes afterwards; ingest makes repeats no-ops.
// It follows no symlink (a loop would be walked again and again): the folders and files discovery reached through
// links are watched at their real paths (`add`), and TranscriptPaths.canonical maps what it reports back.
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isHiddenName, isTranscript } from './discovery.ts';
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
}

export function watchProjects(dirs: readonly string[], on: WatchHandlers, log: Log): Watcher {
  // A projects folder that does not exist yet is watched from its parent, so a first session is picked up; one that
  // is itself a link is watched at its real path.
  const targets = dirs.map((d) => (fs.existsSync(d) ? fs.realpathSync.native(d) : d.replace(/[\\/]projects$/, '')));
  // A sync tool's hidden folder inside a projects folder is not walked; the watched folders themselves may be hidden (~/.claude).
  const hiddenInside = (p: string): boolean => isHiddenName(path.basename(p)) && !targets.some((t) => t === p || t.startsWith(p + path.sep));
  const watcher: FSWatcher = watch(targets, {
    ignoreInitial: true,
    ignorePermissionErrors: true,
    followSymlinks: false,
    // Transcripts are append-only and the worker consumes complete lines only, so no write-finish wait.
    awaitWriteFinish: false,
    ignored: (p, stats) => hiddenInside(p) || Boolean(stats?.isFile() && !isTranscript(p)),
  });
  const onFile = (p: string): void => {
    if (isTranscript(p)) on.changed(p);
  };
  watcher.on('add', onFile).on('change', onFile);
  watcher.on('unlink', (p) => {
    if (isTranscript(p)) on.removed(p);
  });
  watcher.on('error', (err) => log(`watcher: ${err instanceof Error ? err.message : String(err)}`));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { ready, add: (paths) => void watcher.add([...paths]), close: () => watcher.close() };
}
