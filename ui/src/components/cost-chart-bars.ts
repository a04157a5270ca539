import { LitElement, css, html, nothing } from 'lit';
import { formatPercent } from '../format.ts';

export interface BarItem {
  label: string;
  value: number;
  /** CSS colour; defaults to the accent. */
  color?: string;
  /** Hover / focus detail, e.g. the token counts behind a cost. */
  detail?: string;
}

/**
 * Horizontal bars, biggest first, each with its value and share of the total (cost by model, top tools). The bars
 * scale to the biggest named row: the summed "N more" row can exceed it, and is then drawn full and dashed.
 */
export class CostChartBars extends LitElement {
  static override properties = {
    items: { attribute: false },
    format: { attribute: false },
    label: {},
    limit: { type: Number },
  };

  declare items: BarItem[];
  declare format: (n: number) => string;
  declare label: string;
  /** Rows shown; the rest are summed into one "N more" row. */
  declare limit: number;

  constructor() {
    super();
    this.items = [];
    this.format = (n) => String(n);
    this.label = '';
    this.limit = 10;
  }

  private _rows(): (BarItem & { rest?: boolean })[] {
    const sorted = [...this.items].sort((a, b) => b.value - a.value);
    if (sorted.length <= this.limit) return sorted;
    const rest = sorted.slice(this.limit - 1);
    return [
      ...sorted.slice(0, this.limit - 1),
      { label: `${rest.length} more`, rest: true, value: rest.reduce((s, r) => s + r.value, 0), color: 'var(--text-muted)', detail: rest.map((r) => `${r.label}: ${this.format(r.value)}`).join('\n') },
    ];
  }

  override render() {
    const rows = this._rows();
    const total = rows.reduce((s, r) => s + r.value, 0);
    const max = Math.max(0, ...rows.filter((r) => !r.rest).map((r) => r.value)) || 1;
    const summary = `${this.label}: ${rows.map((r) => `${r.label} ${this.format(r.value)}`).join(', ')}`;
    return html`
      <div class="bars" role="list" aria-label=${summary}>
        ${rows.map((r) => {
          const share = total > 0 ? r.value / total : 0;
          return html`<div class="row" role="listitem" tabindex="0" title=${r.detail ?? `${r.label}: ${this.format(r.value)}`}
              aria-label=${`${r.label}: ${this.format(r.value)}, ${formatPercent(share)}`}>
            <span class="name">${r.label}</span>
            <span class="track"><span class="fill ${r.rest && r.value > max ? 'over' : ''}" style=${`width:${Math.min(1, r.value / max) * 100}%;background:${r.color ?? 'var(--accent)'}`}></span></span>
            <span class="val">${this.format(r.value)}</span>
            <span class="share">${formatPercent(share, 0)}</span>
          </div>`;
        })}
      </div>
      <div class="sr"><table>
        <caption>${this.label}</caption>
        <tbody>${rows.map((r) => html`<tr><th scope="row">${r.label}</th><td>${this.format(r.value)}</td></tr>`)}</tbody>
      </table></div>
      ${rows.length ? nothing : html`<div class="none">No data</div>`}
    `;
  }

  static override styles = css`
    :host { display: block; min-width: 0; }
    .bars { display: grid; grid-template-columns: minmax(80px, max-content) 1fr auto auto; gap: 6px 10px; align-items: center; }
    .row { display: grid; grid-column: 1 / -1; grid-template-columns: subgrid; align-items: center; font-size: 13px; color: var(--ink-2); border-radius: 4px; }
    .row:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
    .row:hover .name { color: var(--ink-1); }
    .name { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 220px; }
    .track { height: 12px; background: var(--bg-hover); border-radius: 3px; overflow: hidden; }
    .fill { display: block; height: 100%; border-radius: 3px; min-width: 2px; box-sizing: border-box; }
    .fill.over { background-clip: content-box !important; padding-right: 6px; border-right: 2px dashed var(--ink-3); border-radius: 3px 0 0 3px; }
    .val { text-align: right; font-variant-numeric: tabular-nums; color: var(--ink-1); font-weight: 500; }
    .share { text-align: right; font-variant-numeric: tabular-nums; color: var(--ink-3); font-size: 12px; min-width: 3ch; }
    .none { color: var(--ink-3); font-size: 13px; }
    /* A wrapper, not the table itself: a table grows to fit its rows whatever its height, and would stretch the page. */
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  `;
}

customElements.define('cost-chart-bars', CostChartBars);

declare global {
  interface HTMLElementTagNameMap {
    'cost-chart-bars': CostChartBars;
  }
}
