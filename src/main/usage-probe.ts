// Plan usage probe (spec "Plan usage probe"): runs the agent CLI in print mode with stream-json
// in and out, sends one `get_usage` control request, reads the control_response for it, then ends
// the child. No model turn runs. One probe runs at a time (callers share it); a result is kept for
// 5 minutes; a probe is killed after 60 s. Every failure is an Error whose message says what happened.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import readline from 'node:readline';
import type { UsageLimits, UsageWindow } from '../http/api-types.ts';

export interface UsageProbe {
  /** Plan usage; `refresh` skips the cache (a probe already running is still shared). */
  get(refresh: boolean): Promise<UsageLimits>;
}

export interface UsageProbeOptions {
  bin: string;
  configDir: string;
  /** Default 60 s; env COST_PROBE_TIMEOUT_MS overrides it (for tests). */
  timeoutMs?: number;
  cacheMs?: number;
  now?: () => number;
}

const STDERR_TAIL = 500;
const KILL_GRACE_MS = 2000;

export function createUsageProbe(opts: UsageProbeOptions): UsageProbe {
  const envTimeout = Number(process.env.COST_PROBE_TIMEOUT_MS);
  const timeoutMs = envTimeout > 0 ? envTimeout : opts.timeoutMs ?? 60_000;
  const cacheMs = opts.cacheMs ?? 300_000;
  const now = opts.now ?? Date.now;
  let cached: { limits: UsageLimits; at: number } | null = null;
  let running: Promise<UsageLimits> | null = null;

  return {
    get(refresh) {
      if (!refresh && cached && now() - cached.at < cacheMs) return Promise.resolve({ ...cached.limits, cached: true });
      running ??= runProbe(opts.bin, opts.configDir, timeoutMs)
        .then((reply) => {
          const limits = normalizeUsage(reply, new Date(now()));
          cached = { limits, at: now() };
          return limits;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}

/** Spawns the CLI, asks for usage, resolves with the reply's `response` object. */
export function runProbe(bin: string, configDir: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const requestId = `usage-${randomUUID()}`;
    const child = spawn(bin, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
      env: { ...process.env, AGENT_CONFIG_DIR: configDir, CLAUDE_CONFIG_DIR: configDir },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const lines = readline.createInterface({ input: child.stdout });
    let settled = false;
    let stderr = '';

    const finish = (err: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      lines.close();
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), KILL_GRACE_MS).unref();
      }
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

    lines.on('line', (line) => {
      const reply = controlReplyOf(line, requestId);
      if (!reply) return;
      if (reply.subtype === 'success') finish(null, reply.response ?? {});
      else finish(new Error(`Usage request failed: ${reply.error ?? 'the CLI answered with an error'}`));
    });

    child.stdin.write(`${JSON.stringify({ type: 'control_request', request_id: requestId, request: { subtype: 'get_usage' } })}\n`);
  });
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

// ---- normalisation --------------------------------------------------------------------------
//
// Accepted reply shapes (liberal, since the CLI's reply is not documented):
// - windows as keys, snake or camel case: five_hour, seven_day, seven_day_opus, seven_day_sonnet,
//   seven_day_oauth_apps (and any other key whose value is an object with a percentage), each
//   `{utilization | percent | used_percent | usedPercent, resets_at | resetsAt | reset_at}`;
//   a null window is skipped; the same keys inside `usage`, `rate_limits` or `limits` objects;
// - or an array under `windows` / `limits` of `{label | name | type, <percentage>, <reset>}`;
// - percentages are 0..100, unless every one in the reply is <= 1 and some is a fraction: then 0..1;
// - resets: ISO strings or epoch numbers (seconds below 1e12, else milliseconds);
// - plan: `subscription`, `subscription_type`, `plan`, `plan_type` (string, or object with name/type);
// - spend: `extra_usage {is_enabled, used_credits, monthly_limit}` (amounts in cents) or
//   `spend {used, limit, currency}` (amounts in currency units).

const KNOWN_LABELS: Record<string, string> = {
  five_hour: 'Session (5h)',
  seven_day: 'Week (all models)',
  seven_day_opus: 'Week (Opus)',
  seven_day_sonnet: 'Week (Sonnet)',
  seven_day_oauth_apps: 'Week (OAuth apps)',
};
const PERCENT_KEYS = ['utilization', 'percent', 'used_percent', 'usedPercent', 'percentage', 'usage_percent'];
const RESET_KEYS = ['resets_at', 'resetsAt', 'reset_at', 'resetAt', 'resets'];
const NOT_WINDOWS = new Set(['extra_usage', 'extraUsage', 'spend', 'subscription', 'plan']);

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function labelOf(key: string): string {
  const k = snake(key);
  return KNOWN_LABELS[k] ?? k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

function percentOf(o: Record<string, unknown>): number | null {
  for (const k of PERCENT_KEYS) {
    const v = o[k];
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  }
  return null;
}

function resetOf(o: Record<string, unknown>): string | null {
  for (const k of RESET_KEYS) {
    const v = o[k];
    if (typeof v === 'number' && Number.isFinite(v)) return new Date(v < 1e12 ? v * 1000 : v).toISOString();
    if (typeof v === 'string' && v !== '') {
      const t = Date.parse(v);
      if (!Number.isNaN(t)) return new Date(t).toISOString();
    }
  }
  return null;
}

function collectWindows(root: Record<string, unknown>): { label: string; raw: number; resetsAt: string | null }[] {
  const out: { label: string; raw: number; resetsAt: string | null }[] = [];
  const fromEntries = (o: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(o)) {
      if (NOT_WINDOWS.has(k) || !isObject(v)) continue;
      const p = percentOf(v);
      if (p !== null) out.push({ label: labelOf(k), raw: p, resetsAt: resetOf(v) });
    }
  };
  fromEntries(root);
  for (const nest of ['usage', 'rate_limits', 'rateLimits', 'limits']) {
    const v = root[nest];
    if (isObject(v)) fromEntries(v);
  }
  for (const list of ['windows', 'limits']) {
    const arr = root[list];
    if (!Array.isArray(arr)) continue;
    for (const w of arr) {
      if (!isObject(w)) continue;
      const p = percentOf(w);
      const name = w.label ?? w.name ?? w.type;
      if (p !== null) out.push({ label: typeof name === 'string' ? labelOf(name) : 'Limit', raw: p, resetsAt: resetOf(w) });
    }
  }
  return out;
}

function subscriptionOf(root: Record<string, unknown>): string | null {
  for (const k of ['subscription', 'subscription_type', 'subscriptionType', 'plan', 'plan_type', 'planType']) {
    const v = root[k];
    if (typeof v === 'string' && v !== '') return v;
    if (isObject(v)) {
      const name = v.name ?? v.type ?? v.display_name;
      if (typeof name === 'string' && name !== '') return name;
    }
  }
  return null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function spendOf(root: Record<string, unknown>): UsageLimits['spend'] {
  const extra = root.extra_usage ?? root.extraUsage;
  if (isObject(extra) && extra.is_enabled !== false && extra.isEnabled !== false) {
    const used = num(extra.used_credits ?? extra.usedCredits);
    if (used !== null) {
      const limit = num(extra.monthly_limit ?? extra.monthlyLimit);
      const currency = typeof extra.currency === 'string' ? extra.currency : 'USD';
      return { used: used / 100, limit: limit === null ? null : limit / 100, currency };
    }
  }
  const spend = root.spend;
  if (isObject(spend)) {
    const used = num(spend.used);
    if (used !== null) {
      return { used, limit: num(spend.limit), currency: typeof spend.currency === 'string' ? spend.currency : 'USD' };
    }
  }
  return null;
}

export function severityOf(percent: number): UsageWindow['severity'] {
  return percent >= 90 ? 'critical' : percent >= 70 ? 'warn' : 'ok';
}

/** The CLI's get_usage reply -> UsageLimits (`cached: false`). */
export function normalizeUsage(reply: unknown, fetchedAt: Date): UsageLimits {
  const root = isObject(reply) ? reply : {};
  const found = collectWindows(root);
  const fractions = found.length > 0 && found.every((w) => w.raw <= 1) && found.some((w) => w.raw > 0 && w.raw < 1);
  const windows: UsageWindow[] = found.map((w) => {
    const percent = Math.min(100, Math.max(0, fractions ? w.raw * 100 : w.raw));
    return { label: w.label, percent, resetsAt: w.resetsAt, severity: severityOf(percent), binding: false };
  });
  let top: UsageWindow | undefined;
  for (const w of windows) if (!top || w.percent > top.percent) top = w;
  if (top) top.binding = true;
  return { windows, subscription: subscriptionOf(root), spend: spendOf(root), fetchedAt: fetchedAt.toISOString(), cached: false };
}
