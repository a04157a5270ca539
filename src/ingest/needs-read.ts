// Whether a transcript has bytes the index has not read: the one rule of ingest's reads (ingest.ts readNew), the
// server's periodic re-check and the command line's checks before it reads anything. Its own module, so a statusline
// that only asks "is this session ahead of the index?" loads nothing more.
import type { FileStateRow, Reports } from '../index-db/queries/reports.ts';
import type { FoundFile } from './discovery.ts';
import { nextTurn, type Turn } from './turns.ts';

/** A file to read, or (no stat: it vanished) a known file to mark gone. */
export function needsRead(
  st: { size: number; mtimeMs: number } | undefined,
  cursor: { size: number; mtimeMs: number; gone: boolean } | null | undefined,
): boolean {
  return cursor ? changedSince(st, cursor.size, cursor.mtimeMs, cursor.gone) : !!st;
}

/** The same rule against a cursor as `fileStates()` reads them all at once (no object per file). */
export function rowNeedsRead(st: { size: number; mtimeMs: number } | undefined, cursor: FileStateRow | undefined): boolean {
  return cursor ? changedSince(st, cursor[1], cursor[2], cursor[3] === 1) : !!st;
}

function changedSince(st: { size: number; mtimeMs: number } | undefined, size: number, mtimeMs: number, gone: boolean): boolean {
  if (!st) return !gone;
  return gone || st.size !== size || st.mtimeMs !== mtimeMs;
}

/**
 * The transcripts whose size or mtime differ from what the index read (or that it never read), against every cursor
 * loaded in one query (`fileStates()`): the whole check of a history that did not change.
 */
export function changedTranscripts(found: readonly FoundFile[], states: Map<string, FileStateRow>): FoundFile[] {
  return found.filter((f) => rowNeedsRead(f, states.get(f.path)));
}

/** Cursors read per turn of the event loop by `fileStatesByTurns`. */
const STATES_PER_TURN = 1000;

/**
 * Every cursor as `fileStates()` gives them, read a slice per turn of the event loop: the server's re-check every 30 s
 * read them in one statement, 36 ms (up to 86) of its main thread at 10 GiB that a request arriving then waited on.
 * Cursors written between two slices are read as they are then: the re-check compares them with a listing that took
 * many turns too, and ingest reads a file it names from its cursor of the moment.
 */
export async function fileStatesByTurns(reports: Pick<Reports, 'fileStatesAfter'>, turn: Turn = nextTurn, perTurn = STATES_PER_TURN): Promise<Map<string, FileStateRow>> {
  const out = new Map<string, FileStateRow>();
  let after = 0;
  for (;;) {
    const { states, last } = reports.fileStatesAfter(after, perTurn);
    for (const r of states) out.set(r[0], r);
    if (last === null || states.length < perTurn) return out;
    after = last;
    await turn();
  }
}
