// Plan usage probe (spec "Plan usage probe"): runs the agent CLI in print mode with stream-json
// in and out, sends one `get_usage` control request, reads the control_response for it, then ends
// the child. No model turn runs. The plan meters ask with `skip_behaviors: true`, so the CLI skips its
// scan of a week of transcripts; the usage drivers (Insights) ask without it, on demand, with their own
// cache and a longer time-out. Each kind runs one probe at a time (callers share it); a probe is killed
// after its time-out. Every failure is an Error whose message says what happened.
// The child leads a process group of its own, and ending the probe signals that group: a CLI's own children (hooks,
// MCP servers) would otherwise outlive its kill. Its stdout is read as bytes with a limit per line.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { UsageDrivers, UsageLimits } from '../shared/api-types.ts';
import { lineReader } from './lines.ts';
import { driversOf, limitsOf } from './reply.ts';

export interface UsageProbe {
  /** Plan usage; `refresh` skips the cache (a probe already running is still shared). */
  get(refresh: boolean): Promise<UsageLimits>;
  /** What drives usage (the CLI scans the last 7 days of transcripts); `refresh` as in `get`. */
  drivers(refresh: boolean): Promise<UsageDrivers>;
  /** The plan usage the probe answered within its cache time (5 minutes), else null; never starts the CLI. */
  recent(): UsageLimits | null;
}

export interface UsageProbeOptions {
  bin: string;
  configDir: string;
  /** Default 60 s (spec); env COST_PROBE_TIMEOUT_MS overrides it and `driversTimeoutMs` (for tests). */
  timeoutMs?: number;
  /** Default 5 minutes (spec). */
  cacheMs?: number;
  /** The transcript scan reads a week of history: default 3 minutes. */
  driversTimeoutMs?: number;
  /** Default 15 minutes: the analysis covers a day and a week, and each run rescans. */
  driversCacheMs?: number;
  now?: () => number;
}

const STDERR_TAIL = 500;
const KILL_GRACE_MS = 2000;
/** A get_usage reply is a few KiB; a line this long is not one, and reading on would only grow memory. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Windows has no process groups to signal (and `detached` there opens a console). */
const GROUPS = process.platform !== 'win32';

/** One probe in flight at a time, its result kept `cacheMs` (failures are not kept); `peek` reads that result alone. */
function cachedRun<T extends { cached: boolean }>(run: () => Promise<T>, cacheMs: number, now: () => number) {
  let cached: { value: T; at: number } | null = null;
  let running: Promise<T> | null = null;
  const fresh = () => (cached && now() - cached.at < cacheMs ? { ...cached.value, cached: true } : null);
  const get = (refresh: boolean): Promise<T> => {
    const hit = refresh ? null : fresh();
    if (hit) return Promise.resolve(hit);
    running ??= run()
      .then((value) => {
        cached = { value, at: now() };
        return value;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return { get, peek: fresh };
}

export function createUsageProbe(opts: UsageProbeOptions): UsageProbe {
  const envTimeout = Number(process.env.COST_PROBE_TIMEOUT_MS);
  const timeoutMs = envTimeout > 0 ? envTimeout : opts.timeoutMs ?? 60_000;
  const driversTimeoutMs = envTimeout > 0 ? envTimeout : opts.driversTimeoutMs ?? 180_000;
  const now = opts.now ?? Date.now;
  const probe = (skipBehaviors: boolean, ms: number) => runProbe(opts.bin, opts.configDir, ms, skipBehaviors);
  const limits = cachedRun(async () => limitsOf(await probe(true, timeoutMs), new Date(now())), opts.cacheMs ?? 300_000, now);
  const drivers = cachedRun(async () => driversOf(await probe(false, driversTimeoutMs), new Date(now())), opts.driversCacheMs ?? 900_000, now);
  return { get: limits.get, drivers: drivers.get, recent: limits.peek };
}

/** Spawns the CLI, asks for usage, resolves with the reply's `response` object. */
export function runProbe(bin: string, configDir: string, timeoutMs: number, skipBehaviors: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const requestId = `usage-${randomUUID()}`;
    const child = spawn(bin, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      env: { ...process.env, AGENT_CONFIG_DIR: configDir, CLAUDE_CONFIG_DIR: configDir },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      detached: GROUPS,
    });
    let settled = false;
    let stderr = '';

    const finish = (err: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.destroy();
      child.stdin.end();
      endChild(child);
      if (err) reject(err);
      else resolve(value);
    };

    const timer = setTimeout(
      () => finish(new Error(`Usage probe timed out after ${Math.round(timeoutMs / 100) / 10} s (${bin} gave no answer)`)),
      timeoutMs,
    );

    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') finish(new Error(`Claude Code CLI not found: "${bin}" is not installed or not on PATH (set AGENT_BIN)`));
      else finish(new Error(`Could not start ${bin}: ${err.message}`));
    });
    child.stdin.on('error', () => {}); // EPIPE when the child exits early: its exit is reported instead
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL * 2);
    });
    child.on('close', (code, signal) => {
      const tail = stderr.trim().slice(-STDERR_TAIL);
      const how = code !== null ? `with code ${code}` : `by signal ${signal}`;
      finish(new Error(`${bin} exited ${how} before answering the usage request${tail ? `: ${tail}` : ''}`));
    });

    const lines = lineReader(
      MAX_LINE_BYTES,
      (line) => {
        const reply = controlReplyOf(line, requestId);
        if (!reply) return;
        if (reply.subtype === 'success') finish(null, reply.response ?? {});
        else finish(new Error(`Usage request failed: ${reply.error ?? 'the CLI answered with an error'}`));
      },
      () => finish(new Error(`${bin} printed a line over ${MAX_LINE_BYTES / 1024 / 1024} MiB without answering the usage request`)),
    );
    child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));

    child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: requestId, request: { subtype: 'get_usage', skip_behaviors: skipBehaviors } })}\n`);
  });
}

/** SIGTERM to the child's group now, SIGKILL to what is left of it after a grace period. */
function endChild(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return; // never started
  if (!GROUPS) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    }
    return;
  }
  // The group outlives its leader when a grandchild hangs on, so it is signalled even after the child exited.
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: nothing left in the group
    }
  };
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
}

interface ControlReply {
  subtype: string;
  response?: unknown;
  error?: string;
}

/** The control_response for `requestId` on this stdout line, or null (other messages, noise, bad JSON). */
function controlReplyOf(line: string, requestId: string): ControlReply | null {
  if (!line.includes(requestId)) return null;
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(msg) || msg.type !== 'control_response' || !isObject(msg.response)) return null;
  const r = msg.response;
  if (r.request_id !== requestId) return null;
  const error = typeof r.error === 'string' ? r.error : r.error !== undefined ? JSON.stringify(r.error) : undefined;
  return { subtype: String(r.subtype), response: r.response, error };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
