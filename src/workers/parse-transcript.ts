// Piscina worker entry: reads [from, to) of one transcript, scans it and returns a columnar batch whose buffers are
// transferred (not copied) to the main thread.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { ParseTask, UsageBatch } from './protocol.ts';
import { readTranscript } from './read-transcript.ts';

export { readTranscript } from './read-transcript.ts';

/** Wraps a batch so `move()` transfers its buffers instead of cloning them. */
export class TransferableBatch {
  constructor(private readonly batch: UsageBatch) {}
  get [transferableSymbol](): ArrayBuffer[] {
    const b = this.batch;
    const f = b.fold;
    const folded = f ? [f.winners.buffer, f.groupOf.buffer, f.groups.buffer, f.tools.buffer] : [];
    return [b.nums.buffer, b.flags.buffer, b.strIdx.buffer, b.strTable.buffer, ...folded] as ArrayBuffer[];
  }
  get [valueSymbol](): UsageBatch {
    return this.batch;
  }
}

export default function parseTranscript(task: ParseTask): TransferableBatch {
  return move(new TransferableBatch(readTranscript(task))) as TransferableBatch;
}
