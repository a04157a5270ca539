// The CLI's `get_usage` reply -> the API's plan usage and usage drivers. The shape is the schema bundled in Claude
// Code (read in 2.1.330, where the CLI calls it experimental): {session, subscription_type, rate_limits_available,
// rate_limits: {five_hour, seven_day, seven_day_oauth_apps, seven_day_opus, seven_day_sonnet (each {utilization 0-100
// | null, resets_at ISO | null}), model_scoped: [{display_name, utilization, resets_at}], extra_usage: {is_enabled,
// monthly_limit, used_credits (both in cents), utilization, currency}} | null, behaviors: {day, week} | null}.
// Other window-shaped keys in rate_limits (the CLI passes the usage endpoint's object through) are shown too.
import type { UsageBehavior, UsageDrivers, UsageDriversWindow, UsageLimits, UsageShare, UsageWindow } from '../shared/api-types.ts';

export const NOT_APPLICABLE_NOTE =
  'Plan limits do not apply to this login: Claude Code is using an API key or a cloud provider (Bedrock, Vertex), ' +
  'billed per token. A claude.ai login without the profile scope reads the same; signing in again with /login fixes that.';
export const UNREADABLE_LIMITS =
  'Claude Code could not read the plan usage from claude.ai just now (the usage endpoint did not answer); try again in a minute';
const NO_DRIVERS_API_KEY =
  'Claude Code analyses what drives usage only for claude.ai subscriptions; this login uses an API key or a cloud provider.';
const NO_DRIVERS = 'Claude Code made no analysis this time (its scan of local transcripts failed or found nothing to weigh).';

const FIXED_WINDOWS: [string, string][] = [
  ['five_hour', 'Session (5h)'],
  ['seven_day', 'Week (all models)'],
  ['seven_day_opus', 'Week (Opus)'],
  ['seven_day_sonnet', 'Week (Sonnet)'],
  ['seven_day_oauth_apps', 'Week (OAuth apps)'],
];
const NOT_WINDOWS = new Set(['model_scoped', 'extra_usage', 'limits']);

