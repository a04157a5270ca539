// Owns the index file for the process: opens it as its one writer and runs the pipeline over it, or,
// when another process writes it, serves it read-only and takes over when that writer stops. A file
// found damaged while running is checked, set aside (never deleted) and rebuilt from the transcripts.
import fs from 'node:fs';
import path from 'node:path';
import { IndexLockedError, IndexWriteError, openIndex, openIndexReader } from '../index-db/index.ts';
import type { PriceTable } from '../pricing/table.ts';
import type { IndexDb, IndexReader, IndexStats, Queries } from '../index-db/types.ts';
import type { IndexFailure } from '../index-db/errors.ts';
import type { IndexingState } from '../shared/api-types.ts';
import type { Log } from '../ingest/log.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import { sweepLeftoverTemps } from '../ingest/leftover-temps.ts';
import { fateOf, identityOf, type FileIdentity } from './file-identity.ts';

export interface IndexKeeper {
  /** The current index's queries (the server reads through this, whatever happens to the file). */
  readonly queries: Queries;
  stats(): IndexStats;
  /** Runs `read` against one state of the current index (IndexReader.snapshot). */
  snapshot<T>(read: () => T): T;
  /** Moves whenever an answer may differ: a write or commit of the index, a reopened file, a new price table. */
  generation(): number;
  mode(): 'writer' | 'reader';
  /** The index while this process writes it (settings are written there), else null. */
  writable(): IndexDb | null;
  /** The process that writes the index while this one reads it, as that process recorded itself. */
  otherWriter(): string;
  /** What happened to the index file itself, one sentence each, for the overview's health (http/health.ts). */
  notes(): string[];
  /** Starts reading transcripts (as the writer; a reader starts when it takes over). */
  start(): Promise<void>;
  progress(): IndexingState;
  /** Whether the stored costs are being repriced, by this process or the writer it reads (IndexReader.repricing). */
  repricing(): boolean;
  /** Folders the writer's last listing could not read (0 without a pipeline). */
  unreadableFolders(): number;
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
  /** How often the writer checks that its file is still at its path (see watchFile). */
  fileCheckMs?: number;
  /** Tests: the fewest new messages that make a compaction due, and its worker's gate (index-db/write/compact.ts). */
  compactMinMessages?: number | undefined;
  compactTestGate?: string | undefined;
}

