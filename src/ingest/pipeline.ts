// The ingestion side of the server: pool -> ingest -> start-up scan + watcher, over one index.
// main/index.ts starts it after the server listens; tests and the bench start it on their own.
import fs from 'node:fs';
import type { IndexDb } from '../index-db/types.ts';
import type { FileStateRow } from '../index-db/queries/reports.ts';
import { TranscriptPaths, fileRoles, readFolders, type FoundFile } from './discovery.ts';
import { resolveRepositories } from './repository.ts';
import { createIngest, type Ingest } from './ingest.ts';
import { createPool, type WorkerPool } from './pool.ts';
import { changedTranscripts, fileStatesByTurns, rowNeedsRead } from './needs-read.ts';
import { newestFirst } from './scan-order.ts';
import { watchProjects, type Watcher } from './watcher.ts';
import type { Log } from './log.ts';
import type { TranscriptKeeper } from './keep-transcripts.ts';
import { nextTurn, type Turn } from './turns.ts';

export interface Pipeline {
  ingest: Ingest;
  /** The most parse workers it runs at once (sized by the start-up listing, pool.ts poolThreads). */
  threads: number;
  /** Resolves when the watcher is live (after the start-up scan). */
  watching: Promise<void>;
  /** Folders the last listing could not read (each logged once): their transcripts are not indexed meanwhile. */
  unreadableFolders(): number;
  close(): Promise<void>;
}

export interface PipelineOptions {
  projectsDirs: readonly string[];
  /** The machine of each projects dir (its --dir label; null or absent: this machine). */
  machines?: readonly (string | null)[];
  index: IndexDb;
  log: Log;
  threads?: number;
  /** How often every folder is listed again and every file's cursor checked (what the watcher missed). */
  recheckMs?: number;
  /** The start-up listing and the pool, begun before the index was open (prepareFirstScan); made here when absent or null. */
  prepared?: Promise<PreparedScan | null>;
  /** --keep-transcripts: keeps every transcript listed or changed. */
  keeper?: Pick<TranscriptKeeper, 'keep' | 'keepAll'>;
  /**
   * Awaited between two slices of the background work after the start-up scan (the watcher's walk, the re-checks,
   * the stored keys read ahead): the server's gives way to requests (turns.ts). Default: the next turn.
   */
  turn?: Turn;
}

/** The start-up scan's listing and the pool sized by it. */
export interface PreparedScan {
  paths: TranscriptPaths;
  listed: FoundFile[];
  pool: WorkerPool;
}

/**
 * Before a first index (no index file yet, or an empty one), whose first tasks would otherwise wait for workers to
 * start while the main thread idles: the listing, and a pool whose workers start now, so that their starts overlap
 * the listing and the index's creation. Null when the index file holds something (a restart starts no worker unless a
 * transcript changed).
 */
export async function prepareFirstScan(indexFile: string, projectsDirs: readonly string[], log: Log): Promise<PreparedScan | null> {
  try {
    if (fs.statSync(indexFile, { throwIfNoEntry: false })?.size) return null;
    const prepared = await prepareScan(projectsDirs, log);
    if (prepared.listed.length) prepared.pool.warm();
    return prepared;
  } catch {
    return null; // the pipeline lists again, and reports what fails there
  }
}

/** Lists the transcripts and makes the pool for them (sized by what there is to read, pool.ts poolThreads). */
async function prepareScan(projectsDirs: readonly string[], log: Log, threads?: number): Promise<PreparedScan> {
  const paths = new TranscriptPaths();
  const listed = await paths.list(projectsDirs);
  reportUnreadable(paths, new Set(), log);
  // Sized by what there is (a restart reads little of it, but starts no worker unless something changed).
  const pool = createPool({ threads, workBytes: listed.reduce((n, f) => n + f.size, 0), log });
  return { paths, listed, pool };
}

/** A re-list plus one stat per file: cheap enough to run twice a minute. */
const RECHECK_MS = 30_000;
/**
 * Stored dedup keys read per turn of the event loop after the scan: a request waits for at most one turn, and a turn
 * lasts in proportion to its slice, so the slice stays small.
 */
const KEY_SLICE = 2_000;

