// Pure byte scanner over a byte range of a JSONL transcript. Splits complete lines and prefilters them on bytes so
// that only lines that can matter (usage, titles, the first prompt) are decoded and parsed; tool output, which is
// most of the bytes, is never turned into a string.
import type { FileMeta, ParseStats, UsageRow } from './protocol.ts';
import { extractLimitHit } from './limit-hit.ts';
import { isHousekeeping } from '../shared/housekeeping.ts';
import { LIMITS, extractProgressRows, extractPrompt, extractTitle, extractUsageRows, hasUsage, isRecord, parseIsoUtc, timestampOf } from './extract.ts';
import { BigLineCopy } from './shrink.ts';

/** Reads up to `len` bytes at file position `pos` into `buf` at `at`; returns the count (0 at end of file). */
export type ReadAt = (buf: Buffer, at: number, len: number, pos: number) => number;

export interface ScanOptions {
  wantPrompt: boolean;
  /**
   * Lines longer than this are streamed through a BigLineCopy (strings cut, never held whole; when that is still longer
   * than this, also the members of each object and array past the first ones) and parsed from the copy.
   */
  maxLine: number;
  /** Work buffer; its length must exceed maxLine (the rest is the read size). */
  buf: Buffer;
}

export interface ScanResult {
  /** Offset just after the last complete line. */
  consumedTo: number;
  rows: UsageRow[];
  meta: FileMeta;
  stats: ParseStats;
}

const NL = 0x0a;
const USAGE = Buffer.from('"usage"');
// Ends both "custom-title" and "ai-title"; a needle whose bytes are rare in text is searched several times faster.
const TITLE = Buffer.from('-title"');
// `"user"` is the value of both "type" and "message.role" of user lines; escaped quotes inside strings cannot match.
const USER = Buffer.from('"user"');
const TIMESTAMP = Buffer.from('"timestamp"');
const SESSION_ID = Buffer.from('"sessionId"');
/**
 * Lines with a timestamp read by bytes at the start of a range, for the earliest time; lines parsed anyway add theirs.
 * Times rise through a file, so the first few lines are enough (the first may be a snapshot with an older copy's time).
 */
const PROBE_LINES = 8;
/** Bytes kept of each string of a line over maxLine: ids, models, titles and the 500-character prompt fit. */
const BIG_LINE_STRING_BYTES = 4096;
/**
 * Members kept of each object and array of a line still over maxLine with its strings cut: a line's own fields, its
 * message's and its usage's are far fewer; what goes is the tail of a huge array or object of a tool's payload.
 */
const BIG_LINE_MEMBERS = 64;

/**
 * Scans the complete lines of [from, to). A line longer than maxLine is shrunk while streaming (never held whole);
 * a last line without its '\n' is not consumed.
 */
export function scanRange(read: ReadAt, from: number, to: number, opts: ScanOptions): ScanResult {
  const { buf, maxLine } = opts;
  const chunk = buf.length - maxLine;
  if (chunk <= 0) throw new RangeError('scan buffer must be longer than maxLine');
  const lines = new LineScanner(opts.wantPrompt, maxLine);
  let pos = from; // next file position to read
  let carry = 0; // bytes at buf[0, carry) of a line not finished yet
  let streaming = -1; // inside a line over maxLine: the file offset of its start; its bytes go to the shrinker
  let consumedTo = from;
  while (pos < to) {
    const n = read(buf, carry, Math.min(chunk, to - pos), pos);
    if (n <= 0) break; // the file shrank under us: keep what was complete
    const base = pos - carry; // file offset of buf[0]
    pos += n;
    const view = buf.subarray(0, carry + n);
    let start = 0;
    if (streaming >= 0) {
      const nl = view.indexOf(NL);
      lines.shrinker.push(view, 0, nl < 0 ? view.length : nl);
      if (nl < 0) continue;
      lines.bigLine(streaming);
      streaming = -1;
      start = nl + 1;
      consumedTo = base + start;
    }
    const cut = lines.scan(view, start, base);
    if (cut > start) consumedTo = base + cut;
    const rest = view.length - cut;
    if (rest > maxLine) {
      streaming = base + cut;
      lines.shrinker.reset();
      lines.shrinker.push(view, cut, view.length);
      carry = 0;
    } else {
      if (rest && cut) buf.copyWithin(0, cut, view.length);
      carry = rest;
    }
  }
  return { consumedTo, rows: lines.rows, meta: lines.meta, stats: lines.stats };
}

