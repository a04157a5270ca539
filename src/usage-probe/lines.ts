// Splits a child's stdout into lines as bytes, with a limit per line: a CLI that prints without a newline must
// not grow a string until V8 refuses it (readline would), so the bytes of the line in progress are kept as chunks
// and counted, and passing the limit stops the reader.

export interface LineReader {
  /** Feeds one chunk of output; returns false once a line passed the limit (the reader then ignores the rest). */
  push(chunk: Buffer): boolean;
}

const NEWLINE = 0x0a;

export function lineReader(maxLineBytes: number, onLine: (line: string) => void, onTooLong: () => void): LineReader {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let stopped = false;
  return {
    push(chunk) {
      if (stopped) return false;
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        if (pendingBytes + nl - start > maxLineBytes) return stop();
        pending.push(chunk.subarray(start, nl));
        const line = Buffer.concat(pending).toString('utf8');
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
        onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
      const rest = chunk.length - start;
      if (pendingBytes + rest > maxLineBytes) return stop();
      if (rest > 0) {
        // A copy: the stream may reuse the chunk's memory.
        pending.push(Buffer.from(chunk.subarray(start)));
        pendingBytes += rest;
      }
      return true;
    },
  };

  function stop(): false {
    stopped = true;
    pending = [];
    pendingBytes = 0;
    onTooLong();
    return false;
  }
}
