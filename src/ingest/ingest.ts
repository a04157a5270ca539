// Per-file cursors decide what to read; at most one task per path is in flight, a burst of
// changes to one path is coalesced into one follow-up read. Start-up and live updates share this path.
import fs from 'node:fs';
import { IndexWriteError } from '../index-db/errors.ts';
import type { IndexDb } from '../index-db/types.ts';
import { HEAD_BYTES, type AgentMeta, type ParseStats } from '../workers/protocol.ts';
import type { IndexingState } from '../shared/api-types.ts';
import type { PathRole } from './discovery.ts';
import type { ParsePool } from './pool.ts';
import type { Log } from './log.ts';
import { needsRead } from './needs-read.ts';
import { FinalFrontier, newestFirst, type ScanFile } from './scan-order.ts';

export interface Ingest {
  /** A file appeared or changed (a watcher event; a burst is coalesced and re-checked after it). */
  changed(path: string): void;
  /** Reads whatever is new in a file once (the cursor decides; a no-op when nothing changed). */
  check(path: string): void;
  /** A file disappeared: its history stays, marked gone. */
  removed(path: string): void;
  /**
   * The start-up scan: total work known up front, for progress; read newest first (scan-order.ts). The files that
   * `current` says the index has read whole (a restart checked them against their cursors) count as done at once.
   */
  startScan(files: readonly ScanFile[], current?: (file: ScanFile) => boolean): void;
  /** Resolves when nothing is queued or in flight. */
  idle(): Promise<void>;
  /**
   * Resolves once the start-up scan, with files still to read, has made every range of the last WEEK_MS final: a first
   * index's first answers are in while most of its work is ahead. Never, when the scan ends before that (a restart
   * reads what changed since, all of it recent).
   */
  weekFinal(): Promise<void>;
  progress(): IndexingState;
  close(): Promise<void>;
}

export interface IngestDeps {
  index: IndexDb;
  pool: ParsePool;
  /** A transcript's role from its path (discovery.ts fileRoles); its subagent meta comes with its batch. */
  roleOf(path: string): PathRole | null;
  log: Log;
  /** A batch brought the first cwd of its project folder. */
  newCwd?: () => void;
}

/** Once the scan is done every range is final: the earliest instant there is. */
const FINAL_ALWAYS = new Date(0).toISOString();

const NO_META: AgentMeta = { agentType: null, agentDescription: null };

/** The span back from now that the first answers cover: a week, the dashboard's default range, in any zone. */
export const WEEK_MS = 7 * 86_400_000;
/** How often the start-up scan writes its finalSince into the index file (the group commit's own pace). */
const STORE_SINCE_MS = 1000;
/** Longer than chokidar's 50 ms change throttle. */
const SETTLE_MS = 120;
/** A failed read is tried again after 1 s, doubling up to a minute (descriptors run out, a disk comes back). */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;

/** Hex of the first `bytes` bytes (fewer when the file is shorter). */
function readHead(path: string, bytes: number): string {
  const fd = fs.openSync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('hex');
  } finally {
    fs.closeSync(fd);
  }
}

/** The file no longer starts with the bytes its cursor saw (a head shorter than HEAD_BYTES is compared as a prefix). */
function headChanged(path: string, head: string): boolean {
  return head !== '' && readHead(path, Math.min(HEAD_BYTES, head.length / 2)) !== head;
}

/** "3 lines (2 malformed, 1 out of range)" for the lines of a batch that were not counted, or '' when none. */
function describeSkipped(stats: ParseStats): string {
  const parts: [number, string][] = [
    [stats.malformed, 'malformed'],
    [stats.outOfRange, 'out of range'],
    [stats.giant, 'too big'],
  ];
  const total = parts.reduce((n, [k]) => n + k, 0);
  if (!total) return '';
  const why = parts.filter(([k]) => k > 0).map(([k, what]) => `${k} ${what}`).join(', ');
  return `${total} line${total === 1 ? '' : 's'} (${why})`;
}

