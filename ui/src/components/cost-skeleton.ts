import { LitElement, css, html, nothing } from 'lit';

/** Grey placeholders in the shape of a view (cards, a chart, table rows) while its first data loads. */
export class CostSkeleton extends LitElement {
  static override properties = {
    cards: { type: Number },
    chart: { type: Boolean },
    rows: { type: Number },
  };

  declare cards: number;
  declare chart: boolean;
  declare rows: number;

  constructor() {
    super();
    this.cards = 4;
    this.chart = true;
    this.rows = 6;
  }

  override render() {
    return html`<div role="status" aria-live="polite" aria-busy="true">
      <span class="sr">Loading…</span>
      ${this.cards ? html`<div class="cards">${Array.from({ length: this.cards }, () => html`<div class="block card"></div>`)}</div>` : nothing}
      ${this.chart ? html`<div class="block chart"></div>` : nothing}
      ${Array.from({ length: this.rows }, () => html`<div class="block row"></div>`)}
    </div>`;
  }

  static override styles = css`
    :host { display: block; }
    .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px; margin-bottom: 16px; }
    .block { border-radius: 10px; background: linear-gradient(90deg, var(--bg-elevated) 0%, var(--bg-hover) 50%, var(--bg-elevated) 100%);
      background-size: 200% 100%; animation: shimmer 1.4s ease-in-out infinite; }
    .card { height: 92px; }
    .chart { height: 240px; margin-bottom: 16px; }
    .row { height: 30px; margin-bottom: 6px; border-radius: 6px; }
    @keyframes shimmer { from { background-position: 100% 0; } to { background-position: -100% 0; } }
    @media (prefers-reduced-motion: reduce) { .block { animation: none; } }
  `;
}

customElements.define('cost-skeleton', CostSkeleton);

declare global {
  interface HTMLElementTagNameMap {
    'cost-skeleton': CostSkeleton;
  }
}