export async function startPipeline(opts: PipelineOptions): Promise<Pipeline> {
  const { projectsDirs, index, log, turn = nextTurn } = opts;
  const roles = fileRoles(projectsDirs, opts.machines);
  // Each project folder's repository, resolved once, when its first cwd is stored (and at start for folders an older
  // version indexed): never per request.
  resolveRepositories(index);
  const { paths, listed, pool } = (await opts.prepared) ?? (await prepareScan(projectsDirs, log, opts.threads));
  /** The unreadable folders logged: each once while it stays unreadable (the re-checks list every folder again). */
  const logged = new Set(paths.unreadable.keys());
  const ingest = createIngest({ index, pool, roleOf: roles.of, log, newCwd: () => resolveRepositories(index) });
  // A restart compares the listing (one stat per file, taken above) with every cursor, read a slice a turn: the scan
  // reads only what changed. Checking each file in the ingest (a second stat and a cursor query each, one microtask
  // after another) held the main thread for 0.8 s at 10 GiB, and a request arriving then waited for all of it.
  const states = await cursorsOrNone(index, log);
  ingest.startScan(listed, states ? (f) => !rowNeedsRead(f, states.get(f.path)) : undefined);
  void opts.keeper?.keepAll(listed.map((f) => f.path));
  // The watcher starts once the start-up scan is done: its own walk would compete with the first
  // index for the main thread. What changed meanwhile is caught by one more (cursor-checked) pass.
  let watcher: Watcher | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const watched = new Set<string>();
  const watchLinked = (): void => {
    const fresh = [...paths.linked].filter((p) => !watched.has(p));
    for (const p of fresh) watched.add(p);
    if (fresh.length) watcher?.add(fresh);
  };
  // Lists every folder again and checks every file's cursor: catches what the watcher dropped (a folder it
  // could not watch, an event lost while descriptors ran out) and links made since.
  let rechecking = false;
  const recheck = async (): Promise<void> => {
    if (closed || rechecking) return;
    rechecking = true;
    try {
      // A time zone changed while nothing was written: the local rollups are rebuilt here, never by a query (or at the
      // next re-check, or the next write, while a compaction holds the writes).
      if (!index.writesHeld()) index.syncTimeZone();
      const files = await paths.list(projectsDirs, readFolders, turn);
      if (closed) return;
      reportUnreadable(paths, logged, log);
      watchLinked();
      // Against every cursor, read a slice a turn: a check per file (a second stat and a cursor query each) held the
      // main thread for a long stretch on a big history, at every pass, and so did one read of them all.
      const states = await fileStatesByTurns(index.reports, turn);
      if (closed) return;
      // Newest first, as the start-up scan: after a long sleep the recent days are current first.
      for (const f of newestFirst(changedTranscripts(files, states))) {
        opts.keeper?.keep(f.path);
        ingest.check(f.path);
      }
      // A long run that doubled the history since the last compaction (rare: a first index did, after its scan).
      void index.compactInBackground();
    } finally {
      rechecking = false;
    }
  };
  // After a restart nothing was written yet, so the writer has not read the stored dedup keys: read them now, a slice
  // per turn, so the first appended line is not held up by reading them all. A failure here is left to that first
  // write, which reads the rest and reports its error as every write does.
  const preloadKeys = (): void => {
    if (closed) return;
    let done: boolean;
    try {
      done = index.preloadKeys(KEY_SLICE);
    } catch (err) {
      log(`reading the stored dedup keys ahead failed (the next write reads them): ${(err as Error).message}`);
      return;
    }
    if (!done) void turn().then(preloadKeys);
  };
  const gone = (file: string): void => {
    // the path of a second link to a file that is still there is not the file going
    if (fs.existsSync(file)) return;
    roles.forget(file);
    ingest.removed(file);
  };
  const watching = ingest.idle().then(async () => {
    if (closed) return;
    // The scan's workers go before the watcher's walk, not 30 s idle after it: a worker that built part of a big index
    // holds much memory, and the walk's garbage came on top of it (the peak of a cold index of a big history). A change
    // after this starts them again.
    await pool.release();
    if (closed) return;
    // A first index (or a history that doubled) leaves its pages half full: written again whole now, on a worker
    // thread with its own connection (write/compact.ts), so requests are answered meanwhile from the last commit.
    // Writes wait for it (the ingest's, the reprice's, the settings'): appends the watcher reports land after it. A
    // failure is logged and leaves the file as it was.
    void index.compactInBackground();
    // The start-up listing's paths, made when the walk starts (not on the start-up path): a transcript the walk finds
    // besides these was made since.
    const scanned = new Set(listed.map((f) => f.path));
    watcher = watchProjects(
      projectsDirs,
      {
        changed: (p) => {
          const file = paths.canonical(p);
          opts.keeper?.keep(file);
          ingest.changed(file);
        },
        removed: (p) => gone(paths.canonical(p)),
        removedFolder: (dir) => paths.filesUnder(dir).forEach(gone),
        // The walk lists real paths; under a linked projects folder the listing's are the link's.
        listed: (p) => scanned.has(p) || scanned.has(paths.canonical(p)),
      },
      log,
      turn,
    );
    watchLinked();
    await watcher.ready;
    scanned.clear();
    await recheck();
    timer = setInterval(() => void recheck(), opts.recheckMs ?? RECHECK_MS).unref();
    preloadKeys();
  });
  return {
    ingest,
    threads: pool.threads,
    watching,
    unreadableFolders: () => paths.unreadable.size,
    async close() {
      closed = true;
      clearInterval(timer);
      await (watcher as Watcher | null)?.close();
      await ingest.close();
      await pool.close();
    },
  };
}

/**
 * Every cursor for the start-up scan's comparison, or null when they cannot be read: a damaged file that the index
 * keeper set aside and closed meanwhile (the first request met the damage). The ingest then checks each file itself,
 * and its reads' failures are handled where every read's are.
 */
async function cursorsOrNone(index: IndexDb, log: Log): Promise<Map<string, FileStateRow> | null> {
  try {
    return await fileStatesByTurns(index.reports);
  } catch (err) {
    log(`the index's cursors could not be read (${(err as Error).message}): each transcript is checked as it is read`);
    return null;
  }
}

/** Logs each folder the last listing could not read, once while it stays so (`logged` holds those logged before). */
function reportUnreadable(paths: TranscriptPaths, logged: Set<string>, log: Log): void {
  for (const [dir, code] of paths.unreadable) {
    if (logged.has(dir)) continue;
    logged.add(dir);
    log(`folder ${dir} cannot be read (${code}): its transcripts are not indexed until it can be`);
  }
  for (const dir of logged) if (!paths.unreadable.has(dir)) logged.delete(dir);
}
