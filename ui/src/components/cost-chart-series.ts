import { LitElement, css, html, nothing, svg, type PropertyValues } from 'lit';
import { formatBucket, formatDateWithYear, formatLongBucket, formatUsd, formatUsdAxis, shortModel } from '../format.ts';
import type { SeriesBucket, SeriesPoint } from '../../../src/shared/api-types.ts';
import { OTHER, modelPalette, totalsByModel } from '../chart-colors.ts';
import type { ModelPalette } from '../chart-colors.ts';
import { WidthController } from './width-controller.ts';

/** Round axis ticks from 0 to at least `max` (about `count` steps of 1, 2 or 5 × 10^n). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 1e-9; v += step) ticks.push(v);
  if ((ticks.at(-1) ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}

const H = 230;
const M = { top: 10, right: 8, bottom: 24, left: 56 };

/** The period before the chart's, as long as it: point i is the same offset from its start as the chart's point i. */
export interface PreviousSeries {
  label: string;
  points: SeriesPoint[];
}

interface Stack {
  point: SeriesPoint;
  label: string;
  parts: { group: string; y0: number; y1: number; cost: number }[];
}

/**
 * Cost over time, stacked by model, as bars or areas. Every bucket is focusable (arrow keys move
 * between them) and shows its breakdown in a tooltip; a hidden table carries the same numbers.
 */
export class CostChartSeries extends LitElement {
  static override properties = {
    points: { attribute: false },
    bucket: {},
    palette: { attribute: false },
    label: {},
    partial: { attribute: false },
    partialLabel: { attribute: 'partial-label' },
    mode: { reflect: true },
    previous: { attribute: false },
    _compare: { state: true },
    _active: { state: true },
    _hover: { state: true },
  };

  declare points: SeriesPoint[];
  /** What one point covers (long ranges come summed by week or month). */
  declare bucket: SeriesBucket;
  /** Shared with the other charts of the view; derived from the points when unset. */
  declare palette: ModelPalette | null;
  declare label: string;
  /** Keys of points that cover only part of their bucket (a week the range cuts): drawn faded and labelled. */
  declare partial: string[];
  declare partialLabel: string;
  declare mode: 'bars' | 'area';
  /** When set, a toggle overlays it as a line (with its legend entry, and its value in each tooltip). */
  declare previous: PreviousSeries | null;
  /** The overlay is shown (the toggle); kept for the page's life only, as the spec names no storage for it. */
  private declare _compare: boolean;
  private declare _active: number;
  private declare _hover: boolean;
  private readonly _size = new WidthController(this, 640);

  constructor() {
    super();
    this.points = [];
    this.bucket = 'day';
    this.palette = null;
    this.label = 'Cost';
    this.partial = [];
    this.partialLabel = 'partial';
    this.mode = 'bars';
    this.previous = null;
    this._compare = false;
    this._active = -1;
    this._hover = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    cancelAnimationFrame(this._frame);
  }

  private _frame = 0;
  private _deferred = false;

  /**
   * New points (or a new previous period) are drawn one frame later: a year of columns takes tens of milliseconds to
   * render, and the figures around the chart (the numbers users look at first) should not wait for it.
   */
  protected override shouldUpdate(changed: PropertyValues<this>): boolean {
    if ((changed.has('points') || changed.has('previous')) && !this._deferred) {
      this._deferred = true;
      cancelAnimationFrame(this._frame);
      this._frame = requestAnimationFrame(() => this.requestUpdate());
      return false;
    }
    this._deferred = false;
    return true;
  }

  private _palette(): ModelPalette {
    return this.palette ?? modelPalette(totalsByModel(this.points));
  }

  private _label(p: SeriesPoint, withDay: boolean): string {
    // Day and week ticks of a series across a year end carry the year (else only last year's would).
    if (!withDay && (this.bucket === 'day' || this.bucket === 'week') && this._spansYears()) return formatDateWithYear(p.key);
    if (this.bucket === 'week' || this.bucket === 'month') return formatLongBucket(p.key, this.bucket, withDay);
    return formatBucket(p.key, withDay && this.bucket === 'hour');
  }

