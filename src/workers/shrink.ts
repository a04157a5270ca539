// Streams one JSON line of any size into a small copy of itself: structure and short strings as they are, every
// string value cut to its first `keep` bytes. What a usage row needs (ids, model, timestamps, counts, tool names,
// titles, a capped prompt) is short, so a line whose bulk is a huge tool result parses from a few KiB.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const U = 0x75;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
/** Deeper nesting than any transcript line has; a line nested deeper is reported as too big (JSON.parse would refuse it too). */
const MAX_DEPTH = 256;

export class LineShrinker {
  private out = Buffer.allocUnsafe(0);
  private len = 0;
  private overflow = false;
  private inString = false;
  /** Inside an escape: -1 just after the backslash, else the hex digits of a \uXXXX still to come. */
  private escape = 0;
  private kept = 0;
  private cutting = false;
  /** With `members`: the members seen of each open object or array, outermost first. */
  private readonly counts: number[] = [];
  /** With `members`: the depth whose container is being skipped past its first members, else -1. */
  private skipping = -1;

  /**
   * @param keep bytes kept of each string value
   * @param cap most bytes of the copy; a line whose copy would be longer is reported as too big (null)
   * @param members when set, the members kept of each object and array (the rest, up to its closing bracket, is left
   *   out): for a line whose bulk is structure (a huge array of short items), not strings
   */
  constructor(
    private readonly keep: number,
    private readonly cap: number,
    private readonly members = 0,
  ) {}

  reset(): void {
    this.len = 0;
    this.overflow = this.inString = this.cutting = false;
    this.escape = this.kept = 0;
    this.counts.length = 0;
    this.skipping = -1;
  }

  /** Feeds src[s, e), the next bytes of the line. */
  push(src: Buffer, s: number, e: number): void {
    for (let i = s; i < e; i++) {
      const c = src[i]!;
      if (!this.inString && this.members > 0 && this.structure(c)) continue;
      if (this.skipping >= 0) {
        this.skip(c);
        continue;
      }
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

  /**
   * Tracks objects and arrays outside strings; true when `c` was handled here (left out, or a closing bracket that
   * ends a skipped tail and is written).
   */
  private structure(c: number): boolean {
    const depth = this.counts.length;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= MAX_DEPTH) this.overflow = true;
      else this.counts.push(1);
      if (this.skipping >= 0) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      this.counts.pop();
      if (this.skipping === depth) {
        this.skipping = -1;
        this.emit(c);
        return true;
      }
      if (this.skipping >= 0) return true;
    } else if (c === COMMA && depth > 0 && this.skipping < 0) {
      if (++this.counts[depth - 1]! > this.members) {
        this.skipping = depth;
        return true;
      }
    }
    return false;
  }

  /** Inside a skipped tail: only the string state is followed (a bracket in a string is text). */
  private skip(c: number): void {
    if (!this.inString) {
      if (c === QUOTE) this.inString = true;
    } else if (this.escape !== 0) {
      this.escape = this.escape === -1 ? (c === U ? 4 : 0) : this.escape - 1;
    } else if (c === QUOTE) {
      this.inString = false;
    } else if (c === BACKSLASH) {
      this.escape = -1;
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

/**
 * The copy of a line over the limit: its strings cut, and, when that copy is still too big, a second one made from
 * the same bytes that also keeps only the first members of each object and array. A valid usage line of any size
 * thus counts, in at most two copies of bounded size.
 */
export class BigLineCopy {
  private readonly full: LineShrinker;
  private readonly capped: LineShrinker;

  constructor(keep: number, cap: number, members: number) {
    this.full = new LineShrinker(keep, cap);
    this.capped = new LineShrinker(keep, cap, members);
  }

  reset(): void {
    this.full.reset();
    this.capped.reset();
  }

  push(src: Buffer, s: number, e: number): void {
    this.full.push(src, s, e);
    this.capped.push(src, s, e);
  }

  /** The copy with every member, else the capped one, else null (nested deeper than any line is). */
  result(): Buffer | null {
    return this.full.result() ?? this.capped.result();
  }
}
