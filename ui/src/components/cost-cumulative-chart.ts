import { LitElement, css, html, nothing, svg } from 'lit';
import { formatDateTime, formatUsd, formatUsdAxis } from '../format.ts';
import { niceTicks } from './cost-chart-series.ts';
import { WidthController } from './width-controller.ts';

export interface CumulativePoint {
  /** Epoch ms. */
  t: number;
  /** This step's cost. */
  cost: number;
  /** Running total after it. */
  total: number;
  /** Extra text for the tooltip (model, subagent). */
  note?: string;
}

const H = 200;
const M = { top: 10, right: 12, bottom: 24, left: 56 };
/** Rows in the hidden text table; a long session is sampled evenly. */
const TABLE_ROWS = 100;

/**
 * Running total of a session's cost over time. The plot is one tab stop: arrow keys step through
 * the messages (PageUp/PageDown by 10), the pointer picks the nearest one.
 */
export class CostCumulativeChart extends LitElement {
  static override properties = {
    points: { attribute: false },
    label: {},
    _active: { state: true },
  };

  declare points: CumulativePoint[];
  declare label: string;
  private declare _active: number;
  private readonly _size = new WidthController(this, 640);

  constructor() {
    super();
    this.points = [];
    this.label = 'Cumulative cost';
    this._active = -1;
  }

  private _scales() {
    const pts = this.points;
    const t0 = pts[0]?.t ?? 0;
    const t1 = pts.at(-1)?.t ?? 0;
    const plotW = Math.max(10, this._size.width - M.left - M.right);
    const plotH = H - M.top - M.bottom;
    const ticks = niceTicks(pts.at(-1)?.total ?? 0);
    const yMax = ticks.at(-1) || 1;
    // All at one instant: spread by index so the steps stay visible.
    const byIndex = t1 <= t0;
    const x = (p: CumulativePoint, i: number) =>
      M.left + (byIndex ? (pts.length > 1 ? i / (pts.length - 1) : 0.5) : (p.t - t0) / (t1 - t0)) * plotW;
    const y = (v: number) => M.top + plotH - (v / yMax) * plotH;
    return { x, y, ticks, plotW, plotH, t0, t1 };
  }

  private _onKey(e: KeyboardEvent): void {
    const n = this.points.length;
    const steps: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
    let i: number;
    if (e.key in steps) i = (this._active < 0 ? 0 : this._active) + (steps[e.key] ?? 0);
    else if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = n - 1;
    else return;
    e.preventDefault();
    this._active = Math.max(0, Math.min(n - 1, i));
  }

