// Owns the index file for the process: opens it as its one writer and runs the pipeline over it, or,
// when another process writes it, serves it read-only and takes over when that writer stops. A file
// found damaged while running is checked, set aside (never deleted) and rebuilt from the transcripts.
import { IndexLockedError, IndexWriteError, openIndex, openIndexReader, setAside } from '../index-db/index.ts';
import type { PriceTable } from '../pricing/table.ts';
import type { IndexDb, IndexReader, IndexStats, Queries } from '../index-db/types.ts';
import type { IndexingState } from '../shared/api-types.ts';
import type { Log } from '../ingest/log.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import { sweepLeftoverTemps } from '../ingest/leftover-temps.ts';

export interface IndexKeeper {
  /** The current index's queries (the server reads through this, whatever happens to the file). */
  readonly queries: Queries;
  stats(): IndexStats;
  /** Moves whenever an answer may differ: a write or commit of the index, a reopened file, a new price table. */
  generation(): number;
  mode(): 'writer' | 'reader';
  /** The index while this process writes it (settings are written there), else null. */
  writable(): IndexDb | null;
  /** The process that writes the index while this one reads it, as that process recorded itself. */
  otherWriter(): string;
  /** Starts reading transcripts (as the writer; a reader starts when it takes over). */
  start(): Promise<void>;
  progress(): IndexingState;
  setPrices(table: PriceTable): void;
  /** Stops taking over, recovering and reading transcripts (the pipeline). */
  stop(): Promise<void>;
  /** Commits and closes the index file; synchronous, so it also runs at process exit. */
  closeIndex(): void;
}

export interface KeeperOptions {
  file: string;
  log: Log;
  prices: () => PriceTable;
  /** Starts reading transcripts into the index (the writer only). */
  startPipeline: (index: IndexDb) => Promise<Pipeline>;
  /** How often a reader tries to become the writer. */
  takeoverMs?: number;
}

const TAKEOVER_MS = 2000;
const READER_WAIT_MS = 10_000;

/** Throws IndexWriteError when the file can be neither written nor read (read-only, cannot open). */
export async function keepIndex(opts: KeeperOptions): Promise<IndexKeeper> {
  const { file, log } = opts;
  let writer: IndexDb | null = null;
  let reader: IndexReader | null = null;
  let pipeline: Pipeline | null = null;
  let closed = false;
  let recovering: Promise<void> | null = null;
  let takeover: NodeJS.Timeout | null = null;
  /** start() was called: a writer reads transcripts as soon as it has the file. */
  let started = false;
  /** The writer holding the file, as it recorded itself. */
  let lockedBy = 'unknown';

  const tryWriter = (): IndexDb | null => {
    try {
      const index = openIndex(file, { log, onCorrupt: (err) => void recover(err) });
      sweepLeftoverTemps(file);
      return index;
    } catch (err) {
      if (err instanceof IndexLockedError) {
        lockedBy = err.writer;
        return null;
      }
      throw err;
    }
  };

  const startWriting = async (index: IndexDb): Promise<void> => {
    writer = index;
    if (!started) return;
    index.setPrices(opts.prices());
    const next = await opts.startPipeline(index);
    // Replaced while it started (a damaged file rebuilt meanwhile) or closing: that pipeline must not run on.
    if (writer !== index || closed) await next.close();
    else pipeline = next;
  };

  const openReader = async (): Promise<IndexReader> => {
    const until = Date.now() + READER_WAIT_MS;
    for (;;) {
      try {
        return openIndexReader(file, { prices: opts.prices });
      } catch (err) {
        // The writer may still be creating the file.
        if (!(err instanceof IndexWriteError) || err.kind !== 'busy' || Date.now() > until) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };

  /** A damaged file: confirm with SQLite's own check, then set it aside and index the transcripts again. */
  const recover = (err: IndexWriteError): Promise<void> => {
    recovering ??= (async () => {
      const damaged = writer;
      if (!damaged || closed) return;
      let check: string;
      try {
        check = damaged.quickCheck();
      } catch (e) {
        check = (e as Error).message;
      }
      if (check === 'ok') {
        log(`index ${file}: a statement reported damage (${err.message}) but the integrity check passes; keeping it`);
        return;
      }
      log(`index ${file} is damaged (${check}); setting it aside and rebuilding it from the transcripts`);
      // No reads or new pipelines on the damaged file from here on.
      writer = null;
      await pipeline?.close();
      pipeline = null;
      try {
        damaged.close();
      } catch {
        // a damaged file may refuse its last write; it is set aside as it is
      }
      log(`kept the damaged index as ${setAside(file)}`);
      const fresh = tryWriter();
      if (fresh) await startWriting(fresh);
      else await becomeReader();
    })().finally(() => {
      recovering = null;
    });
    return recovering;
  };

  const becomeReader = async (): Promise<void> => {
    reader = await openReader();
    log(`index ${file} is being written by another process (${lockedBy}); serving it read-only until that process stops`);
    takeover = setInterval(() => {
      if (closed || recovering) return;
      const index = tryWriter();
      if (!index) return;
      clearInterval(takeover!);
      takeover = null;
      reader?.close();
      reader = null;
      log(`index ${file}: the other writer stopped; writing it from now on`);
      void startWriting(index).catch((e: unknown) => log(`cannot start indexing: ${(e as Error).message}`));
    }, opts.takeoverMs ?? TAKEOVER_MS);
    takeover.unref();
  };

  const first = tryWriter();
  if (first) await startWriting(first);
  else await becomeReader();

  const current = (): IndexReader => {
    const r = writer ?? reader;
    if (!r) throw new Error('the index is being reopened; try again in a moment');
    return r;
  };
  // One counter over the index files this process holds in turn: each file's own generation starts anew.
  let generation = 0;
  let seen: { index: IndexReader | null; inner: number } = { index: null, inner: -1 };
  const nextGeneration = (): number => {
    const index = writer ?? reader;
    const inner = index?.generation() ?? -1;
    if (index !== seen.index || inner !== seen.inner) {
      generation++;
      seen = { index, inner };
    }
    return generation;
  };
  return {
    get queries() {
      return current().queries;
    },
    stats: () => current().stats(),
    generation: nextGeneration,
    mode: () => (writer ? 'writer' : 'reader'),
    writable: () => writer,
    otherWriter: () => lockedBy,
    async start() {
      if (started) return;
      started = true;
      await recovering; // a rebuild under way starts its own pipeline
      if (writer && !pipeline) await startWriting(writer);
    },
    progress: () =>
      // Without a pipeline: a reader serves what another process indexed; a writer is starting or rebuilding.
      pipeline?.ingest.progress() ?? { done: reader !== null, filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 },
    setPrices(table) {
      writer?.setPrices(table);
      // Savings are computed with the table at read time, whether or not a cost was repriced.
      generation++;
    },
    async stop() {
      closed = true;
      if (takeover) clearInterval(takeover);
      await recovering;
      await pipeline?.close();
    },
    closeIndex() {
      closed = true;
      if (takeover) clearInterval(takeover);
      const open = [writer, reader];
      writer = null;
      reader = null;
      for (const index of open) index?.close();
    },
  };
}
