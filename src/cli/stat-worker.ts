// The command line's stat thread (src/cli/stat-thread.ts, built as dist/stat-worker.cjs): stats the transcripts a
// report's check listed, with the walk's own rule (`transcriptAt`), while the main thread reads the index.
import { parentPort } from 'node:worker_threads';
import { transcriptAt } from '../main/discovery.ts';

/** The answer: per path, found (1) or vanished (0), with its size and mtime (zeros: it could not be stat'ed). */
export interface StatAnswer {
  found: Uint8Array<ArrayBuffer>;
  sizes: Float64Array<ArrayBuffer>;
  mtimes: Float64Array<ArrayBuffer>;
}

const port = parentPort!;
port.once('message', (joined: string) => {
  const paths = joined === '' ? [] : joined.split('\0');
  const answer: StatAnswer = { found: new Uint8Array(paths.length), sizes: new Float64Array(paths.length), mtimes: new Float64Array(paths.length) };
  for (let i = 0; i < paths.length; i++) {
    const f = transcriptAt(paths[i]!);
    if (f === null) continue;
    answer.found[i] = 1;
    answer.sizes[i] = f.size;
    answer.mtimes[i] = f.mtimeMs;
  }
  port.postMessage(answer, [answer.found.buffer, answer.sizes.buffer, answer.mtimes.buffer]);
  port.close();
});
