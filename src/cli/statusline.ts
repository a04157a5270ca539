// `cost-dashboard statusline`: Claude Code pipes its status JSON (session_id, transcript_path, model, cwd,
// ...) to stdin and shows the one line printed on stdout. It must never hold Claude Code up: whatever
// happens, one line comes out within CAP_MS and the exit code is 0; details go to stderr.
// It only ever reads the index. A writer must load every stored response's dedup key before it writes one
// (in proportion to the history, all of it synchronous), which no statusline can afford. So when nobody writes the index and this session's own transcripts (its file and its subagents')
// have new lines, it starts `cost-dashboard update` in the background and answers from what is indexed; the
// next render shows them. A running server keeps the index fresh itself (within a second of each line).
//
// Its imports are what a render uses and nothing more (it is bundled into dist/statusline.cjs, which the executable
// requires alone): the status queries over one query-only connection, no writer, pricing, worker pool or server
// module, and no stream: stdin, stdout and stderr are read and written with fs.
import fs from 'node:fs';
import path from 'node:path';
import { IndexWriteError } from '../index-db/errors.ts';
import type { StatusFigures } from '../index-db/queries/status.ts';
import { OlderSchemaError, retryWhileBusy } from '../index-db/read-connection.ts';
import { openStatusReader, type StatusReader } from '../index-db/status-reader.ts';
import { isTranscript, roleOf } from '../ingest/discovery.ts';
import type { CliArgs } from './args.ts';
import { sinceUpdated, startBackgroundUpdate } from './background-update.ts';
import { needsRead } from '../ingest/needs-read.ts';
import { duration, usd } from './table.ts';
import { keepReadings, limitsSegment, runWrapped } from './statusline-limits.ts';

/** The whole run, stdin included. */
const CAP_MS = 900;
/** Time kept back from the cap for the query and the line (opening waits at most the rest for a busy file). */
const ANSWER_MS = 150;
/** How long the rest of the history may go unchecked before a background update looks at it. */
const UPDATE_EVERY_MS = 60_000;

/** The fields used of Claude Code's status JSON (it has more: cwd, workspace, version, cost, ...). */
interface StatusInput {
  session_id?: unknown;
  transcript_path?: unknown;
  /** {id, display_name} */
  model?: unknown;
}

export function statusLine(model: string, f: StatusFigures, limits = ''): string {
  const block = f.block
    ? `${usd(f.block.cost)} block (${duration(f.block.burn?.minutesLeft ?? 0)} left)`
    : 'no active block';
  const burn = f.block?.burn ? ` | 🔥 ${usd(f.block.burn.costPerHour)}/hr` : '';
  return `🤖 ${model}${limits} | 💰 ${usd(f.sessionCost ?? 0)} session / ${usd(f.todayCost)} today${f.todayFinal ? '' : ' so far'} / ${block}${burn}`;
}

/**
 * `text` on fd 1 or 2 at once. Not through process.stdout and stderr: as pipes they load Node's stream and socket
 * modules, a measurable share of a render. A full non-blocking pipe (never for one line) is retried; a reader that went away
 * (EPIPE) gets nothing.
 */
