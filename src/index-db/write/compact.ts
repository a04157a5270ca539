// The index written again whole (VACUUM) once a writer has more than doubled it. A first index reads the transcripts
// newest first (ingest/scan-order.ts), so the rollups' keys and `messages_file_ts` entries arrive out of order and
// their B-tree pages end about half full: at 10 GiB of transcripts a VACUUM took the file from 357 to 331 MB. Later
// writes append in time order and fill pages well, so this is due again only when the history has doubled once more.
// VACUUM keeps every INTEGER PRIMARY KEY (all the rowid tables have one), so the message ids, and with them the key
// dump beside the file, stay true.
//
// A command's catch-up compacts on its own connection when it ends (runIfDue: nothing else waits on it). The server
// compacts after its start-up scan (and at a re-check, when a long run doubled the history) on a worker thread with a
// connection of its own (runInWorker, compact-worker.ts): the VACUUM held every request for 3-4 s at 10 GiB on the
// main thread. Meanwhile the main connection answers from the last commit (WAL), and its writes are held (GroupCommit
// hold): a commit there would wait on the VACUUM's write lock, the event loop with it. Whoever writes awaits
// `writesHeld()` first (the ingest, the reprice, the settings and limits services); a write that does not is refused.
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { GroupCommit } from './group-commit.ts';
import type { CompactResult, CompactTask } from './compact-worker.ts';

/** Below this many new messages the pages left half full are a few MB at most: not worth writing the file again. */
export const COMPACT_MIN_MESSAGES = 50_000;

const MAX_ID = 'SELECT coalesce(max(id), 0) FROM messages';

/** The built server runs dist/compact-worker.js; under tsx (tests) the .ts source, through compact-worker-tsx.mjs. */
function startWorker(task: CompactTask): Worker {
  const here = import.meta.url;
  return new Worker(new URL(here.endsWith('.ts') ? './compact-worker-tsx.mjs' : './compact-worker.js', here), { workerData: task });
}

export interface CompactionOptions {
  log: (msg: string) => void;
  minMessages?: number | undefined;
  /** The busy timeout of the worker's connection (the main connection's). */
  busyMs?: number;
  /** Tests only: the worker holds the write lock until this file exists (compact-worker.ts). */
  testGate?: string | undefined;
}

export class Compaction {
  /** The largest message id when this writer opened the file, or when it last compacted it. */
  private base: number;
  /** The compaction under way on a worker thread. */
  private running: Promise<boolean> | null = null;
  /** After a failed one (a full disk), the largest message id before which none is tried again (each re-check would). */
  private retryFrom = 0;
  private readonly log: (msg: string) => void;
  private readonly minMessages: number;

  constructor(
    private readonly db: Database.Database,
    private readonly commits: GroupCommit,
    private readonly opts: CompactionOptions,
  ) {
    this.log = opts.log;
    this.minMessages = opts.minMessages ?? COMPACT_MIN_MESSAGES;
    this.base = this.maxId();
  }

  /** The messages this writer added since `base` when they make a compaction due (as many as it held, and at least `minMessages`), else null. */
  private due(): number | null {
    if (this.db.memory || this.running) return null;
    const max = this.maxId();
    const added = max - this.base;
    return added < this.minMessages || added < this.base || max < this.retryFrom ? null : added;
  }

  /**
   * On this connection (a command's catch-up): commits and compacts the file when due; true when it did. A failure
   * (a full disk: VACUUM needs room for a copy of the file) is logged and leaves the file as it was.
   */
  runIfDue(): boolean {
    const added = this.due();
    if (added === null || !this.commits.commit()) return false;
    this.db.pragma('temp_store = FILE');
    try {
      this.db.exec('VACUUM');
    } catch (err) {
      this.log(`the index was not compacted (${(err as Error).message}); it is whole as it was`);
      return false;
    } finally {
      this.db.pragma('temp_store = MEMORY');
    }
    // Not due again before the history doubles once more.
    this.base += added;
    // The new pages went through the WAL, as big as the file: emptied now, not at the next checkpoint that finds no
    // reader. A reader that holds it past the busy timeout only leaves that to a later checkpoint.
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (err) {
      this.log(`the index's WAL was not emptied after its compaction (${(err as Error).message}); a later checkpoint does it`);
    }
    return true;
  }

  /**
   * The server's: when due, commits, holds this connection's writes and compacts on a worker thread; resolves when the
   * writes go on again, true when it compacted. Never rejects: a failure (a full disk, the file gone, the worker
   * crashing) is logged and leaves the file as it was.
   */
  runInWorker(): Promise<boolean> {
    if (this.running) return this.running;
    const added = this.due();
    if (added === null || !this.commits.commit()) return Promise.resolve(false);
    const release = this.commits.hold();
    const started = Date.now();
    this.log(`compacting the index (${added} new messages, ${this.base} before them) on a worker thread; requests are answered meanwhile, writes wait`);
    const task: CompactTask = { file: this.db.name, busyMs: this.opts.busyMs ?? 5000, gate: this.opts.testGate };
    this.running = new Promise<CompactResult>((resolve) => {
      let worker: Worker;
      try {
        worker = startWorker(task);
      } catch (err) {
        resolve({ ok: false, message: (err as Error).message });
        return;
      }
      worker.once('message', (r: CompactResult) => resolve(r));
      worker.once('error', (err) => resolve({ ok: false, message: err.message }));
      worker.once('exit', (code) => resolve({ ok: false, message: `the worker ended (exit code ${code})` }));
    }).then((r) => {
      this.running = null;
      release();
      if (!r.ok) {
        this.log(`the index was not compacted (${r.message}); it is whole as it was`);
        this.retryFrom = this.maxId() + this.minMessages;
        return false;
      }
      this.base += added;
      const wal = r.checkpoint === 'done' ? '' : r.checkpoint === 'partial' ? '; its WAL is emptied by a later checkpoint' : ` (its WAL is emptied later: ${r.checkpoint})`;
      this.log(`compacted the index in ${((Date.now() - started) / 1000).toFixed(1)} s${wal}`);
      return true;
    });
    return this.running;
  }

  private maxId(): number {
    return this.db.prepare(MAX_ID).pluck().get() as number;
  }
}