export function createIngest(deps: IngestDeps): Ingest {
  const { index, pool, log } = deps;
  // Before each write: `for (let h = index.writesHeld(); h; h = index.writesHeld()) await h;` waits while a compaction
  // holds the index's writes (index-db/write/compact.ts), inline and checked again after each wait, so that nothing
  // can begin one between the check and the write that follows it in the same turn.
  const queue = new Set<string>(); // paths waiting, in arrival order
  const inFlight = new Set<string>();
  const again = new Set<string>(); // changed while in flight: read once more after
  const maxInFlight = pool.threads * 4; // enough to keep each worker's own queue (pool.ts) non-empty
  let closed = false;
  let idleWaiters: (() => void)[] = [];
  const withCwd = new Set<string>(); // project folders whose first cwd was reported to newCwd
  const scan = { started: false, active: false, files: new Map<string, number>(), bytesTotal: 0, bytesDone: 0, filesDone: 0 };
  let frontier: FinalFrontier | null = null;
  let weekDone: () => void = () => {};
  const weekFinal = new Promise<void>((resolve) => (weekDone = resolve));
  // finalSince in the index file too (IndexDb.setFinalSince, for the statusline): written at the scan's first read, at
  // most once a second after it (a value written late is a later time, so it says less is final, never more), and
  // once at the scan's end, which also clears a value a killed process left. A restart that reads nothing writes it
  // once.
  let storedSince: string | null | undefined; // undefined: not written by this scan yet
  let storedAt = 0;
  const storeSince = (iso: string | null, now: boolean): void => {
    // Written once a compaction under way lets writes go on (the last value asked for is written last).
    const held = index.writesHeld();
    if (held) {
      void held.then(() => storeSince(iso, now));
      return;
    }
    if (iso === storedSince || (!now && Date.now() - storedAt < STORE_SINCE_MS)) return;
    storedSince = iso;
    storedAt = Date.now();
    index.setFinalSince(iso);
  };

  const settle = new Map<string, NodeJS.Timeout>();
  const retries = new Map<string, { delayMs: number; timer: NodeJS.Timeout }>();
  const retryLater = (path: string, message: string): void => {
    const last = retries.get(path);
    // one line per failing file, not one per attempt
    if (!last) log(`cannot read ${path}: ${message}; trying again`);
    if (last) clearTimeout(last.timer);
    const delayMs = last ? Math.min(last.delayMs * 2, RETRY_MAX_MS) : RETRY_FIRST_MS;
    retries.set(path, { delayMs, timer: setTimeout(() => enqueue(path), delayMs).unref() });
  };
  const stopRetrying = (path: string): void => {
    const r = retries.get(path);
    if (!r) return;
    clearTimeout(r.timer);
    retries.delete(path);
  };
  const enqueue = (path: string): void => {
    if (inFlight.has(path)) again.add(path);
    else queue.add(path);
    pump();
  };

  const pump = (): void => {
    while (!closed && inFlight.size < maxInFlight && queue.size) {
      const path = queue.values().next().value as string;
      queue.delete(path);
      inFlight.add(path);
      void run(path).finally(() => {
        inFlight.delete(path);
        if (again.delete(path)) queue.add(path);
        finishScanFile(path);
        pump();
        if (!queue.size && !inFlight.size) {
          const w = idleWaiters;
          idleWaiters = [];
          for (const f of w) f();
        }
      });
    }
  };

  const finishScanFile = (path: string): void => {
    const size = scan.files.get(path);
    if (size === undefined) return;
    scan.files.delete(path);
    scan.filesDone++;
    scan.bytesDone += size;
    if (scan.active && scan.files.size > 0) {
      const sinceMs = frontier!.finalSinceMs();
      if (storedSince !== undefined) storeSince(new Date(sinceMs).toISOString(), false);
      if (sinceMs <= Date.now() - WEEK_MS) weekDone();
    }
    if (scan.active && scan.files.size === 0) endScan();
  };
  const endScan = (): void => {
    scan.active = false;
    storeSince(null, true);
    log(`indexed ${scan.filesDone} files (${(scan.bytesTotal / 1048576).toFixed(1)} MiB)`);
  };

  async function run(path: string): Promise<void> {
    try {
      for (let h = index.writesHeld(); h; h = index.writesHeld()) await h;
      if (closed) return;
      await readNew(path);
      if (retries.has(path)) log(`read ${path} again`);
      stopRetrying(path);
    } catch (err) {
      if (closed) return;
      // The index could not store the batch (full disk, I/O): the writer logged it, the cursor did not
      // move, and the file is read again by its next change or check.
      if (err instanceof IndexWriteError) return;
      const message = err instanceof Error ? err.message : String(err);
      for (let h = index.writesHeld(); h; h = index.writesHeld()) await h;
      if (closed) return;
      index.markUnreadable(path, message);
      retryLater(path, message);
    }
  }

  /** Reads what is new in one file, as its cursor says; throws when the file cannot be read. */
  async function readNew(path: string): Promise<void> {
    // A local stat is far cheaper synchronously than the promise round trip per file.
    const stat = fs.statSync(path, { throwIfNoEntry: false });
    if (!stat) {
      if (index.cursorOf(path)) index.markGone(path);
      return;
    }
    if (!stat.isFile()) return;
    const role = deps.roleOf(path);
    if (!role) return;
    let cursor = index.cursorOf(path);
    if (!needsRead(stat, cursor)) return;
    // A file that shrank, or whose first bytes changed, was rewritten: read it again from scratch.
    if (cursor && cursor.offset > 0 && (stat.size < cursor.offset || headChanged(path, cursor.head))) {
      log(`re-reading ${path} (rewritten)`);
      index.resetFile(path);
      cursor = index.cursorOf(path);
    }
    const from = cursor?.offset ?? 0;
    if (scan.active && storedSince === undefined && scan.files.has(path)) storeSince(frontier!.finalSince(), true);
    // The worker decides the rows and folds their rollup cells for this role and the writer's zone.
    const zone = index.foldZone();
    const fold = zone === null ? undefined : { session: role.session, agentId: role.agentId, zone };
    const batch = await pool.parse({ path, from, to: stat.size, wantPrompt: !(cursor?.hasPrompt ?? false), fold, agentMeta: role.agentId !== null });
    // Parsed while a compaction holds the writes: the batch waits for it (its cursor was read before, and no other
    // task reads this path meanwhile, so it still holds).
    for (let h = index.writesHeld(); h; h = index.writesHeld()) await h;
    if (closed) return;
    index.applyBatch(batch, { ...role, ...(batch.agent ?? NO_META) }, stat.size, stat.mtimeMs);
    if (batch.meta.cwd && !withCwd.has(role.project)) {
      withCwd.add(role.project);
      deps.newCwd?.();
    }
    const skipped = describeSkipped(batch.stats);
    if (skipped) log(`skipped ${skipped} in ${path}`);
  }

  return {
    changed(path) {
      if (closed) return;
      enqueue(path);
      // chokidar drops a change that follows another within 50 ms of it, so the last write of a burst
      // may never be reported: look once more after the burst (a no-op when the cursor is current).
      if (!settle.has(path)) {
        settle.set(
          path,
          setTimeout(() => {
            settle.delete(path);
            enqueue(path);
          }, SETTLE_MS).unref(),
        );
      }
    },
    check(path) {
      if (!closed) enqueue(path);
    },
    removed(path) {
      if (closed) return;
      queue.delete(path);
      stopRetrying(path);
      if (inFlight.has(path)) again.add(path); // run() sees ENOENT and marks it gone
      else if (index.writesHeld()) enqueue(path); // as run() does, once the compaction lets writes go on
      else if (index.cursorOf(path)) index.markGone(path);
    },
    startScan(files, current = () => false) {
      scan.started = true;
      scan.active = files.length > 0;
      const toRead: ScanFile[] = [];
      for (const f of files) {
        scan.bytesTotal += f.size;
        if (current(f)) {
          scan.filesDone++;
          scan.bytesDone += f.size;
        } else {
          scan.files.set(f.path, f.size);
          toRead.push(f);
        }
      }
      // Only the files to read are ordered: a file read already bounds nothing, and sorting a restart's every file,
      // twice, held the main thread in one long stretch on a big history (bench/RESULTS.md, stop 31).
      frontier = new FinalFrontier(toRead, (path) => !scan.files.has(path));
      if (!scan.active) log('no transcripts found');
      else if (!toRead.length) endScan();
      for (const f of newestFirst(toRead)) enqueue(f.path);
    },
    idle() {
      if (!queue.size && !inFlight.size) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    weekFinal: () => weekFinal,
    progress() {
      return {
        done: scan.started && !scan.active,
        filesTotal: scan.filesDone + scan.files.size,
        filesDone: scan.filesDone,
        bytesTotal: scan.bytesTotal,
        bytesDone: scan.bytesDone,
        finalSince: !scan.started ? null : !scan.active ? FINAL_ALWAYS : frontier!.finalSince(),
      };
    },
    async close() {
      closed = true;
      queue.clear();
      for (const t of settle.values()) clearTimeout(t);
      settle.clear();
      for (const path of [...retries.keys()]) stopRetrying(path);
      const w = idleWaiters;
      idleWaiters = [];
      for (const f of w) f();
    },
  };
}