/** Classifies complete lines; keeps the position of the next hit of each marker so each is searched once per chunk. */
class LineScanner {
  readonly rows: UsageRow[] = [];
  readonly meta: FileMeta = {};
  readonly stats: ParseStats = { lines: 0, usageLines: 0, blank: 0, malformed: 0, giant: 0, outOfRange: 0 };
  readonly shrinker: BigLineCopy;
  private wantPrompt: boolean;
  private probesLeft = PROBE_LINES;
  private nextUsage = 0;
  private nextTitle = 0;
  private nextUser = 0;
  private nextTs = 0;

  constructor(
    wantPrompt: boolean,
    private readonly maxLine: number,
  ) {
    this.wantPrompt = wantPrompt;
    // a quarter of the copy's room per string, so a few strings always fit (tests use a small maxLine)
    this.shrinker = new BigLineCopy(Math.min(BIG_LINE_STRING_BYTES, maxLine >> 2), maxLine, BIG_LINE_MEMBERS);
  }

  /** The line at `offset` whose bytes were pushed to the shrinker is complete. */
  bigLine(offset: number): void {
    this.stats.lines++;
    this.shrunk(offset);
  }

  private shrunk(offset: number): void {
    const copy = this.shrinker.result();
    if (!copy) {
      this.stats.giant++;
      return;
    }
    const usage = copy.indexOf(USAGE) >= 0;
    const title = copy.indexOf(TITLE) >= 0;
    const user = this.wantPrompt && copy.indexOf(USER) >= 0;
    if (usage || title || user) this.parsed(copy, 0, copy.length, offset, usage, title, user);
  }

  /** Handles every complete line of view[start, …); returns the index just after the last '\n'. */
  scan(view: Buffer, start: number, base: number): number {
    // marker positions are indexes into this view
    this.nextUsage = this.nextTitle = this.nextUser = this.nextTs = -1;
    let s = start;
    for (let nl = view.indexOf(NL, s); nl >= 0; nl = view.indexOf(NL, s)) {
      this.line(view, s, nl, base + s);
      s = nl + 1;
    }
    return s;
  }

  private line(view: Buffer, s: number, e: number, offset: number): void {
    const stats = this.stats;
    stats.lines++;
    if (isBlank(view, s, e)) {
      stats.blank++;
      return;
    }
    if (e - s > this.maxLine) {
      this.shrinker.reset();
      this.shrinker.push(view, s, e);
      this.shrunk(offset);
      return;
    }
    if (this.probesLeft > 0) {
      if (this.nextTs < s) this.nextTs = find(view, TIMESTAMP, s);
      if (this.nextTs < e) this.probe(view, s, e, this.nextTs);
    }
    if (this.nextUsage < s) this.nextUsage = find(view, USAGE, s);
    if (this.nextTitle < s) this.nextTitle = find(view, TITLE, s);
    const usage = this.nextUsage < e;
    const title = this.nextTitle < e;
    let user = false;
    if (this.wantPrompt) {
      if (this.nextUser < s) this.nextUser = find(view, USER, s);
      user = this.nextUser < e;
    }
    if (usage || title || user) this.parsed(view, s, e, offset, usage, title, user);
  }

