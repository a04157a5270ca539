// A big text (`session --json`: 18 MB at 10 GiB) written out a piece at a time through one buffer, encoded as UTF-8
// straight into it. The whole text as one string and then as one Buffer cost a report more than its query: above
// all fresh memory, each page of which the kernel has to supply (issue 35).

/** Where a writer's pieces of text go. */
export interface TextSink {
  add(text: string): void;
}

/**
 * Takes a full buffer's bytes; returns whether they are written already, so that the buffer can take the next ones
 * (else it is left to the destination, and the writer goes on in a new one).
 */
export type WriteBytes = (bytes: Buffer) => boolean;

/** The buffer's size: a few hundred pieces of a report. */
const BUFFER_BYTES = 1 << 20;

export class Utf8Out implements TextSink {
  private buffer = Buffer.allocUnsafeSlow(BUFFER_BYTES);
  private used = 0;

  constructor(private readonly write: WriteBytes) {}

  add(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    if (this.used + text.length * 3 > this.buffer.length) {
      this.flush();
      if (text.length * 3 > this.buffer.length) {
        this.write(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** Writes what the buffer holds (at the end, after the last piece). */
  flush(): void {
    if (!this.used) return;
    const written = this.write(this.buffer.subarray(0, this.used));
    if (!written) this.buffer = Buffer.allocUnsafeSlow(BUFFER_BYTES);
    this.used = 0;
  }
}

/**
 * WriteBytes to a stream (process.stdout): written when the stream holds none of it afterwards. A file's stream and a
 * terminal write synchronously; a pipe too unless it is full (or on macOS, where pipes are asynchronous): then the
 * stream keeps the bytes until they are out, and the buffer is not reused.
 */
export const streamBytes = (stream: { write(bytes: Buffer): unknown; readonly writableLength: number }): WriteBytes => (bytes) => {
  stream.write(bytes);
  return stream.writableLength === 0;
};
