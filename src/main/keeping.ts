// Whether this server keeps the transcripts, and where: on from the start with --keep-transcripts (or when the
// dashboard's offer turned it on before, recorded in the index), or turned on while it runs by that offer. The pipeline
// is given `keeper`, which keeps through whatever keeper is current, so turning it on needs no restart.
import { createKeeper, type TranscriptKeeper } from '../ingest/keep-transcripts.ts';
import type { Log } from '../ingest/log.ts';

export interface Keeping {
  /** What the pipeline calls for every transcript listed or changed; does nothing while keeping is off. */
  keeper: Pick<TranscriptKeeper, 'keep' | 'keepAll'>;
  /** The kept folder; null while keeping is off. */
  dir(): string | null;
  /** Turns keeping on in `dir` (nothing when it is on already) and keeps `files` now. */
  turnOn(dir: string, files: readonly string[]): Promise<void>;
}

export function createKeeping(opts: { dir: string | null; projectsDirs: readonly string[]; log: Log }): Keeping {
  const make = (dir: string): TranscriptKeeper => createKeeper({ dir, projectsDirs: opts.projectsDirs, log: opts.log });
  let current: TranscriptKeeper | null = opts.dir === null ? null : make(opts.dir);
  return {
    keeper: {
      keep: (file) => current?.keep(file),
      keepAll: (files) => current?.keepAll(files) ?? Promise.resolve(),
    },
    dir: () => current?.dir ?? null,
    turnOn(dir, files) {
      current ??= make(dir);
      return current.keepAll(files);
    },
  };
}
