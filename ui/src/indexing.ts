// The indexing state every API answer carries, read one way by the shell's refresh clock, the top bar's pill and the
// overview's note.
import type { IndexingState } from '../../src/shared/api-types.ts';

/**
 * 'checking': the start-up scan has not yet found what to read (no count to show; on a restart it usually finds
 * nothing); 'reading': transcripts are being read; 'done'.
 */
export type IndexingPhase = 'checking' | 'reading' | 'done';

export function indexingPhase(s: IndexingState): IndexingPhase {
  return s.done ? 'done' : s.filesTotal === 0 ? 'checking' : 'reading';
}

/** How far the reading has got, 0 to 1: by bytes, or by files when no size is known. */
export function indexingRatio(s: IndexingState): number {
  return s.bytesTotal > 0 ? s.bytesDone / s.bytesTotal : s.filesTotal > 0 ? s.filesDone / s.filesTotal : 0;
}

/** A figure's label, with "so far" while the first index may still add to its range (the answer's `final`). */
export function soFar(label: string, final: boolean): string {
  return final ? label : `${label} so far`;
}