const BEHAVIOR_LABELS: Record<string, string> = {
  cache_miss: 'Cache misses',
  long_context: 'Long context',
  subagent_heavy: 'Subagent-heavy sessions',
  high_parallel: 'Many sessions at once',
  cron: 'Sessions active for many hours',
  max_effort: 'Max effort',
  workflow: 'Workflows',
  always_on_context: 'Always-loaded context',
  large_tool_results: 'Large tool results',
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const clamp = (n: number): number => Math.min(100, Math.max(0, n));
const humanize = (key: string): string => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The reply object, or an Error that shows what came instead (a CLI too old or too new for this reader). */
function replyOf(reply: unknown): Record<string, unknown> {
  if (isObject(reply) && typeof reply.rate_limits_available === 'boolean') return reply;
  const seen = JSON.stringify(reply) ?? String(reply);
  throw new Error(`The CLI's get_usage reply has an unknown shape (no rate_limits_available): ${seen.slice(0, 200)}`);
}

function severityOf(percent: number): UsageWindow['severity'] {
  return percent >= 90 ? 'critical' : percent >= 70 ? 'warn' : 'ok';
}

function windowOf(id: string, label: string, v: unknown): UsageWindow | null {
  if (!isObject(v)) return null;
  const utilization = num(v.utilization);
  if (utilization === null) return null; // the CLI's own dialog skips a window with no utilization too
  const reset = str(v.resets_at);
  const resetMs = reset === null ? NaN : Date.parse(reset);
  const percent = clamp(utilization);
  return { id, label, percent, resetsAt: Number.isNaN(resetMs) ? null : new Date(resetMs).toISOString(), severity: severityOf(percent), binding: false };
}

function windowsOf(limits: Record<string, unknown>): UsageWindow[] {
  const fixed = new Set(FIXED_WINDOWS.map(([k]) => k));
  const found: (UsageWindow | null)[] = FIXED_WINDOWS.map(([k, label]) => windowOf(k, label, limits[k]));
  for (const [k, v] of Object.entries(limits)) if (!fixed.has(k) && !NOT_WINDOWS.has(k)) found.push(windowOf(k, humanize(k), v));
  if (Array.isArray(limits.model_scoped)) {
    for (const m of limits.model_scoped) {
      const name = isObject(m) ? str(m.display_name) : null;
      if (name !== null) found.push(windowOf(`model:${name}`, `Week (${name})`, m));
    }
  }
  const labels = new Set<string>();
  const windows = found.filter((w): w is UsageWindow => w !== null && !labels.has(w.label) && !!labels.add(w.label));
  let top: UsageWindow | undefined;
  for (const w of windows) if (!top || w.percent > top.percent) top = w;
  if (top) top.binding = true;
  return windows;
}

function spendOf(extra: unknown): UsageLimits['spend'] {
  if (!isObject(extra) || extra.is_enabled !== true) return null;
  const cents = num(extra.used_credits);
  if (cents === null) return null;
  const limitCents = num(extra.monthly_limit);
  const utilization = num(extra.utilization);
  const currency = typeof extra.currency === 'string' && /^[A-Za-z]{3}$/.test(extra.currency) ? extra.currency.toUpperCase() : 'USD';
  const percent = utilization !== null ? clamp(utilization) : limitCents ? clamp((cents / limitCents) * 100) : null;
  return { used: cents / 100, limit: limitCents === null ? null : limitCents / 100, percent, currency };
}

/** Plan usage from a get_usage reply; throws when the CLI could not read the limits that apply to this login. */
export function limitsOf(reply: unknown, fetchedAt: Date): UsageLimits {
  const r = replyOf(reply);
  const subscription = str(r.subscription_type);
  const base = { subscription, fetchedAt: fetchedAt.toISOString(), cached: false };
  if (r.rate_limits_available === false) return { limitsApply: false, note: NOT_APPLICABLE_NOTE, windows: [], spend: null, ...base };
  if (!isObject(r.rate_limits)) throw new Error(UNREADABLE_LIMITS);
  const windows = windowsOf(r.rate_limits);
  const note = windows.length ? null : 'Claude Code reported no usage in any plan window.';
  return { limitsApply: true, note, windows, spend: spendOf(r.rate_limits.extra_usage), ...base };
}

function sharesOf(v: unknown): UsageShare[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((s) => {
    const name = isObject(s) ? str(s.name) : null;
    const pct = isObject(s) ? num(s.pct) : null;
    return name !== null && pct !== null ? [{ name, percent: clamp(pct) }] : [];
  });
}

function driversWindowOf(v: unknown): UsageDriversWindow | null {
  if (!isObject(v)) return null;
  const behaviors: UsageBehavior[] = (Array.isArray(v.behaviors) ? v.behaviors : []).flatMap((b: unknown) => {
    const key = isObject(b) ? str(b.key) : null;
    const pct = isObject(b) ? num(b.pct) : null;
    if (key === null || pct === null) return [];
    return [{ key, label: BEHAVIOR_LABELS[key] ?? humanize(key), percent: clamp(pct), count: num((b as Record<string, unknown>).count) ?? 0 }];
  });
  const recommendations = (Array.isArray(v.recommendations) ? v.recommendations : []).flatMap((x: unknown) => {
    const title = isObject(x) ? str(x.title) : null;
    if (title === null) return [];
    const o = x as Record<string, unknown>;
    return [{ key: str(o.key) ?? '', percent: clamp(num(o.pct) ?? 0), title, detail: str(o.detail) }];
  });
  return {
    requests: num(v.request_count) ?? 0,
    sessions: num(v.session_count) ?? 0,
    behaviors: behaviors.sort((a, b) => b.percent - a.percent),
    recommendations,
    agents: sharesOf(v.agents),
    skills: sharesOf(v.skills),
    plugins: sharesOf(v.plugins),
    mcpServers: sharesOf(v.mcp_servers),
  };
}

/** What drives usage (the reply's `behaviors`), or why the CLI made no analysis. */
export function driversOf(reply: unknown, fetchedAt: Date): UsageDrivers {
  const r = replyOf(reply);
  const base = { fetchedAt: fetchedAt.toISOString(), cached: false };
  const b = r.behaviors;
  const day = isObject(b) ? driversWindowOf(b.day) : null;
  const week = isObject(b) ? driversWindowOf(b.week) : null;
  if (!day && !week) return { available: false, note: r.rate_limits_available ? NO_DRIVERS : NO_DRIVERS_API_KEY, day: null, week: null, ...base };
  return { available: true, note: null, day, week, ...base };
}
