// Pure formatters shared by the shell and the views. No DOM, no state: tested in Node (test/ui/format.test.ts).
// Dates are shown in the browser's local time zone, which matches the server's buckets on a local machine.

const LOCALE = 'en-US';

const usd2 = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const usd4 = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });
const usd0 = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const int = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

/** "$1,234.56". Sub-cent amounts keep up to 4 decimals ("$0.0042") so small sessions do not read as free. */
export function formatUsd(n: number): string {
  const v = finite(n);
  if (v === 0) return '$0.00';
  if (Math.abs(v) < 0.01) return v > 0 && v < 0.0001 ? '<$0.0001' : usd4.format(v);
  return usd2.format(v);
}

/** An amount in an ISO 4217 currency ("€12.34", "£5.00"); an unknown code shows after the number ("12.34 XYZ"). */
export function formatMoney(n: number, currency: string): string {
  if (currency === 'USD') return usd2.format(finite(n));
  try {
    return new Intl.NumberFormat(LOCALE, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(finite(n));
  } catch {
    return `${finite(n).toFixed(2)} ${currency}`;
  }
}

/** Short money for axes and tight cells: "$12", "$1.2K", "$3.4M"; below $10 keeps cents. */
export function formatUsdCompact(n: number): string {
  const v = finite(n);
  const a = Math.abs(v);
  if (a >= 1e6) return `${v < 0 ? '-' : ''}$${trim(a / 1e6)}M`;
  if (a >= 1e4) return `${v < 0 ? '-' : ''}$${trim(a / 1e3)}K`;
  if (a >= 10) return usd0.format(v);
  return usd2.format(v);
}

/**
 * Labels of money axis ticks, all in one form: whole dollars when every tick is one ("$0, $50, $100"), K or M from
 * $10K, else as many decimals as the smallest step needs (at least cents: "$0.00, $0.50, $1.00"; "$0.000, $0.005").
 */
export function formatUsdAxis(ticks: readonly number[]): string[] {
  const top = Math.max(0, ...ticks.map((t) => Math.abs(finite(t))));
  const distinct = (labels: string[]) => new Set(labels).size === labels.length;
  if (top >= 1e4) {
    const [unit, suffix] = top >= 1e6 ? [1e6, 'M'] : [1e3, 'K'];
    const labels = ticks.map((t) => (t === 0 ? '$0' : `${t < 0 ? '-' : ''}$${trim(Math.abs(t) / unit)}${suffix}`));
    if (distinct(labels)) return labels;
  }
  const whole = ticks.every((t) => Number.isInteger(finite(t)));
  for (let digits = whole ? 0 : 2; digits <= 8; digits++) {
    const f = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
    const labels = ticks.map((t) => f.format(finite(t)));
    const exact = ticks.every((t) => Math.abs(Math.round(finite(t) * 10 ** digits) - finite(t) * 10 ** digits) < 1e-6);
    if (distinct(labels) && exact) return labels;
  }
  return ticks.map(formatUsdCompact);
}

/** One decimal without a trailing ".0": 1.25 -> "1.3", 2 -> "2". */
function trim(n: number): string {
  const s = n.toFixed(n >= 100 ? 0 : 1);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** Token counts: "950", "12.3K", "4.5M", "1.2B". */
export function formatTokens(n: number): string {
  const v = finite(n);
  const a = Math.abs(v);
  const sign = v < 0 ? '-' : '';
  if (a >= 1e9) return `${sign}${trim(a / 1e9)}B`;
  if (a >= 1e6) return `${sign}${trim(a / 1e6)}M`;
  if (a >= 1e3) return `${sign}${trim(a / 1e3)}K`;
  return int.format(v);
}

/** Whole numbers with separators: "12,345". */
export function formatInt(n: number): string {
  return int.format(finite(n));
}

/** "1 project", "2 projects", "1,204 messages": a count with its noun (regular plurals only). */
export function formatCount(n: number, noun: string): string {
  return `${formatInt(n)} ${finite(n) === 1 ? noun : `${noun}s`}`;
}

/** A ratio 0..1 as a percent: 0.4567 -> "45.7%"; `digits` decimals (default 1). A share that is not zero never reads
 * as zero: 0.004 with 0 digits -> "<1%". */
export function formatPercent(ratio: number, digits = 1): string {
  const v = finite(ratio);
  const least = 10 ** -digits;
  if (v > 0 && v * 100 < least / 2) return `<${least.toFixed(digits)}%`;
  return `${(v * 100).toFixed(digits)}%`;
}

type DateLike = string | number | Date;

function toDate(d: DateLike): Date | null {
  if (d instanceof Date) return Number.isNaN(d.getTime()) ? null : d;
  // A bare 'YYYY-MM-DD' is a local calendar day, not UTC midnight.
  if (typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d)) {
    const [y, m, day] = d.split('-').map(Number) as [number, number, number];
    return new Date(y, m - 1, day);
  }
  const t = new Date(d);
  return Number.isNaN(t.getTime()) ? null : t;
}

const dayFmt = new Intl.DateTimeFormat(LOCALE, { month: 'short', day: 'numeric' });
const dayYearFmt = new Intl.DateTimeFormat(LOCALE, { month: 'short', day: 'numeric', year: 'numeric' });
const timeFmt = new Intl.DateTimeFormat(LOCALE, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const weekdayFmt = new Intl.DateTimeFormat(LOCALE, { weekday: 'short' });

/** "Mar 5" (the year is added when it is not the current year). "—" for a missing or bad date. */
export function formatDate(d: DateLike | null | undefined, now: Date = new Date()): string {
  const t = d == null ? null : toDate(d);
  if (!t) return '—';
  return t.getFullYear() === now.getFullYear() ? dayFmt.format(t) : dayYearFmt.format(t);
}

/** "Mar 5, 2026" whatever the year: the ticks of an axis across a year end all say theirs. */
export function formatDateWithYear(d: DateLike | null | undefined): string {
  const t = d == null ? null : toDate(d);
  return t ? dayYearFmt.format(t) : '—';
}

/** "Mar 5, 14:07" in local time. */
export function formatDateTime(d: DateLike | null | undefined, now: Date = new Date()): string {
  const t = d == null ? null : toDate(d);
  if (!t) return '—';
  return `${formatDate(t, now)}, ${timeFmt.format(t)}`;
}

/** "14:07" local. */
export function formatTime(d: DateLike | null | undefined): string {
  const t = d == null ? null : toDate(d);
  return t ? timeFmt.format(t) : '—';
}

/** "Mon".."Sun". */
export function formatWeekday(d: DateLike): string {
  const t = toDate(d);
  return t ? weekdayFmt.format(t) : '—';
}

/** A series bucket key: 'YYYY-MM-DD' -> "Mar 5"; 'YYYY-MM-DDTHH' -> "14:00" (or "Mar 5 14:00" with `withDay`). */
export function formatBucket(key: string, withDay = false): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}))?$/.exec(key);
  if (!m) return key;
  const day = m[1] as string;
  if (m[2] === undefined) return formatDate(day);
  const hour = `${m[2]}:00`;
  return withDay ? `${formatDate(day)} ${hour}` : hour;
}