export function writeOut(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) {
    try {
      done += fs.writeSync(fd, bytes, done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}

/**
 * stdin as text, or what arrived by `ms` (a terminal sends nothing). On Linux a pipe or terminal is opened again
 * without blocking and read with fs, so neither process.stdin's stream and socket modules nor a
 * blocking read is needed: a read that waits in the thread pool would hold the process at exit (libuv joins those
 * threads) when stdin never closes. A socket (Node's child_process makes its pipes of them) cannot be opened so:
 * process.stdin reads it.
 */
function readStdin(ms: number): Promise<string> {
  let fd: number;
  try {
    if (process.platform !== 'linux') throw new Error('/dev/stdin is the same open file elsewhere');
    fd = fs.openSync('/dev/stdin', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return readStdinStream(ms);
  }
  const until = Date.now() + ms;
  const chunks: Buffer[] = [];
  const buf = Buffer.allocUnsafe(64 * 1024);
  return new Promise((resolve) => {
    const poll = (): void => {
      for (;;) {
        let n: number;
        try {
          n = fs.readSync(fd, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && Date.now() < until) return void setTimeout(poll, 5);
          n = 0; // nothing more by the deadline, or unreadable: what came is the input
        }
        if (n === 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
      }
      fs.closeSync(fd);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    poll();
  });
}

function readStdinStream(ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = (): void => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(text);
    };
    const timer = setTimeout(done, ms);
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c: string) => (text += c));
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function modelName(input: StatusInput): string {
  const m = input.model;
  if (m && typeof m === 'object') {
    const o = m as { id?: unknown; display_name?: unknown };
    return str(o.display_name) ?? str(o.id) ?? 'Claude';
  }
  return str(m) ?? 'Claude';
}

/** The session's own transcripts: its file and its subagents' (`<session>/subagents/**.jsonl`). */
function ownFiles(transcript: string): string[] {
  const out = [transcript];
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      // A workflow run's journal.jsonl is never indexed: counted here, it would look unread at every render.
      else if (isTranscript(p)) out.push(p);
    }
  };
  walk(path.join(transcript.replace(/\.jsonl$/, ''), 'subagents'));
  return out;
}

export async function runStatusline(args: CliArgs, warn: (msg: string) => void): Promise<number> {
  const deadline = Date.now() + CAP_MS;
  let printed = false;
  const print = (line: string): void => {
    if (printed) return;
    printed = true;
    writeOut(1, `${line}\n`);
  };
  let opened: StatusReader | null = null;
  let model = 'Claude';
  /** The plan limit windows of this render's input: they come from stdin, so every line shows them, a fallback too. */
  let limits = '';
  /** The line is a wrapped command's (--wrap): a stop prints none of ours. */
  let wrapping = false;
  // The hard cap, and Claude Code stopping a render it no longer needs: a line now if none came yet, exit 0.
  const stop = (why: string): void => {
    warn(`statusline: ${why}`);
    if (!wrapping) print(`🤖 ${model}${limits} | 💰 cost not ready yet`);
    try {
      opened?.close();
    } finally {
      process.exit(0);
    }
  };
  const cap = setTimeout(() => stop(`no answer within ${CAP_MS} ms`), CAP_MS);
  cap.unref();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => stop(`stopped by ${signal}`));
  try {
    const raw = await readStdin(CAP_MS / 3);
    let input: StatusInput;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
      input = parsed as StatusInput;
    } catch (err) {
      if (args.wrap !== null) {
        clearTimeout(cap);
        wrapping = true;
        return await runWrapped(args.wrap, raw, (text) => writeOut(1, text), warn);
      }
      warn(`statusline: stdin is not Claude Code's status JSON (${(err as Error).message})`);
      print('💰 cost-dashboard: no status input');
      return 0;
    }
    model = modelName(input);
    const sessionId = str(input.session_id);
    const transcript = str(input.transcript_path);
    const file = args.config.indexPath;
    const now = Date.now();
    const readings = keepReadings(input, file, args.config.machine, now, warn);
    limits = limitsSegment(readings, now);
    if (args.wrap !== null) {
      // Their line, not ours: the cap no longer applies (the wrapped command has its own time limit).
      clearTimeout(cap);
      wrapping = true;
      return await runWrapped(args.wrap, raw, (text) => writeOut(1, text), warn);
    }
    if (!fs.existsSync(file)) {
      print(`🤖 ${model}${limits} | 💰 building the cost index (first run), back in a moment`);
      startBackgroundUpdate(args);
      return 0;
    }
    // A transcript outside the configured dirs is not indexed here (another config dir): nothing to read.
    const own = transcript && args.config.projectsDirs.some((d) => roleOf(d, transcript)) ? ownFiles(transcript) : [];
    try {
      // An older schema is not waited for: unless a writer is migrating it already, only the update started below will.
      opened = await retryWhileBusy(() => openStatusReader(file), Math.max(0, deadline - ANSWER_MS - Date.now()), (e) => !(e instanceof OlderSchemaError));
    } catch (err) {
      if (!(err instanceof IndexWriteError)) throw err;
      warn(`statusline: ${err.message}`);
      if (err instanceof OlderSchemaError) {
        // After an upgrade with no server running: the update (none if a writer holds the index) migrates it.
        print(`🤖 ${model}${limits} | 💰 updating the cost index to this version, back in a moment`);
        startBackgroundUpdate(args);
        return 0;
      }
      // Busy: its writer is still creating it (a first index being built).
      print(`🤖 ${model}${limits} | 💰 ${err.kind === 'busy' ? 'cost index not ready yet' : 'cost index unavailable'}`);
      return 0;
    }
    const reader = opened;
    if (args.timezone) process.env.TZ = args.timezone;
    print(statusLine(model, reader.status(sessionId, now), limits));
    // An update is wanted when this session has lines the index lacks, when the rest of the history went unchecked
    // for a while, or when the file is still marked open (a live writer, or one that died: the next writer runs
    // the integrity check). Only then is the writer lock probed (startBackgroundUpdate): with a live writer (a
    // server, or an update started before) nothing is started, since it keeps the index fresh itself.
    const behind = own.some((f) => {
      const st = fs.statSync(f, { throwIfNoEntry: false });
      return needsRead(st?.isFile() ? st : undefined, reader.fileState(f));
    });
    const wanted = behind || sinceUpdated(file) > UPDATE_EVERY_MS || reader.markedOpen();
    reader.close();
    opened = null;
    if (wanted) startBackgroundUpdate(args);
    return 0;
  } catch (err) {
    warn(`statusline: ${err instanceof Error ? err.message : String(err)}`);
    print(`🤖 ${model} | 💰 cost unavailable`);
    try {
      opened?.close();
    } catch {
      // already reported above
    }
    return 0;
  } finally {
    clearTimeout(cap);
  }
}
