// Plan limits as text: the `cost-dashboard limits` table, its JSON, and the statusline's segment. Times are local
// (the process's TZ, which --timezone sets).
import type { LimitsData, LimitWindow } from '../shared/api-types.ts';
import { renderTable, usd, type Column } from './table.ts';

/** The short name of a window: 5h, 7d, 7d opus, credits. */
export function windowLabel(window: string): string {
  if (window === 'five_hour') return '5h';
  if (window === 'seven_day') return '7d';
  if (window === 'extra_usage') return 'credits';
  const model = /^seven_day_(.+)$/.exec(window)?.[1];
  return model ? `7d ${model.replace(/_/g, ' ')}` : window.replace(/_/g, ' ');
}

const pct = (n: number | null): string => (n === null ? '-' : `${Math.round(n)}%`);
const two = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 15:00 when within a day of `now`, else 'Oct 9 15:00'. */
export function clockOf(iso: string | null, now: number): string {
  if (iso === null) return '-';
  const d = new Date(iso);
  const hm = `${two(d.getHours())}:${two(d.getMinutes())}`;
  return Math.abs(d.getTime() - now) < 20 * 3_600_000 ? hm : `${MONTHS[d.getMonth()]} ${d.getDate()} ${hm}`;
}

/** `5h 42% → 71% @15:00`: used, the projection at the reset when it is higher, the reset. */
export function windowSegment(w: LimitWindow, now: number): string {
  const proj = w.projectedPercent !== null && Math.round(w.projectedPercent) > Math.round(w.usedPercent) ? ` → ${pct(w.projectedPercent)}` : '';
  const at = w.resetsAt !== null && w.window === 'five_hour' ? ` @${clockOf(w.resetsAt, now)}` : '';
  return `${windowLabel(w.window)} ${pct(w.usedPercent)}${proj}${at}`;
}

export function limitsJson(data: LimitsData): unknown {
  return { windows: data.windows, hits: data.hits, hitCounts: data.hitCounts, readings: data.readings, skipped: data.skipped };
}

export function limitsTable(data: LimitsData, width: number, now: number): string {
  if (!data.windows.length && !data.hits.length) {
    return 'No plan limit readings or hits yet. Readings come from the statusline (cost-dashboard statusline, Claude Code 2.1.80+\n'
      + 'with a subscription) or the server\'s --poll-limits; hits from the transcripts. See docs/limits.md.\n';
  }
  const cols: Column<LimitWindow>[] = [
    { header: 'Window', cell: (w) => windowLabel(w.window), keep: Infinity },
    { header: 'Used', cell: (w) => pct(w.usedPercent), right: true, keep: Infinity },
    { header: 'Resets', cell: (w) => (w.ended ? `ended ${clockOf(w.resetsAt, now)}` : clockOf(w.resetsAt, now)), keep: 9 },
    { header: 'Pace', cell: (w) => (w.pace === null ? '-' : `${w.pace.toFixed(2)}x`), right: true, keep: 5 },
    { header: 'At reset', cell: (w) => pct(w.projectedPercent), right: true, keep: 8 },
    { header: 'Full at', cell: (w) => (w.fullAt === null ? '-' : clockOf(w.fullAt, now)), keep: 7 },
    { header: 'Peak', cell: (w) => pct(w.peakPercent), right: true, keep: 3 },
    { header: '~$ per 1%', cell: (w) => (w.costPerPercent === null ? '-' : usd(w.costPerPercent)), right: true, keep: 2 },
    { header: 'Read', cell: (w) => `${clockOf(w.observedAt, now)} ${w.source}`, keep: 1 },
  ];
  let out = data.windows.length ? renderTable(cols, data.windows, null, width) : 'No plan limit readings yet.\n';
  const counts = Object.entries(data.hitCounts).map(([w, n]) => `${w === 'unknown' ? 'unnamed' : windowLabel(w)} ${n}`).join(', ');
  out += `\nLimit hits: ${data.hits.length ? counts : 'none'}\n`;
  for (const h of data.hits.slice(0, 10)) {
    out += `  ${clockOf(h.at, Number.NaN)}  ${h.window === null ? '?' : windowLabel(h.window)}${h.resetsAt ? `, reset ${clockOf(h.resetsAt, Number.NaN)}` : ''}\n`;
  }
  if (data.windows.some((w) => w.costPerPercent !== null)) out += '\n~$ per 1%: an estimate, the API-equivalent cost indexed between readings over the % they moved.\n';
  return out;
}
