// --keep-transcripts (issue 34): every transcript the index reads is kept in a folder of its own, so Claude Code's
// cleanup (or a rewrite) does not take its content with it. Kept by a hard link where the folder is on the same file
// system (no copy: appends stay shared, and the content outlives the deletion of Claude Code's name for it), else by a
// copy that follows the appends. A kept file whose transcript no longer continues it (rewritten, or replaced by a
// different file) is moved aside under a dot name, which no listing reads, and the new content is kept in its place.
// Nothing here ever deletes a file. The folder mirrors each config dir as `<kept>/<name>-<hash>/projects/...`, so
// `--dir <kept>/<name>-<hash>` rebuilds an index from it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Log } from './log.ts';

export interface TranscriptKeeper {
  readonly dir: string;
  /** Keeps (or brings up to date) the kept copy of one transcript; failures are logged, never thrown. */
  keep(file: string): void;
  /** Keeps many, a slice per turn of the event loop; resolves when all are done. */
  keepAll(files: readonly string[]): Promise<void>;
}

export interface KeeperOptions {
  dir: string;
  /** The `<config dir>/projects` folders read: a transcript is kept under the mirror of the one holding it. */
  projectsDirs: readonly string[];
  log: Log;
  /** fs.linkSync; tests pass one that fails as on another file system. */
  link?: (existing: string, linked: string) => void;
  now?: () => number;
}

/** Bytes compared at each end of a kept file to tell whether the transcript still continues it. */
const PROBE_BYTES = 64;
const SLICE = 200;
/** A link that fails with one of these is made as a copy instead. */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS']);

/**
 * The folder of one config dir inside the kept folder: its name without leading dots (`~/.claude` is no hidden
 * `.claude-…`) and a hash of its path (two dirs may share a name).
 */
export function keptDirName(configDir: string): string {
  const hash = createHash('sha256').update(configDir).digest('hex').slice(0, 8);
  return `${path.basename(configDir).replace(/^\.+/, '') || 'root'}-${hash}`;
}

export function createKeeper(opts: KeeperOptions): TranscriptKeeper {
  const link = opts.link ?? fs.linkSync;
  const now = opts.now ?? Date.now;
  const roots = opts.projectsDirs.map((p) => ({ from: p, to: path.join(opts.dir, keptDirName(path.dirname(p)), 'projects') }));
  // One line per kind of failure until keeping works again, not one per transcript of a full disk.
  let lastFailure: string | null = null;

  const targetOf = (file: string): string | null => {
    for (const r of roots) {
      const rel = path.relative(r.from, file);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return path.join(r.to, rel);
    }
    return null;
  };

  function keep(file: string): void {
    const target = targetOf(file);
    if (!target) return;
    try {
      const src = fs.statSync(file, { throwIfNoEntry: false });
      if (!src?.isFile()) return;
      const kept = fs.statSync(target, { throwIfNoEntry: false });
      if (kept && kept.ino === src.ino && kept.dev === src.dev) return;
      if (kept) {
        if (continues(target, kept.size, file, src.size)) {
          if (src.size > kept.size) appendRange(file, target, kept.size, src.size);
          lastFailure = null;
          return;
        }
        fs.renameSync(target, path.join(path.dirname(target), `.${path.basename(target)}.replaced-${now()}`));
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      try {
        link(file, target);
      } catch (err) {
        if (!NO_LINK.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        fs.copyFileSync(file, target);
      }
      lastFailure = null;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      if (code === lastFailure) return;
      lastFailure = code;
      opts.log(`cannot keep transcripts in ${opts.dir} (${(err as Error).message}); the transcripts and the index are untouched, keeping is tried again at the next change`);
    }
  }

  return {
    dir: opts.dir,
    keep,
    keepAll(files) {
      let i = 0;
      return new Promise((resolve) => {
        const step = (): void => {
          for (const end = Math.min(files.length, i + SLICE); i < end; i++) keep(files[i]!);
          if (i < files.length) setImmediate(step);
          else resolve();
        };
        step();
      });
    },
  };
}

function readAt(file: string, from: number, length: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = fs.readSync(fd, buf, 0, length, from);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether the transcript (`size` bytes) still starts with the kept file's `keptSize` bytes, judged by both ends. */
function continues(kept: string, keptSize: number, file: string, size: number): boolean {
  if (size < keptSize) return false;
  const head = Math.min(PROBE_BYTES, keptSize);
  const tailFrom = Math.max(0, keptSize - PROBE_BYTES);
  return readAt(kept, 0, head).equals(readAt(file, 0, head)) && readAt(kept, tailFrom, keptSize - tailFrom).equals(readAt(file, tailFrom, keptSize - tailFrom));
}

function appendRange(file: string, kept: string, from: number, to: number): void {
  fs.appendFileSync(kept, readAt(file, from, to - from));
}

/** Files and bytes in the kept folder (a hard link counts its size, though it takes no extra space). */
export function keptStats(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        files++;
        bytes += fs.statSync(p, { throwIfNoEntry: false })?.size ?? 0;
      }
    }
  };
  walk(dir);
  return { files, bytes };
}