const TAKEOVER_MS = 2000;
const FILE_CHECK_MS = 5000;
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
  /** The file this process writes, as it was at its path when opened (null: not the writer). */
  let opened: FileIdentity | null = null;
  /** What happened to the file while this process ran, for the overview's health (notes()). */
  const events: string[] = [];
  /** A replaced file is logged once. */
  let toldReplaced = false;

  /** `damaged`: the file was found damaged; it is recovered (set aside, its history carried into a new one) first. */
  const tryWriter = (damaged?: string): IndexDb | null => {
    try {
      const index = openIndex(file, {
        log, onCorrupt: (err) => void recover(err), damaged, compactMinMessages: opts.compactMinMessages, compactTestGate: opts.compactTestGate,
      });
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
    opened = identityOf(file);
    toldReplaced = false;
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

  /**
   * A damaged file: confirm with SQLite's own check, then set it aside, carry what it still holds into a new file
   * (src/index-db/recovery.ts) and read the transcripts into that.
   */
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
      log(`index ${file} is damaged (${check}); setting it aside and carrying what it still holds into a new one`);
      // No reads or new pipelines on the damaged file from here on.
      writer = null;
      await pipeline?.close();
      pipeline = null;
      try {
        damaged.close();
      } catch {
        // a damaged file may refuse its last write; it is set aside as it is
      }
      let fresh: IndexDb | null;
      try {
        fresh = tryWriter(check);
      } catch (e) {
        // The recovery could not build its new file (a full disk): serving nothing beats crashing; the next start retries.
        log(`index ${file} could not be recovered (${(e as Error).message}); restart the server once that is fixed`);
        return;
      }
      const recovery = fresh?.recovered();
      if (recovery) log(`kept the damaged index as ${recovery.aside}`);
      if (fresh) await startWriting(fresh);
      else await becomeReader();
    })().finally(() => {
      recovering = null;
    });
    return recovering;
  };

  /**
   * The file was deleted (or moved away) while this process writes it: SQLite writes on into the unlinked file, which
   * is gone when the process stops. It is written back from the live connection to a temp file, linked to the path
   * (never over a file that appeared there meanwhile), and opened again as the writer.
   */
  const writeBack = (): Promise<void> => {
    recovering ??= (async () => {
      const live = writer;
      if (!live || closed) return;
      writer = null;
      opened = null;
      await pipeline?.close();
      pipeline = null;
      const tmp = `${file}.write-back.${process.pid}.tmp`;
      let where = file;
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.rmSync(tmp, { force: true });
        live.copyTo(tmp);
        try {
          fs.linkSync(tmp, file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          where = `${file}.written-back-${new Date().toISOString().replace(/[:.]/g, '-')}`;
          fs.renameSync(tmp, where);
        }
      } catch (err) {
        log(`index ${file} was deleted while this server wrote it, and could not be written back (${(err as Error).message}); serving what this process holds`);
        writer = live;
        return;
      } finally {
        fs.rmSync(tmp, { force: true });
      }
      live.close();
      const what = where === file
        ? `index ${file} was deleted while this server wrote it; wrote it back from the open index (${new Date().toISOString()})`
        : `index ${file} was deleted while this server wrote it and another file took its place; kept this server's copy as ${where}`;
      log(what);
      events.push(`${what[0]!.toUpperCase()}${what.slice(1)}.`);
      const fresh = tryWriter();
      if (fresh) await startWriting(fresh);
      else await becomeReader();
    })().finally(() => {
      recovering = null;
    });
    return recovering;
  };

  const checkFile = (): void => {
    // While a compaction runs the file is checked at the next turn: a write-back would wait on its lock.
    if (!writer || !opened || recovering || closed || writer.writesHeld()) return;
    const fate = fateOf(file, opened);
    if (fate === 'gone') void writeBack().catch((e: unknown) => log(`cannot write the index back: ${(e as Error).message}`));
    else if (fate === 'replaced' && !toldReplaced) {
      toldReplaced = true;
      log(`index ${file} was replaced by another file while this server wrote it; this server keeps writing the one it opened until it stops`);
    }
  };
  const fileCheck = setInterval(checkFile, opts.fileCheckMs ?? FILE_CHECK_MS);
  fileCheck.unref();

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

  /** The newest table asked for while a compaction held the writes: installed when it ends. */
  let pricesWaiting: PriceTable | null = null;
  const installPrices = (table: PriceTable): void => {
    const index = writer;
    const held = index?.writesHeld();
    if (!index || !held) {
      index?.setPrices(table);
      return;
    }
    if (pricesWaiting === null) {
      void held.then(() => {
        const next = pricesWaiting;
        pricesWaiting = null;
        if (next && writer === index) installPrices(next);
      });
    }
    pricesWaiting = table;
  };

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
    snapshot: (read) => current().snapshot(read),
    generation: nextGeneration,
    mode: () => (writer ? 'writer' : 'reader'),
    writable: () => writer,
    otherWriter: () => lockedBy,
    notes() {
      const r = writer ?? reader;
      const recovery = r?.recovered();
      return [
        ...(recovery
          ? [`The index was found damaged on ${recovery.at.slice(0, 10)} and rebuilt from what it still held: ${recovery.summary}. The damaged file was kept as ${recovery.aside}.`]
          : []),
        ...events,
        ...failingWrites(writer?.writeFailure() ?? null),
      ];
    },
    async start() {
      if (started) return;
      started = true;
      await recovering; // a rebuild under way starts its own pipeline
      if (writer && !pipeline) await startWriting(writer);
    },
    progress: () =>
      // Without a pipeline: a reader serves what another process indexed; a writer is starting or rebuilding.
      pipeline?.ingest.progress() ?? {
        done: reader !== null,
        filesTotal: 0,
        filesDone: 0,
        bytesTotal: 0,
        bytesDone: 0,
        finalSince: reader !== null ? new Date(0).toISOString() : null,
      },
    repricing: () => (writer ?? reader)?.repricing() ?? false,
    unreadableFolders: () => pipeline?.unreadableFolders() ?? 0,
    setPrices(table) {
      installPrices(table);
      // Savings are computed with the table at read time, whether or not a cost was repriced.
      generation++;
    },
    async stop() {
      closed = true;
      clearInterval(fileCheck);
      if (takeover) clearInterval(takeover);
      await recovering;
      await pipeline?.close();
      // A compaction under way ends first (seconds at most: one VACUUM), so that the close commits and marks the file.
      await (writer as IndexDb | null)?.writesHeld();
    },
    closeIndex() {
      closed = true;
      clearInterval(fileCheck);
      if (takeover) clearInterval(takeover);
      const open = [writer, reader];
      writer = null;
      reader = null;
      for (const index of open) index?.close();
    },
  };
}

/** The note of writes that fail now: the figures are what was committed, and the indexing may look done. */
function failingWrites(kind: IndexFailure | null): string[] {
  if (kind === null) return [];
  const why: Partial<Record<IndexFailure, string>> = { full: 'the disk is full', readonly: 'the file cannot be written', corrupt: 'the file is damaged' };
  return [`Index writes are failing (${why[kind] ?? 'an I/O error'}): the figures show what was committed; the rest is read again once writes work.`];
}