const monthFmt = new Intl.DateTimeFormat(LOCALE, { month: 'short', year: 'numeric' });

/** A week or month bucket of a long range: 'YYYY-MM-DD' (its Monday) -> "Mar 3" or "Week of Mar 3"; 'YYYY-MM' -> "Mar 2026". */
export function formatLongBucket(key: string, unit: 'week' | 'month', withWeek = false): string {
  if (unit === 'month') {
    const m = /^(\d{4})-(\d{2})$/.exec(key);
    return m ? monthFmt.format(new Date(Number(m[1]), Number(m[2]) - 1, 1)) : key;
  }
  return withWeek ? `Week of ${formatDate(key)}` : formatDate(key);
}

/** Milliseconds as "45s", "12m", "2h 05m", "3d 4h". Negative or bad values read "0s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(finite(ms) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  const d = Math.floor(h / 24);
  return `${d}d ${h % 24}h`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago"; falls back to the date past 30 days. Future times read "in 5 min". */
export function formatRelative(d: DateLike | null | undefined, now: Date = new Date()): string {
  const t = d == null ? null : toDate(d);
  if (!t) return '—';
  const diff = now.getTime() - t.getTime();
  const a = Math.abs(diff);
  const wrap = (s: string) => (diff < 0 ? `in ${s}` : `${s} ago`);
  if (a < 45_000) return 'just now';
  if (a < 3_600_000) return wrap(`${Math.round(a / 60_000)} min`);
  if (a < 86_400_000) return wrap(`${Math.round(a / 3_600_000)} h`);
  const days = Math.round(a / 86_400_000);
  if (days <= 30) return wrap(days === 1 ? '1 day' : `${days} days`);
  return formatDate(t, now);
}

/**
 * "Apr 18, 13:50 (3 days ago)": a moment with how long ago it was; past 30 days the relative part would only repeat
 * the date ("Apr 18, 13:50 (Apr 18)"), so it is left out.
 */
export function formatMoment(d: DateLike, now: Date = new Date()): string {
  const t = toDate(d);
  const rel = formatRelative(d, now);
  const near = t !== null && Math.abs(now.getTime() - t.getTime()) < 31 * 86_400_000 && rel !== formatDate(t, now);
  return near ? `${formatDateTime(d)} (${rel})` : formatDateTime(d);
}

/**
 * Inclusive day span "Mar 1 – Mar 5" (one day: "Mar 5"). Takes 'YYYY-MM-DD' strings. A span not inside the current
 * year carries the year on both ends ("Dec 20, 2025 – Jan 5, 2026"), so neither end reads as this year's.
 */
export function formatDayRange(from: string, to: string, now: Date = new Date()): string {
  if (from === to) return formatDate(from, now);
  const year = String(now.getFullYear());
  if (from.startsWith(year) && to.startsWith(year)) return `${formatDate(from, now)} – ${formatDate(to, now)}`;
  const withYear = (d: string) => {
    const t = toDate(d);
    return t ? dayYearFmt.format(t) : '—';
  };
  return `${withYear(from)} – ${withYear(to)}`;
}

/** Bytes as "512 B", "1.5 KB", "3.2 MB", "1.1 GB" (1024 steps). */
export function formatBytes(n: number): string {
  const v = Math.max(0, finite(n));
  if (v < 1024) return `${Math.round(v)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let x = v / 1024;
  let i = 0;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${x.toFixed(1)} ${units[i]}`;
}

/** Model ids shortened for legends: "claude-sonnet-4-5-20250929" -> "sonnet-4-5"; "anthropic/claude-opus-4-1" -> "opus-4-1". */
export function shortModel(model: string): string {
  return model
    .replace(/^[a-z]+\//, '')
    .replace(/^claude-/, '')
    .replace(/-\d{8}$/, '')
    .replace(/@\d{8}$/, '');
}
