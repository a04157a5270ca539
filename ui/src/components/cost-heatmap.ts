import { LitElement, css, html, svg } from 'lit';
import { formatUsd } from '../format.ts';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const CELL = 22;
const GAP = 3;
const LEFT = 36;
const TOP = 18;

const hourSpan = (h: number) => `${String(h).padStart(2, '0')}:00–${String((h + 1) % 24).padStart(2, '0')}:00`;

/**
 * Cost by local weekday (rows, Monday first) and hour (columns). One tab stop; arrow keys move
 * between cells and the caption line reads the focused or hovered cell.
 */
export class CostHeatmap extends LitElement {
  static override properties = {
    data: { attribute: false },
    label: {},
    _at: { state: true },
  };

  /** data[weekday][hour], weekday 0 = Monday. */
  declare data: number[][];
  declare label: string;
  private declare _at: [number, number] | null;

  constructor() {
    super();
    this.data = [];
    this.label = 'Cost by weekday and hour';
    this._at = null;
  }

  private _value(d: number, h: number): number {
    return this.data[d]?.[h] ?? 0;
  }

  private _move(d: number, h: number): void {
    this._at = [(d + 7) % 7, (h + 24) % 24];
    void this.updateComplete.then(() => this.renderRoot.querySelector<SVGRectElement>(`rect[data-d="${this._at?.[0]}"][data-h="${this._at?.[1]}"]`)?.focus());
  }

  private _onKey(e: KeyboardEvent): void {
    const [d, h] = this._at ?? [0, 0];
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    this._move(d + m[0], h + m[1]);
  }

  private _summary(max: number, total: number): string {
    if (!(total > 0)) return `${this.label}: no cost in this range`;
    let best: [number, number] = [0, 0];
    for (let d = 0; d < 7; d++) for (let h = 0; h < 24; h++) if (this._value(d, h) > this._value(...best)) best = [d, h];
    return `${this.label}: busiest ${DAYS[best[0]]} ${hourSpan(best[1])} with ${formatUsd(max)} of ${formatUsd(total)}.`;
  }

  override render() {
    let max = 0;
    let total = 0;
    for (let d = 0; d < 7; d++) for (let h = 0; h < 24; h++) {
      const v = this._value(d, h);
      max = Math.max(max, v);
      total += v;
    }
    const w = LEFT + 24 * (CELL + GAP);
    const hgt = TOP + 7 * (CELL + GAP);
    const at = this._at ?? [0, 0];
    const cur = this._at ? `${DAYS[at[0]]} ${hourSpan(at[1])}: ${formatUsd(this._value(...at))}` : 'Hover or focus a cell for its cost';
    return html`
      <figure aria-label=${this._summary(max, total)}>
        <svg viewBox=${`0 0 ${w} ${hgt}`} width=${w} role="grid" aria-label=${this.label} @keydown=${this._onKey}
            @mouseleave=${() => (this._at = null)}>
          ${[0, 3, 6, 9, 12, 15, 18, 21].map((h) => svg`<text x=${LEFT + h * (CELL + GAP)} y="11">${String(h).padStart(2, '0')}</text>`)}
          ${DAYS.map((day, d) => svg`<g role="row">
            <text x="0" y=${TOP + d * (CELL + GAP) + CELL / 2} dy="0.32em">${day}</text>
            ${Array.from({ length: 24 }, (_, h) => {
              const v = this._value(d, h);
              const on = this._at?.[0] === d && this._at[1] === h;
              return svg`<rect role="gridcell" data-d=${d} data-h=${h} class=${on ? 'on' : ''}
                x=${LEFT + h * (CELL + GAP)} y=${TOP + d * (CELL + GAP)} width=${CELL} height=${CELL} rx="3"
                tabindex=${at[0] === d && at[1] === h ? 0 : -1}
                fill=${v > 0 ? 'var(--accent)' : 'var(--bg-hover)'} fill-opacity=${v > 0 ? 0.15 + 0.85 * Math.sqrt(v / max) : 1}
                aria-label=${`${day} ${hourSpan(h)}: ${formatUsd(v)}`}
                @mouseenter=${() => (this._at = [d, h])} @focus=${() => (this._at = [d, h])}><title>${day} ${hourSpan(h)}: ${formatUsd(v)}</title></rect>`;
            })}</g>`)}
        </svg>
        <figcaption aria-live="polite">${cur}</figcaption>
      </figure>
      <div class="sr"><table>
        <caption>${this.label}</caption>
        <thead><tr><th scope="col">Day</th>${Array.from({ length: 24 }, (_, h) => html`<th scope="col">${hourSpan(h)}</th>`)}</tr></thead>
        <tbody>${DAYS.map((day, d) => html`<tr><th scope="row">${day}</th>${Array.from({ length: 24 }, (_, h) => html`<td>${formatUsd(this._value(d, h))}</td>`)}</tr>`)}</tbody>
      </table></div>
    `;
  }

  static override styles = css`
    :host { display: block; min-width: 0; overflow-x: auto; }
    figure { margin: 0; }
    svg { display: block; max-width: 100%; height: auto; }
    text { fill: var(--ink-3); font-size: 10px; }
    rect { outline: none; }
    rect.on, rect:focus-visible { stroke: var(--ink-1); stroke-width: 1.5; }
    figcaption { font-size: 12px; color: var(--ink-3); margin-top: 6px; font-variant-numeric: tabular-nums; min-height: 1.3em; }
    /* A wrapper, not the table itself: a table grows to fit its rows whatever its height, and would stretch the page. */
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;
}

customElements.define('cost-heatmap', CostHeatmap);

declare global {
  interface HTMLElementTagNameMap {
    'cost-heatmap': CostHeatmap;
  }
}