  /** Whether the points run over more than one calendar year (their keys start 'YYYY'). */
  private _spansYears(): boolean {
    const first = this.points[0]?.key.slice(0, 4);
    return first !== undefined && this.points.at(-1)!.key.slice(0, 4) !== first;
  }

  private _stacks(pal: ModelPalette): Stack[] {
    return this.points.map((point) => {
      const byGroup = new Map<string, number>();
      for (const [m, c] of Object.entries(point.byModel)) byGroup.set(pal.group(m), (byGroup.get(pal.group(m)) ?? 0) + c);
      let y = 0;
      const parts = pal.order.map((group) => {
        const cost = byGroup.get(group) ?? 0;
        const part = { group, y0: y, y1: y + cost, cost };
        y += cost;
        return part;
      });
      const label = this._label(point, true);
      return { point, label: this.partial.includes(point.key) ? `${label} (${this.partialLabel})` : label, parts };
    });
  }

  private _focus(i: number): void {
    const n = this.points.length;
    if (!n) return;
    this._active = Math.max(0, Math.min(n - 1, i));
    void this.updateComplete.then(() => this.renderRoot.querySelector<SVGGElement>(`g.col[data-i="${this._active}"]`)?.focus());
  }

  private _onKey(e: KeyboardEvent): void {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (e.key in moves) this._focus(this._active + (moves[e.key] ?? 0));
    else if (e.key === 'Home') this._focus(0);
    else if (e.key === 'End') this._focus(this.points.length - 1);
    else if (e.key === 'Escape') this._hover = false;
    else return;
    e.preventDefault();
  }

  private _summary(): string {
    const pts = this.points;
    if (!pts.length) return `${this.label}: no data`;
    const total = pts.reduce((s, p) => s + p.cost, 0);
    const top = pts.reduce((a, b) => (b.cost > a.cost ? b : a));
    const unit = this.bucket;
    return `${this.label} per ${unit}, ${this._label(pts[0] as SeriesPoint, true)} to ${this._label(pts.at(-1) as SeriesPoint, true)}: total ${formatUsd(total)}, highest ${formatUsd(top.cost)} at ${this._label(top, true)}.`;
  }