  /** Parses a line that passed the prefilter (markers found) and takes what it holds. */
  private parsed(view: Buffer, s: number, e: number, offset: number, usage: boolean, title: boolean, user: boolean): void {
    const stats = this.stats;
    const line = parseObject(view, s, e);
    if (!line) {
      stats.malformed++;
      return;
    }
    this.noteMeta(line);
    if (usage && hasUsage(line)) {
      const hit = extractLimitHit(line);
      if (hit) (this.meta.hits ??= []).push(hit);
      const rows = extractUsageRows(line, offset);
      if (rows === 'outOfRange') stats.outOfRange++;
      else if (rows) {
        stats.usageLines++;
        this.rows.push(...rows);
      } else stats.malformed++;
    } else if (usage && line.type === 'progress') {
      // A subagent's response streamed into its parent; a progress line without one is no usage line.
      const rows = extractProgressRows(line, offset);
      if (rows === 'outOfRange') stats.outOfRange++;
      else if (rows) {
        stats.usageLines++;
        this.rows.push(...rows);
      }
    }
    if (title) {
      const t = extractTitle(line);
      if (t) {
        this.meta.title = t.title;
        this.meta.titleKind = t.kind;
      }
    }
    if (user) {
      const prompt = extractPrompt(line);
      // A housekeeping command stands in until a real prompt follows it (then the search ends).
      if (prompt !== null && !isHousekeeping(prompt)) {
        this.meta.firstPrompt = prompt;
        this.wantPrompt = false;
      } else if (prompt !== null) this.meta.firstPrompt ??= prompt;
    }
  }

  private noteMeta(line: Record<string, unknown>): void {
    const meta = this.meta;
    if (typeof line.cwd === 'string' && line.cwd) meta.cwd = line.cwd;
    if (meta.sessionId === undefined && typeof line.sessionId === 'string' && line.sessionId) meta.sessionId = line.sessionId;
    this.noteTs(timestampOf(line));
  }

  private noteTs(ts: number): void {
    if (ts >= LIMITS.minTs && ts < LIMITS.maxTs && (this.meta.firstTs === undefined || ts < this.meta.firstTs)) this.meta.firstTs = ts;
  }

  /** Reads a line's timestamp (and sessionId) straight from the bytes, without parsing it. */
  private probe(view: Buffer, s: number, e: number, at: number): void {
    this.probesLeft--;
    this.noteTs(parseIsoUtc(stringAfterKey(view, at + TIMESTAMP.length, e) ?? ''));
    if (this.meta.sessionId === undefined) {
      const k = view.subarray(s, e).indexOf(SESSION_ID);
      const id = k < 0 ? null : stringAfterKey(view, s + k + SESSION_ID.length, e);
      if (id) this.meta.sessionId = id;
    }
  }
}

/** Index of needle in view from `from`, or view.length when absent (so `pos < lineEnd` is false for every line). */
function find(view: Buffer, needle: Buffer, from: number): number {
  const i = view.indexOf(needle, from);
  return i < 0 ? view.length : i;
}

function isBlank(view: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = view[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** JSON.parse of one line when it is an object; null for anything else (bad JSON, arrays, scalars). */
function parseObject(view: Buffer, s: number, e: number): Record<string, unknown> | null {
  if (view[s] === 0xef && view[s + 1] === 0xbb && view[s + 2] === 0xbf) s += 3; // UTF-8 BOM
  let value: unknown;
  try {
    value = JSON.parse(view.toString('utf8', s, e));
  } catch {
    return null;
  }
  return isRecord(value) ? value : null;
}

/** The plain string value after a key (`: "value"`), if short and without escapes; else null. */
function stringAfterKey(view: Buffer, i: number, e: number): string | null {
  while (i < e && (view[i] === 0x20 || view[i] === 0x3a)) i++; // spaces and the colon
  if (view[i] !== 0x22) return null;
  const close = view.subarray(i + 1, Math.min(e, i + 200)).indexOf(0x22);
  if (close < 0) return null;
  const value = view.toString('utf8', i + 1, i + 1 + close);
  return value.includes('\\') ? null : value;
}
