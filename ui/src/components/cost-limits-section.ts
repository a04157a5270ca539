import { LitElement, css, html, nothing, svg } from 'lit';
import type { LimitHitData, LimitReadingData, LimitsData, LimitWindow } from '../../../src/shared/api-types.ts';
import { api } from '../api.ts';
import { formatDate, formatDateTime, formatTime, formatUsd } from '../format.ts';
import { pct, toneOf, windowName } from '../limits.ts';
import { ViewData } from './view-kit.ts';

const W = 640;
const HT = 170;
const PAD = { l: 34, r: 10, t: 12, b: 22 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How far back a window's chart reaches: two days of 5-hour windows, four weeks of weekly ones. */
const spanOf = (w: LimitWindow): number => (w.window === 'five_hour' ? 2 * DAY : 28 * DAY);

/** A window's readings split where its reset changes (one line per window period). */
function periods(readings: readonly LimitReadingData[]): LimitReadingData[][] {
  const out: LimitReadingData[][] = [];
  for (const r of readings) {
    const cur = out[out.length - 1];
    const last = cur?.[cur.length - 1];
    if (cur && last && last.resetsAt === r.resetsAt) cur.push(r);
    else out.push([r]);
  }
  return out;
}

/**
 * The plan limits section (Insights): per window, its readings as a line over the last days or weeks, its resets as
 * dashed verticals, the transcripts' limit hits as marks, and the forecast drawn from the last reading to the reset;
 * then the figures (pace, projection, the estimated cost of 1 %) and the hits.
 */
export class CostLimitsSection extends LitElement {
  static override properties = { refreshKey: { type: Number, attribute: 'refresh-key' } };
  declare refreshKey: number;

  constructor() {
    super();
    this.refreshKey = 0;
  }

  private _data = new ViewData(this, {
    args: () => [] as const,
    refreshKey: () => this.refreshKey,
    load: (_args, signal) => api.get<LimitsData>('/api/limits', {}, signal),
  });

  private _chart(w: LimitWindow, readings: LimitReadingData[], hits: LimitHitData[], now: number) {
    const to = Math.max(now, w.resetsAt && !w.ended ? Date.parse(w.resetsAt) : now);
    const from = now - spanOf(w);
    const top = Math.max(100, ...readings.map((r) => r.usedPercent), w.projectedPercent ?? 0);
    const x = (t: number): number => PAD.l + ((t - from) / (to - from)) * (W - PAD.l - PAD.r);
    const y = (p: number): number => PAD.t + (1 - Math.min(p, top) / top) * (HT - PAD.t - PAD.b);
    const shown = readings.filter((r) => Date.parse(r.observedAt) >= from);
    const resets = [...new Set(shown.map((r) => r.resetsAt).filter((r): r is string => r !== null))].map(Date.parse).filter((t) => t >= from && t <= to);
    const last = readings[readings.length - 1];
    const forecast = last && !w.ended && w.resetsAt && w.projectedPercent !== null
      ? svg`<line class="forecast" x1=${x(Date.parse(last.observedAt))} y1=${y(last.usedPercent)} x2=${x(Date.parse(w.resetsAt))} y2=${y(w.projectedPercent)}></line>`
      : nothing;
    const ticks = [0, 50, 100].filter((p) => p <= top);
    const label = `${windowName(w.window)}: ${shown.length} readings since ${formatDate(from)}, last ${pct(w.usedPercent)}`
      + `${w.projectedPercent !== null && !w.ended ? `, ${pct(w.projectedPercent)} projected at the reset ${formatDateTime(w.resetsAt)}` : ''}`
      + `, ${hits.length} limit hits`;
    return html`<svg viewBox="0 0 ${W} ${HT}" role="img" aria-label=${label} preserveAspectRatio="none">
      ${ticks.map((p) => svg`<line class=${p === 100 ? 'full' : 'grid'} x1=${PAD.l} x2=${W - PAD.r} y1=${y(p)} y2=${y(p)}></line>
        <text class="axis" x=${PAD.l - 4} y=${y(p) + 4} text-anchor="end">${p}%</text>`)}
      ${resets.map((t) => svg`<line class="reset" x1=${x(t)} x2=${x(t)} y1=${PAD.t} y2=${HT - PAD.b}><title>Reset ${formatDateTime(t)}</title></line>`)}
      ${periods(shown).map((p) => svg`<polyline class="reading" points=${p.map((r) => `${x(Date.parse(r.observedAt))},${y(r.usedPercent)}`).join(' ')}></polyline>
        ${p.map((r) => svg`<circle class="dot" r="2.5" cx=${x(Date.parse(r.observedAt))} cy=${y(r.usedPercent)}><title>${pct(r.usedPercent)} at ${formatDateTime(r.observedAt)} (${r.source})</title></circle>`)}`)}
      ${forecast}
      ${hits.filter((h) => Date.parse(h.at) >= from).map((h) => svg`<path class="hit" d="M${x(Date.parse(h.at))} ${PAD.t + 2} l-5 -9 h10 z" transform="translate(0 9)"><title>Limit hit ${formatDateTime(h.at)}: ${h.text}</title></path>`)}
      <text class="axis" x=${PAD.l} y=${HT - 6}>${formatDate(from)}</text>
      <text class="axis" x=${W - PAD.r} y=${HT - 6} text-anchor="end">${formatDateTime(to)}</text>
    </svg>`;
  }

  private _window(w: LimitWindow, d: LimitsData, now: number) {
    const readings = d.readings.filter((r) => r.window === w.window);
    const hits = d.hits.filter((h) => h.window === w.window);
    const figures = [
      `${pct(w.usedPercent)} used ${w.ended ? `(ended ${formatDateTime(w.resetsAt)}, peak ${pct(w.peakPercent)})` : w.resetsAt ? `· resets ${formatDateTime(w.resetsAt)}` : ''}`,
      w.pace !== null && !w.ended ? `pace ${w.pace.toFixed(2)}×` : '',
      w.projectedPercent !== null && !w.ended ? `${pct(w.projectedPercent)} at the reset` : '',
      w.fullAt ? `100% at ${formatTime(w.fullAt)}` : '',
      w.costPerPercent !== null ? `~${formatUsd(w.costPerPercent)} per 1% (estimate)` : '',
    ].filter(Boolean);
    return html`<figure class="window" data-window=${w.window}>
      <figcaption><b class=${`tone-${toneOf(w) || 'none'}`}>${windowName(w.window)}</b> ${figures.join(' · ')}</figcaption>
      ${w.window === 'extra_usage' ? nothing : this._chart(w, readings, hits, now)}
    </figure>`;
  }

  override render() {
    const l = this._data.loaded;
    if (!l) return nothing;
    const d = l.data;
    const now = Date.now();
    const counts = Object.entries(d.hitCounts).map(([w, n]) => `${w === 'unknown' ? 'unnamed' : windowName(w)} ${n}`).join(', ');
    return html`<section class="panel" aria-labelledby="limits-h">
      <h3 id="limits-h" title="Official plan limit readings from the statusline and the plan usage probe, and the limit hits the transcripts report">Plan limits</h3>
      ${d.windows.length
        ? d.windows.map((w) => this._window(w, d, now))
        : html`<p class="muted">No plan limit reading yet. Claude Code sends them to the statusline (set <code>cost-dashboard statusline</code>
            as its statusLine command, or <code>--wrap</code> your own); the server's <code>--poll-limits</code> asks the CLI. See docs/limits.md.</p>`}
      <p class="hits" data-hits=${d.hits.length}>Limit hits in the transcripts: ${d.hits.length ? counts : 'none'}${d.hits.length
        ? html` — latest ${formatDateTime(d.hits[0]!.at)}${d.hits[0]!.resetsAt ? `, reset ${formatDateTime(d.hits[0]!.resetsAt)}` : ''}` : nothing}</p>
    </section>`;
  }

  static override styles = css`
    :host { display: block; margin-top: 16px; }
    .panel { background: var(--bg-elevated); border: 1px solid var(--border); border-radius: 10px; padding: 14px 16px; }
    h3 { margin: 0 0 10px; font-size: 14px; color: var(--ink-1); }
    figure { margin: 0 0 14px; }
    figcaption { font-size: 13px; color: var(--ink-2); margin-bottom: 4px; font-variant-numeric: tabular-nums; }
    figcaption b { color: var(--ink-1); margin-right: 6px; }
    b.tone-warn { color: var(--warning); }
    b.tone-critical { color: var(--error); }
    svg { display: block; width: 100%; height: 170px; }
    .grid { stroke: var(--line); stroke-width: 1; }
    .full { stroke: var(--error); stroke-width: 1; stroke-dasharray: 2 3; }
    .reset { stroke: var(--ink-3); stroke-width: 1; stroke-dasharray: 4 4; }
    .reading { fill: none; stroke: var(--series-1); stroke-width: 2; vector-effect: non-scaling-stroke; }
    .dot { fill: var(--series-1); }
    .forecast { stroke: var(--series-2); stroke-width: 2; stroke-dasharray: 6 4; vector-effect: non-scaling-stroke; }
    .hit { fill: var(--error); }
    .axis { fill: var(--ink-3); font-size: 10px; }
    .muted, .hits { color: var(--ink-3); font-size: 13px; margin: 4px 0 0; }
    code { font-size: 12px; }
  `;
}

customElements.define('cost-limits-section', CostLimitsSection);

declare global {
  interface HTMLElementTagNameMap {
    'cost-limits-section': CostLimitsSection;
  }
}