  override render() {
    const pal = this._palette();
    const stacks = this._stacks(pal);
    const n = stacks.length;
    const w = this._size.width;
    const plotW = Math.max(10, w - M.left - M.right);
    const plotH = H - M.top - M.bottom;
    const prev = this._compare && this.previous ? this.previous : null;
    const before = (i: number): SeriesPoint | undefined => prev?.points[i];
    const ticks = niceTicks(Math.max(0, ...stacks.map((s) => s.point.cost), ...(prev ? prev.points.slice(0, n).map((p) => p.cost) : [])));
    const tickLabels = formatUsdAxis(ticks);
    const yMax = ticks.at(-1) || 1;
    const y = (v: number) => M.top + plotH - (v / yMax) * plotH;
    const band = plotW / Math.max(1, n);
    const barW = Math.max(1, Math.min(48, band * 0.72));
    const x = (i: number) => M.left + band * i + band / 2;
    const labelW = 14 + 6.5 * Math.max(0, ...stacks.map((s) => this._label(s.point, false).length));
    const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor(plotW / labelW))));
    const active = this._active >= 0 && this._active < n ? this._active : -1;
    const tabAt = active >= 0 ? active : n - 1;
    const totals = totalsByModel(this.points);
    const groupTotal = (g: string) => [...totals].filter(([m]) => pal.group(m) === g).reduce((s, [, c]) => s + c, 0);
    const tip = this._hover && active >= 0 ? stacks[active] : undefined;

    return html`
      <figure aria-label=${this._summary()}>
        <div class="plot" @mouseleave=${() => (this._hover = false)}>
          <svg width=${w} height=${H} role="group" aria-label=${this._summary()} @keydown=${this._onKey}>
            ${ticks.map((t, i) => svg`<g class="tick"><line x1=${M.left} x2=${w - M.right} y1=${y(t)} y2=${y(t)}></line>
              <text x=${M.left - 6} y=${y(t)} dy="0.32em" text-anchor="end">${tickLabels[i]}</text></g>`)}
            ${stacks.map((s, i) => (i % every === 0 ? svg`<text class="xl" x=${x(i)} y=${H - 6} text-anchor="middle">${this._label(s.point, false)}</text>` : nothing))}
            ${this.mode === 'area' && n > 1
              ? pal.order.map((g, gi) => {
                  const top = stacks.map((s, i) => `${x(i)},${y(s.parts[gi]?.y1 ?? 0)}`);
                  const bottom = stacks.map((s, i) => `${x(i)},${y(s.parts[gi]?.y0 ?? 0)}`).reverse();
                  return svg`<polygon class="area" points=${[...top, ...bottom].join(' ')} fill=${pal.color(g)}></polygon>`;
                })
              : nothing}
            ${stacks.map(
              (s, i) => svg`<g class="col ${i === active ? 'on' : ''} ${this.partial.includes(s.point.key) ? 'partial' : ''}" data-i=${i} tabindex=${i === tabAt ? 0 : -1} role="img"
                  aria-label=${`${s.label}: ${formatUsd(s.point.cost)}`}
                  @mouseenter=${() => { this._active = i; this._hover = true; }}
                  @focus=${() => { this._active = i; this._hover = true; }}
                  @blur=${() => (this._hover = false)}>
                <rect class="hit" x=${M.left + band * i} y=${M.top} width=${band} height=${plotH}></rect>
                ${this.mode === 'bars' || n === 1
                  ? s.parts.map((p) => p.cost > 0
                      ? svg`<rect class="seg" x=${x(i) - barW / 2} y=${y(p.y1)} width=${barW} height=${Math.max(0.5, y(p.y0) - y(p.y1))} fill=${pal.color(p.group)}></rect>`
                      : nothing)
                  : svg`<circle class="dot" cx=${x(i)} cy=${y(s.point.cost)} r="3.5"></circle>`}
              </g>`,
            )}
            ${prev
              ? svg`<polyline class="previous" points=${stacks.flatMap((_, i) => { const p = before(i); return p ? [`${x(i)},${y(p.cost)}`] : []; }).join(' ')}></polyline>`
              : nothing}
          </svg>
          ${tip
            ? html`<div class="tip" role="tooltip" style=${`left:${Math.min(Math.max(x(active), 90), w - 90)}px`}>
                <div class="tl">${tip.label}</div>
                <div class="tv">${formatUsd(tip.point.cost)}</div>
                ${prev ? html`<div class="tp">${prev.label}: <b>${before(active) ? formatUsd(before(active)!.cost) : '—'}</b>${before(active) ? ` (${this._label(before(active)!, true)})` : ''}</div>` : nothing}
                ${tip.parts.filter((p) => p.cost > 0).sort((a, b) => b.cost - a.cost).map(
                  (p) => html`<div class="tr"><i style=${`background:${pal.color(p.group)}`}></i>
                    <span>${p.group === OTHER ? p.group : shortModel(p.group)}</span><b>${formatUsd(p.cost)}</b></div>`,
                )}
              </div>`
            : nothing}
        </div>
        <div class="legend" role="list" aria-label="Models">
          ${pal.order.map((g) => html`<span class="item" role="listitem" title=${g}>
            <i style=${`background:${pal.color(g)}`}></i>${g === OTHER ? g : shortModel(g)}
            <b>${formatUsd(groupTotal(g))}</b></span>`)}
          ${prev ? html`<span class="item prev" role="listitem"><i class="dash"></i>${prev.label}
            <b>${formatUsd(prev.points.slice(0, n).reduce((t, p) => t + p.cost, 0))}</b></span>` : nothing}
          <span class="spacer"></span>
          ${this.previous
            ? html`<button class="compare" aria-pressed=${this._compare} @click=${() => (this._compare = !this._compare)}
                title="Overlay the period of the same length just before this one">Compare with ${this.previous.label}</button>`
            : nothing}
          <span class="modes" role="group" aria-label="Chart type">
            <button aria-pressed=${this.mode === 'bars'} @click=${() => (this.mode = 'bars')}>Bars</button>
            <button aria-pressed=${this.mode === 'area'} @click=${() => (this.mode = 'area')}>Area</button>
          </span>
        </div>
        <div class="sr"><table>
          <caption>${this.label}</caption>
          <thead><tr><th scope="col">${this.bucket[0]!.toUpperCase() + this.bucket.slice(1)}</th><th scope="col">Total</th>
            ${pal.order.map((g) => html`<th scope="col">${g}</th>`)}${prev ? html`<th scope="col">${prev.label}</th>` : nothing}</tr></thead>
          <tbody>${stacks.map((s, i) => html`<tr><th scope="row">${s.label}</th><td>${formatUsd(s.point.cost)}</td>
            ${s.parts.map((p) => html`<td>${formatUsd(p.cost)}</td>`)}${prev ? html`<td>${before(i) ? formatUsd(before(i)!.cost) : '—'}</td>` : nothing}</tr>`)}</tbody>
        </table></div>
      </figure>
    `;
  }

  static override styles = css`
    :host { display: block; min-width: 0; }
    figure { margin: 0; }
    .plot { position: relative; }
    svg { display: block; overflow: visible; }
    .tick line { stroke: var(--border); stroke-dasharray: 2 3; }
    text { fill: var(--ink-3); font-size: 11px; font-variant-numeric: tabular-nums; }
    .hit { fill: transparent; }
    g.col { outline: none; cursor: default; }
    g.col.on .hit { fill: var(--bg-hover); opacity: 0.6; }
    g.col:focus-visible .hit { stroke: var(--accent); stroke-width: 2; }
    .area { opacity: 0.85; }
    /* A bucket the range cuts (fewer days than its neighbours): faded, and named so in its label and tooltip. */
    g.col.partial .seg { fill-opacity: 0.45; }
    .dot { fill: var(--ink-1); opacity: 0; }
    g.col.on .dot { opacity: 1; }
    .tip { position: absolute; top: 0; transform: translateX(-50%); pointer-events: none; z-index: 2; min-width: 150px;
      background: var(--bg-elevated); border: 1px solid var(--border); border-radius: 8px; padding: 8px 10px;
      box-shadow: 0 6px 20px rgb(0 0 0 / 0.25); font-size: 12px; color: var(--ink-2); }
    .tl { color: var(--ink-3); }
    .tv { font-size: 16px; font-weight: 650; color: var(--ink-1); margin: 2px 0 4px; }
    .tr { display: flex; align-items: center; gap: 6px; font-variant-numeric: tabular-nums; }
    .tr span { flex: 1; }
    i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; flex: none; }
    .legend { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; margin-top: 8px; font-size: 12px; color: var(--ink-2); }
    .item { display: inline-flex; align-items: center; gap: 6px; }
    .item b { font-weight: 500; color: var(--ink-3); font-variant-numeric: tabular-nums; }
    .spacer { flex: 1; }
    /* The previous period: a dashed line in the text colour, apart from every model colour. */
    .previous { fill: none; stroke: var(--ink-2); stroke-width: 2; stroke-dasharray: 5 4; pointer-events: none; }
    i.dash { height: 0; border-radius: 0; border-top: 2px dashed var(--ink-2); }
    .tp { margin: 0 0 4px; }
    .tp b { color: var(--ink-1); font-weight: 600; }
    .compare { font: inherit; font-size: 11px; background: none; border: 1px solid var(--border); border-radius: 6px; color: var(--ink-3);
      padding: 3px 8px; cursor: pointer; }
    .compare[aria-pressed='true'] { background: var(--selected-bg); color: var(--ink-1); }
    .compare:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    .modes { display: inline-flex; border: 1px solid var(--border); border-radius: 6px; overflow: hidden; }
    .modes button { font: inherit; font-size: 11px; background: none; border: none; color: var(--ink-3); padding: 3px 8px; cursor: pointer; }
    .modes button[aria-pressed='true'] { background: var(--selected-bg); color: var(--ink-1); }
    .modes button:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
    /* A wrapper, not the table itself: a table grows to fit its rows whatever its height, and would stretch the page. */
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;
}

customElements.define('cost-chart-series', CostChartSeries);

declare global {
  interface HTMLElementTagNameMap {
    'cost-chart-series': CostChartSeries;
  }
}
