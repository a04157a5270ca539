// Reads [from, to) of one transcript and scans it into a columnar batch. The worker's task (parse-transcript.ts)
// and the command line's small catch-ups, which parse on their own thread without loading the worker pool, run it.
import fs from 'node:fs';
import { HEAD_BYTES, MAX_LINE_BYTES, decodeStrings, encodeBatch } from './protocol.ts';
import type { ParseTask, UsageBatch } from './protocol.ts';
import { collapseRows } from './extract.ts';
import { readAgentMeta } from './agent-meta.ts';
import { withFold } from './fold.ts';
import { scanRange } from './jsonl.ts';

/** Bytes per read: large enough to amortise syscalls, small enough to stay in cache while scanned. */
const READ_BYTES = 1 << 20;
// One buffer per worker thread, reused by every task: room for a whole max-size line plus one read.
let work: Buffer | undefined;

/** The batch of one task (what the worker transfers). Throws only when the file cannot be read. */
export function readTranscript(task: ParseTask): UsageBatch {
  const { path, from, to } = task;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from) {
    throw new Error(`invalid parse task for ${path}: from=${from} to=${to}`);
  }
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch (err) {
    throw new Error(`cannot open transcript ${path}: ${reason(err)}`);
  }
  try {
    const readAt = (buf: Buffer, at: number, len: number, pos: number): number => {
      try {
        return fs.readSync(fd, buf, at, len, pos);
      } catch (err) {
        throw new Error(`cannot read transcript ${path}: ${reason(err)}`);
      }
    };
    let head = '';
    if (from === 0) {
      const bytes = Buffer.alloc(HEAD_BYTES);
      head = bytes.toString('hex', 0, readAt(bytes, 0, HEAD_BYTES, 0));
    }
    work ??= Buffer.allocUnsafe(MAX_LINE_BYTES + READ_BYTES);
    const scan = scanRange(readAt, from, to, { wantPrompt: task.wantPrompt, maxLine: MAX_LINE_BYTES, buf: work });
    const batch = encodeBatch(collapseRows(scan.rows), {
      path,
      from,
      consumedTo: scan.consumedTo,
      head,
      meta: scan.meta,
      stats: scan.stats,
    });
    const folded = task.fold ? withFold(batch, decodeStrings(batch.strTable), task.fold) : batch;
    return task.agentMeta ? { ...folded, agent: readAgentMeta(path) } : folded;
  } finally {
    fs.closeSync(fd);
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
