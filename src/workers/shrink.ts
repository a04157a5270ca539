// Streams one JSON line of any size into a small copy of itself: structure and short strings as they are, every
// string value cut to its first `keep` bytes. What a usage row needs (ids, model, timestamps, counts, tool names,
// titles, a capped prompt) is short, so a line whose bulk is a huge tool result parses from a few KiB.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;

export class LineShrinker {
  private out = Buffer.allocUnsafe(0);
  private len = 0;
  private overflow = false;
  private inString = false;
  /** Inside an escape: -1 just after the backslash, else the hex digits of a \uXXXX still to come. */
  private escape = 0;
  private kept = 0;
  private cutting = false;

  /**
   * @param keep bytes kept of each string value
   * @param cap most bytes of the copy; a line whose copy would be longer is reported as too big (null)
   */
  constructor(
    private readonly keep: number,
    private readonly cap: number,
  ) {}

  reset(): void {
    this.len = 0;
    this.overflow = this.inString = this.cutting = false;
    this.escape = this.kept = 0;
  }

  /** Feeds src[s, e), the next bytes of the line. */
  push(src: Buffer, s: number, e: number): void {
    for (let i = s; i < e; i++) {
      const c = src[i]!;
      if (!this.inString) {
        if (c === QUOTE) {
          this.inString = true;
          this.kept = 0;
          this.cutting = false;
        }
        this.emit(c);
      } else if (this.escape !== 0) {
        this.escape = this.escape === -1 ? (c === U ? 4 : 0) : this.escape - 1;
        if (!this.cutting) this.emit(c);
      } else if (c === QUOTE) {
        this.inString = false;
        this.emit(c);
      } else {
        // Cut only where a character starts (not in an escape, not on a UTF-8 continuation byte): the copy stays valid.
        if (!this.cutting && this.kept >= this.keep && (c & 0xc0) !== 0x80) this.cutting = true;
        if (c === BACKSLASH) this.escape = -1;
        if (!this.cutting) {
          this.emit(c);
          this.kept++;
        }
      }
    }
  }

  /** The shortened line, or null when it would exceed the cap. A view of an internal buffer: valid until reset(). */
  result(): Buffer | null {
    return this.overflow ? null : this.out.subarray(0, this.len);
  }

  private emit(c: number): void {
    if (this.len === this.out.length) {
      if (this.len >= this.cap) {
        this.overflow = true;
        return;
      }
      const grown = Buffer.allocUnsafe(Math.min(this.cap, Math.max(64 * 1024, this.len * 2)));
      this.out.copy(grown, 0, 0, this.len);
      this.out = grown;
    }
    this.out[this.len++] = c;
  }
}