  private _onPointer(e: PointerEvent): void {
    const pts = this.points;
    if (!pts.length) return;
    const { x } = this._scales();
    const px = e.clientX - (e.currentTarget as SVGElement).getBoundingClientRect().left;
    // Points are in time order, so x is monotonic: binary search for the nearest.
    let lo = 0;
    let hi = pts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (x(pts[mid] as CumulativePoint, mid) < px) lo = mid + 1;
      else hi = mid;
    }
    const prev = lo - 1;
    if (prev >= 0 && Math.abs(x(pts[prev] as CumulativePoint, prev) - px) < Math.abs(x(pts[lo] as CumulativePoint, lo) - px)) lo = prev;
    this._active = lo;
  }

  override render() {
    const pts = this.points;
    const w = this._size.width;
    const { x, y, ticks } = this._scales();
    // One vertex per pixel column is enough for a monotonic line.
    let d = '';
    let lastPx = -Infinity;
    pts.forEach((p, i) => {
      const px = x(p, i);
      if (i === pts.length - 1 || px - lastPx >= 1) {
        d += `${d ? 'L' : 'M'}${px.toFixed(1)},${y(p.total).toFixed(1)}`;
        lastPx = px;
      }
    });
    const area = d && `${d}L${x(pts.at(-1) as CumulativePoint, pts.length - 1).toFixed(1)},${y(0)}L${x(pts[0] as CumulativePoint, 0).toFixed(1)},${y(0)}Z`;
    const a = this._active >= 0 ? pts[this._active] : undefined;
    const last = pts.at(-1);
    const summary = last
      ? `${this.label}: ${pts.length} messages from ${formatDateTime(pts[0]?.t)} to ${formatDateTime(last.t)}, reaching ${formatUsd(last.total)}.`
      : `${this.label}: no messages`;
    const labels = formatUsdAxis(ticks);
    const sample = pts.length <= TABLE_ROWS ? pts : Array.from({ length: TABLE_ROWS }, (_, i) => pts[Math.round((i * (pts.length - 1)) / (TABLE_ROWS - 1))] as CumulativePoint);
    return html`
      <figure aria-label=${summary}>
        <svg width=${w} height=${H} tabindex="0" role="img" aria-label=${summary} @keydown=${this._onKey}
            @pointermove=${this._onPointer} @pointerleave=${() => (this._active = -1)} @blur=${() => (this._active = -1)}>
          ${ticks.map((t, i) => svg`<g class="tick"><line x1=${M.left} x2=${w - M.right} y1=${y(t)} y2=${y(t)}></line>
            <text x=${M.left - 6} y=${y(t)} dy="0.32em" text-anchor="end">${labels[i]}</text></g>`)}
          ${pts.length
            ? svg`<text x=${M.left} y=${H - 6}>${formatDateTime(pts[0]?.t)}</text>
                <text x=${w - M.right} y=${H - 6} text-anchor="end">${formatDateTime(last?.t)}</text>`
            : nothing}
          <path class="area" d=${area}></path>
          <path class="line" d=${d}></path>
          ${a ? svg`<line class="cursor" x1=${x(a, this._active)} x2=${x(a, this._active)} y1=${M.top} y2=${y(0)}></line>
              <circle class="dot" cx=${x(a, this._active)} cy=${y(a.total)} r="4"></circle>` : nothing}
        </svg>
        <figcaption aria-live="polite">
          ${a
            ? html`<b>${formatUsd(a.total)}</b> after message ${this._active + 1} of ${pts.length} · ${formatDateTime(a.t)} · +${formatUsd(a.cost)}${a.note ? ` · ${a.note}` : ''}`
            : html`Hover or use the arrow keys to read the running total`}
        </figcaption>
      </figure>
      <div class="sr"><table>
        <caption>${this.label}${sample.length < pts.length ? ` (every ${Math.round(pts.length / TABLE_ROWS)}th message)` : ''}</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Cost</th><th scope="col">Running total</th></tr></thead>
        <tbody>${sample.map((p) => html`<tr><td>${formatDateTime(p.t)}</td><td>${formatUsd(p.cost)}</td><td>${formatUsd(p.total)}</td></tr>`)}</tbody>
      </table></div>
    `;
  }

  static override styles = css`
    :host { display: block; min-width: 0; }
    figure { margin: 0; }
    svg { display: block; overflow: visible; outline: none; border-radius: 6px; }
    svg:focus-visible { outline: 2px solid var(--accent); outline-offset: 4px; }
    .tick line { stroke: var(--border); stroke-dasharray: 2 3; }
    text { fill: var(--ink-3); font-size: 11px; font-variant-numeric: tabular-nums; }
    .line { fill: none; stroke: var(--series-1, #e69f00); stroke-width: 2; stroke-linejoin: round; }
    .area { fill: var(--series-1, #e69f00); opacity: 0.15; }
    .cursor { stroke: var(--text-muted); stroke-dasharray: 3 3; }
    .dot { fill: var(--series-1, #e69f00); stroke: var(--bg-elevated); stroke-width: 2; }
    figcaption { font-size: 12px; color: var(--ink-3); margin-top: 6px; min-height: 1.3em; font-variant-numeric: tabular-nums; }
    figcaption b { color: var(--ink-1); }
    /* A wrapper, not the table itself: a table grows to fit its rows whatever its height, and would stretch the page. */
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;
}

customElements.define('cost-cumulative-chart', CostCumulativeChart);

declare global {
  interface HTMLElementTagNameMap {
    'cost-cumulative-chart': CostCumulativeChart;
  }
}
